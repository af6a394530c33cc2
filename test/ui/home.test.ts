import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, openPage, screenshot, serverAndBrowser } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';

// The station view (/) on the real server in Debian's Chromium.

const NOW = '2026-08-22T12:00:00Z';
const skip = browserSkipReason() ?? false;

async function open(browser: Browser, s: TestServer, width = 1280, height = 800) {
  const o = await openPage(browser, { width, height });
  await o.page.clock.install({ time: Date.parse(NOW) });
  await o.page.goto(s.base + '/');
  await o.page.locator('[data-row]').first().waitFor();
  return o;
}
const rowIds = (page: Page) => page.locator('[data-row]').evaluateAll((els) => els.map((e) => e.getAttribute('data-row')!));

describe('station view', { skip }, () => {
  const env = serverAndBrowser({ now: NOW });

  it('lists the next 24 h of passes with guidance, and draws the selected pass and ground track', async () => {
    const { context, page, problems } = await open(env.browser, env.s);
    const api = (await env.s.get('/api/v1/passes?hours=24&include_ongoing=true')).body.items;
    assert.equal(await page.locator('[data-row]').count(), api.length);
    const iss = page.locator('[data-row="iss"]').first();
    assert.match(await iss.innerText(), /437\.\d{3} FM/);
    assert.match(await iss.innerText(), /145\.990 FM/);
    await iss.getByRole('button').click();
    await page.locator('#sel', { hasText: 'ISS' }).waitFor();
    await page.locator('svg.sky polyline').waitFor();
    await page.locator('svg.map [data-track]').first().waitFor();
    assert.ok((await page.locator('svg.map [data-footprint]').count()) >= 1, 'station footprint drawn');
    assert.equal(await page.locator('svg.map [data-station]').count(), 1);
    assert.match(await page.locator('[data-catalog]').innerText(), /satellites, bundled/);
    await page.locator('[data-live] tbody tr').first().waitFor();
    assert.match(await page.locator('[data-live]').innerText(), /ISS/);
    for (const [w, h] of [
      [1280, 800],
      [800, 480],
      [480, 320],
    ]) {
      await page.setViewportSize({ width: w, height: h });
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `home-selected-${w}x${h}`);
    }
    await page.evaluate(() => localStorage.setItem('satstation:night', 'true'));
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.reload();
    await page.locator('svg.map [data-track]').first().waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'home-1280x800-night');
    assert.deepEqual(problems.errors, []);
    await context.close();
  });

  it('filters by minimum elevation and widens to all satellites', async () => {
    await env.s.post('/api/v1/settings/pass-filter', { pass_profile: 'IssOnly' });
    const { context, page, problems } = await open(env.browser, env.s);
    assert.deepEqual([...new Set(await rowIds(page))], ['iss'], 'the pass filter applies');
    await page.locator('[data-all]').check();
    await page.waitForFunction(() => new Set(Array.from(document.querySelectorAll('[data-row]'), (e) => e.getAttribute('data-row'))).size > 1);
    const all = await page.locator('[data-row]').count();
    await page.locator('[data-min-el]').selectOption('30');
    await page.waitForFunction((n) => document.querySelectorAll('[data-row]').length < n, all);
    const api = (await env.s.get('/api/v1/passes?hours=24&include_ongoing=true&include_all_sats=true&min_max_el=30')).body.items;
    assert.equal(await page.locator('[data-row]').count(), api.length);
    await env.s.post('/api/v1/settings/pass-filter', { pass_profile: 'All' });
    assert.deepEqual(problems.errors, []);
    await context.close();
  });

  it('follows a new location: after adding and selecting a profile far away the passes change', async () => {
    const { context, page } = await open(env.browser, env.s);
    await page.locator('[data-row="iss"]').first().getByRole('button').click();
    const before = await page.locator('[data-row="iss"]').first().innerText();
    const r = await env.s.post('/api/v1/location', { add_profile: { id: 'sydney', name: 'Sydney', point: { lat: -33.8688, lon: 151.2093, alt_m: 58 } }, selected_profile_id: 'sydney' });
    assert.equal(r.status, 200);
    await env.s.app.services.orbit.table.ready();
    await page.reload();
    // The last list shows at once from the device's copy; the new one replaces it when it comes.
    await page.waitForFunction((b) => (document.querySelector('[data-row="iss"]') as HTMLElement | null)?.innerText !== b, before, { timeout: 20_000 });
    const after = await page.locator('[data-row="iss"]').first().innerText();
    assert.notEqual(after, before, 'the next ISS pass differs for Sydney');
    await screenshot(page, 'home-sydney-1280x800');
    await env.s.post('/api/v1/location', { selected_profile_id: 'default' });
    await context.close();
  });
});
