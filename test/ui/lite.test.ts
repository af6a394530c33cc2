import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { systemClock } from '../../src/util/clock.js';
import { browserSkipReason, openPage, screenshot, serverAndBrowser, startUiServer } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';

// /lite and /lite/settings as a ham uses them, on the real server and Debian's Chromium.

const NOW = '2026-08-22T12:00:00Z';
const skip = browserSkipReason() ?? false;
const text = (page: Page, sel: string) => page.locator(sel).first().innerText();

async function openLite(browser: Browser, s: TestServer, path = '/lite', size = { width: 480, height: 320 }) {
  const o = await openPage(browser, size);
  await o.page.clock.install({ time: Date.parse(NOW) });
  await o.page.goto(s.base + path);
  await o.page.locator('[data-countdown]').waitFor();
  return o;
}

describe('/lite and /lite/settings', { skip }, () => {
  const env = serverAndBrowser({ now: NOW });

  it('shows a new user the ISS with a ticking countdown, sky plot, the pair to tune and an invitation', async () => {
    const { context, page, problems } = await openLite(env.browser, env.s);
    assert.match(await text(page, '[data-focus-name]'), /ISS/);
    const before = await text(page, '[data-countdown]');
    await page.clock.runFor(2000);
    const later = await text(page, '[data-countdown]');
    assert.notEqual(before, later, 'the countdown ticks between polls');
    assert.match(await text(page, '[data-tune]'), /437\.\d{3}/);
    assert.match(await text(page, '[data-tune]'), /145\.990/);
    assert.equal(await page.locator('svg.sky polyline').count(), 1, 'the pass track is drawn');
    assert.equal(await page.locator('svg.sky [data-aos]').count(), 1, 'AOS is marked');
    assert.match(await page.locator('a.invite').innerText(), /Choose satellites/);
    // 480×320 says them in a few words; the whole line is its title and one tap away.
    assert.equal(await text(page, '[data-radio-line]'), 'radio off');
    assert.match((await page.locator('[data-radio-line]').getAttribute('title'))!, /radio: disabled/);
    assert.equal(await text(page, '[data-aprs-line]'), 'APRS off');
    assert.match((await page.locator('[data-aprs-line]').getAttribute('title'))!, /aprs: off/);
    await screenshot(page, 'lite-new-user-480x320');
    assert.deepEqual(problems.errors, []);
    await context.close();
  });

  it('changes the tracked set on /lite/settings and shows it on /lite', async () => {
    const { context, page, problems } = await openPage(env.browser, { width: 800, height: 480 });
    await page.goto(env.s.base + '/lite/settings');
    await page.locator('input[type=search]').fill('so-50');
    await page.locator('[data-sat="so-50"]').check();
    await page.locator('input[type=search]').fill('AO-91');
    await page.locator('[data-sat="ao-91"]').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('[data-saved]').waitFor();
    assert.match(await text(page, '[data-saved]'), /SO-50/);
    await screenshot(page, 'lite-settings-saved-800x480');
    const saved = await env.s.get('/api/v1/settings/lite');
    assert.deepEqual(saved.body.state, { tracked_sat_ids: ['iss', 'so-50', 'ao-91'], setup_complete: true });
    await page.clock.install({ time: Date.parse(NOW) });
    await page.goto(env.s.base + '/lite');
    await page.locator('[data-countdown]').waitFor();
    const passes = await page.locator('[data-pass]').evaluateAll((els) => els.map((e) => e.getAttribute('data-pass')));
    assert.ok(passes.some((p) => p === 'so-50' || p === 'ao-91'), `next passes include the new satellites: ${passes}`);
    assert.equal(await page.locator('a.invite').count(), 0, 'no invitation once setup is complete');
    assert.deepEqual(problems.errors, []);
    await context.close();
  });

  it('shows the API message inline when more than 8 satellites are chosen, and saves nothing', async () => {
    const { context, page } = await openPage(env.browser, { width: 480, height: 320 });
    await page.goto(env.s.base + '/lite/settings');
    await page.locator('[data-sat]').first().waitFor();
    const before = (await env.s.get('/api/v1/settings/lite')).body.state.tracked_sat_ids;
    const unchecked = await page.locator('[data-sat]:not(:checked)').evaluateAll((els) => els.map((e) => e.getAttribute('data-sat')!));
    for (const id of unchecked.slice(0, 9 - before.length)) await page.locator(`[data-sat="${id}"]`).check();
    assert.match(await text(page, '[data-count]'), /9 of 8/);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('[data-error]').waitFor();
    assert.match(await text(page, '[data-error]'), /at most 8 tracked satellites/);
    await screenshot(page, 'lite-settings-limit-480x320');
    assert.deepEqual((await env.s.get('/api/v1/settings/lite')).body.state.tracked_sat_ids, before);
    await context.close();
  });

  it('makes a tapped pass the focus', async () => {
    const { context, page, problems } = await openLite(env.browser, env.s, '/lite', { width: 800, height: 480 });
    const focus = await text(page, '[data-focus-name]');
    const other = page.locator('[data-tracked][data-pass]:not([aria-pressed=true])').first();
    const satId = await other.getAttribute('data-pass');
    await other.click();
    await page.waitForFunction((f) => document.querySelector('[data-focus-name]')?.textContent !== f, focus);
    assert.notEqual(await text(page, '[data-focus-name]'), focus);
    assert.equal(new URL(page.url()).searchParams.get('sat_id'), satId);
    await screenshot(page, 'lite-tapped-focus-800x480');
    assert.deepEqual(problems.errors, []);
    await context.close();
  });

  it('switches to night mode and remembers it on this device', async () => {
    const { context, page } = await openLite(env.browser, env.s);
    await page.getByRole('button', { name: 'Night' }).click();
    assert.equal(await page.evaluate(() => document.documentElement.classList.contains('night')), true);
    await page.reload();
    await page.locator('[data-countdown]').waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.classList.contains('night')), true, 'remembered after a reload');
    const bg = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    assert.equal(bg, 'rgb(0, 0, 0)');
    await screenshot(page, 'lite-night-480x320');
    await page.getByRole('button', { name: 'Day' }).click();
    assert.equal(await page.evaluate(() => document.documentElement.classList.contains('night')), false);
    await context.close();
  });

  it('keeps the last data with its age when the appliance stops answering, stale from 12 h, reference only from 24 h', async () => {
    const own = await startUiServer({ now: NOW });
    const { context, page } = await openPage(env.browser, { width: 800, height: 480 });
    await page.clock.install({ time: Date.parse(NOW) });
    await page.goto(own.base + '/lite');
    await page.locator('[data-countdown]').waitFor();
    await own.stop();
    await page.clock.runFor(6000);
    await page.locator('[data-stale="late"]').waitFor();
    assert.match(await text(page, '[data-stale]'), /not answering/);
    assert.match(await text(page, '[data-focus-name]'), /ISS/, 'the last data stays on screen');
    await page.clock.fastForward('12:00:00');
    await page.clock.runFor(6000);
    await page.locator('[data-stale="stale"]').waitFor();
    assert.match(await text(page, '[data-stale]'), /STALE: data is 12 h/);
    await screenshot(page, 'lite-stale-800x480');
    await page.clock.fastForward('12:00:00');
    await page.clock.runFor(6000);
    await page.locator('[data-stale="reference"]').waitFor();
    assert.match(await text(page, '.passinfo'), /reference only/);
    await screenshot(page, 'lite-reference-only-800x480');
    await context.close();
  });

  for (const host of ['127.0.0.1', 'localhost']) {
    it(`reloads from the service worker with the last data and its age when the appliance is gone (${host}, first visit)`, async () => {
      const own = await startUiServer({ clock: systemClock });
      const base = own.base.replace('127.0.0.1', host);
      const { context, page } = await openPage(env.browser, { width: 800, height: 480, serviceWorkers: 'allow' });
      // One visit, as an operator makes it: no second load while the appliance is up.
      await page.goto(base + '/lite');
      await page.locator('[data-countdown]').waitFor();
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      const name = await text(page, '[data-focus-name]');
      await own.stop();
      await page.reload();
      await page.locator('[data-stale="late"]').waitFor();
      assert.equal(await text(page, '[data-focus-name]'), name, 'the last data, not the browser’s error page');
      assert.match(await text(page, '[data-stale]'), /not answering: showing data from \d+ s ago/);
      await screenshot(page, `lite-offline-reload-${host === 'localhost' ? 'localhost-' : ''}800x480`);
      await context.close();
    });
  }
});
