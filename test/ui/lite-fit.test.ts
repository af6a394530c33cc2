import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { FixedClock, systemClock } from '../../src/util/clock.js';
import { LITE_CACHE_TTL_MS } from '../../src/station/lite-cache.js';
import { shortName } from '../../ui/lib/format.js';
import { VIEWPORTS, browserSkipReason, openPage, screenshot, serverAndBrowser, startUiServer } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';

// /lite as a new operator meets it (issue 23, the lite screen): one satellite per screen, every
// tracked satellite named, nothing scrolls at 480×320 and 800×480 with 1 to 8 tracked, long
// radio/APRS errors stay on their line, 1280×800 uses its room. Real server, Debian's Chromium.

// At this moment the ISS is first in the list but the next pass is SO-50's.
const NOW = '2026-08-22T00:00:00Z';
const SETS: Record<number, string[]> = {
  1: ['iss'],
  6: ['iss', 'so-50', 'ao-91', 'ao-27', 'fo-29', 'ao-7'],
  8: ['iss', 'so-50', 'ao-91', 'ao-27', 'fo-29', 'ao-7', 'ao-73', 'rs-44'],
};
const skip = browserSkipReason() ?? false;

async function track(s: TestServer, n: number) {
  const r = await s.post('/api/v1/settings/lite', { tracked_sat_ids: SETS[n], setup_complete: n > 1 });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}

async function openLite(browser: Browser, s: TestServer, size: { width: number; height: number }, fixedTime = true) {
  const o = await openPage(browser, size);
  if (fixedTime) await o.page.clock.install({ time: Date.parse(NOW) });
  await o.page.goto(s.base + '/lite');
  await o.page.locator('[data-countdown], [data-no-pass]').first().waitFor();
  return o;
}

/** Where an element is, and whether it lies wholly inside the viewport. */
async function box(page: Page, sel: string) {
  return page.locator(sel).first().evaluate((e) => {
    const r = e.getBoundingClientRect();
    // Inside the viewport and not covered: what is drawn at its centre is the element itself.
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const inside =
      r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5 && r.width > 0 && r.height > 0 && !!hit && (hit === e || e.contains(hit));
    return { top: r.top, bottom: r.bottom, height: r.height, inside, lineHeight: parseFloat(getComputedStyle(e).lineHeight) || parseFloat(getComputedStyle(e).fontSize) * 1.4 };
  });
}

/** The page's own scroll extent beyond the viewport, both ways. */
const overflow = (page: Page) =>
  page.evaluate(() => ({ y: document.documentElement.scrollHeight - innerHeight, x: document.documentElement.scrollWidth - innerWidth }));

/** One line: the element is no taller than about one line of its text and does not wrap. */
async function assertOneLine(page: Page, sel: string, what: string) {
  const b = await box(page, sel);
  assert.ok(b.inside, `${what} is on screen (${JSON.stringify(b)})`);
  assert.ok(b.height < b.lineHeight * 1.6 + 24, `${what} stays one line: ${b.height} px for a ${b.lineHeight} px line`);
}

describe('/lite fits its screen and names one satellite', { skip }, () => {
  const env = serverAndBrowser({ now: NOW });

  it('by default names, points at, counts down and tunes the same satellite', async () => {
    await track(env.s, 6);
    const api = (await env.s.get('/api/v1/lite/snapshot')).body;
    assert.equal(api.focusPass.sat_id, 'so-50', 'fixture: SO-50 has the next pass');
    for (const vp of VIEWPORTS) {
      const { context, page, problems } = await openLite(env.browser, env.s, vp);
      assert.equal(await page.locator('[data-focus-name]').innerText(), api.focusPass.name);
      // Every part of the focus block says which satellite it shows.
      const subjects = await page.locator('[data-subject]').evaluateAll((els) => els.map((e) => e.getAttribute('data-subject')));
      assert.ok(subjects.length >= 3, `focus, sky plot and pair are marked: ${subjects}`);
      assert.deepEqual([...new Set(subjects)], ['so-50']);
      assert.match(await page.locator('[data-tune]').innerText(), /436\.\d{3}/, 'SO-50’s downlink');
      await screenshot(page, `lite-one-subject-${vp.name}`);
      assert.deepEqual(problems.errors, []);
      await context.close();
    }
  });

  for (const n of [1, 6, 8]) {
    it(`with ${n} tracked: no scrolling, Night and the status line on screen, every tracked satellite named`, async () => {
      await track(env.s, n);
      const names: Array<{ sat_id: string; name: string }> = (await env.s.get('/api/v1/lite/snapshot')).body.satellites;
      for (const vp of VIEWPORTS) {
        const { context, page, problems } = await openLite(env.browser, env.s, vp);
        const o = await overflow(page);
        assert.deepEqual(o.y <= 0 && o.x <= 0, true, `no scrolling at ${vp.name} with ${n} tracked: ${JSON.stringify(o)}`);
        assert.ok((await box(page, 'footer button:has-text("Night")')).inside, `Night button whole at ${vp.name}`);
        await assertOneLine(page, '[data-radio-line]', `radio line at ${vp.name}`);
        await assertOneLine(page, '[data-aprs-line]', `APRS line at ${vp.name}`);
        for (const s of names) {
          const chip = `[data-tracked="${s.sat_id}"]`;
          const b = await box(page, chip);
          assert.ok(b.inside, `${s.sat_id} is on screen at ${vp.name}`);
          assert.ok(b.bottom <= (await box(page, 'footer')).top + 0.5, `${s.sat_id} clear of the status line at ${vp.name}`);
          const label = await page.locator(chip).innerText();
          assert.ok(label.includes(shortName(s.name)) || shortName(s.name).startsWith(label.split(/\s/)[0]), `${s.sat_id} named at ${vp.name}: ${label}`);
        }
        await screenshot(page, `lite-fit-${n}-tracked-${vp.name}`);
        assert.deepEqual(problems.errors, []);
        await context.close();
      }
    });
  }

  it('tapping a tracked satellite focuses it', async () => {
    await track(env.s, 8);
    const { context, page, problems } = await openLite(env.browser, env.s, { width: 480, height: 320 });
    await page.locator('[data-tracked="rs-44"]').click();
    await page.waitForFunction(() => document.querySelector('[data-focus-name]')?.textContent?.includes('RS-44'));
    assert.equal(new URL(page.url()).searchParams.get('sat_id'), 'rs-44');
    const subjects = await page.locator('[data-subject]').evaluateAll((els) => els.map((e) => e.getAttribute('data-subject')));
    assert.deepEqual([...new Set(subjects)], ['rs-44']);
    assert.equal(await page.locator('[data-tracked="rs-44"]').getAttribute('aria-pressed'), 'true');
    await screenshot(page, 'lite-tracked-tap-480x320');
    assert.deepEqual(problems.errors, []);
    await context.close();
  });

  it('1280×800 uses its room: a large sky plot and every tracked satellite with its elevation and next pass', async () => {
    await track(env.s, 8);
    const { context, page } = await openLite(env.browser, env.s, { width: 1280, height: 800 });
    const ring = await box(page, 'svg.sky circle');
    assert.ok(ring.height >= 380, `sky plot horizon ring ${ring.height} px across`);
    const rows = await page.locator('[data-tracked]').evaluateAll((els) => els.map((e) => (e as HTMLElement).innerText));
    assert.equal(rows.length, 8);
    for (const r of rows) assert.match(r, /−?\d+°/, `elevation shown: ${r}`);
    assert.ok(rows.filter((r) => /\d\d:\d\d/.test(r)).length >= 6, `next AOS times shown: ${rows.join(' | ')}`);
    await screenshot(page, 'lite-wide-8-tracked-1280x800');
    await context.close();
  });

  it('keeps a long radio error on one line, the whole text one tap away', async () => {
    await track(env.s, 6);
    const dev = '/dev/ttyUSB-' + 'no-such-adapter-'.repeat(8);
    assert.equal((await env.s.post('/api/v1/settings/radio', { enabled: true, serial_device: dev })).status, 200);
    await env.s.post('/api/v1/radio/connect', {});
    // The rig's fault clears no cache (the spec names the routes that do): a snapshot built since the
    // settings cleared it (a page of an earlier part still on the lite topic) shows it once expired.
    (env.s.clock as FixedClock).advance(LITE_CACHE_TTL_MS + 1);
    const err: string = (await env.s.get('/api/v1/lite/snapshot')).body.radioControl.last_error;
    assert.ok(err && err.length > 150, `fixture: a long radio error (${err})`);
    try {
      for (const vp of VIEWPORTS.slice(0, 2)) {
        const { context, page } = await openLite(env.browser, env.s, vp);
        await assertOneLine(page, '[data-radio-line]', `radio error at ${vp.name}`);
        assert.deepEqual(await overflow(page).then((o) => o.y <= 0 && o.x <= 0), true, `no scrolling at ${vp.name}`);
        await screenshot(page, `lite-long-radio-error-${vp.name}`);
        await page.locator('[data-radio-line]').click();
        const full = page.locator('[data-line-full]');
        await full.waitFor();
        assert.ok((await full.innerText()).includes(err), 'the whole error after one tap');
        assert.ok((await box(page, '[data-line-full]')).inside, 'the whole text fits the screen');
        await screenshot(page, `lite-long-radio-error-open-${vp.name}`);
        await page.locator('[data-line-full]').click();
        await full.waitFor({ state: 'detached' });
        await context.close();
      }
    } finally {
      await env.s.post('/api/v1/settings/radio', { enabled: false });
    }
  });

  it('keeps an APRS sound-card error and a radio error on their lines (real connect attempts)', async () => {
    // The APRS connect waits on real timers (Dire Wolf's start), so this server runs on real time.
    const own = await startUiServer({ clock: systemClock });
    try {
      await own.post('/api/v1/settings/radio', { enabled: true, serial_device: '/dev/ttyUSB-' + 'gone-'.repeat(30) });
      await own.post('/api/v1/radio/connect', {});
      // A TNC that fails the way Dire Wolf does without a sound card.
      const { writeFileSync, chmodSync } = await import('node:fs');
      const tnc = `${own.dataDir}/direwolf-without-sound-card`;
      writeFileSync(
        tnc,
        '#!/bin/sh\necho "ALSA lib confmisc.c:855:(parse_card) cannot find card \'0\'" >&2\n' +
          'echo "ALSA lib conf.c:5180:(_snd_config_evaluate) function snd_func_card_inum returned error: No such file or directory" >&2\n' +
          'echo "Pointless to continue without audio device."\nexit 1\n',
      );
      chmodSync(tnc, 0o755);
      await own.post('/api/v1/settings/aprs', { callsign: 'G4XYZ', tnc_binary: tnc });
      await own.post('/api/v1/aprs/connect', {});
      const snap = (await own.get('/api/v1/lite/snapshot')).body;
      assert.ok(snap.aprs.last_error, 'fixture: an APRS error');
      for (const vp of VIEWPORTS.slice(0, 2)) {
        const { context, page } = await openLite(env.browser, own, vp, false);
        await assertOneLine(page, '[data-radio-line]', `radio error at ${vp.name}`);
        await assertOneLine(page, '[data-aprs-line]', `APRS error at ${vp.name}`);
        assert.deepEqual(await overflow(page).then((o) => o.y <= 0 && o.x <= 0), true, `no scrolling at ${vp.name}`);
        await screenshot(page, `lite-aprs-error-${vp.name}`);
        await page.locator('[data-aprs-line]').click();
        assert.ok((await page.locator('[data-line-full]').innerText()).includes(snap.aprs.last_error));
        await context.close();
      }
    } finally {
      await own.stop();
    }
  });
});
