import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { FixedClock } from '../../src/util/clock.js';
import { VIEWPORTS, browserSkipReason, horizontalOverflow, launch, openPage, screenshot, startUiServer } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';

// Issue 23, the kiosk as an operator reads it: the pair to tune whole at every size (a tune
// column at 480×320 too), no pass below the operator's minimum elevation, and a warning when the
// orbital elements are old. Real server, Debian's Chromium, screenshots in test/artifacts/.

const NOW = '2026-08-22T12:00:00Z';
const DAY_MS = 86_400_000;
const skip = browserSkipReason() ?? false;

interface ApiPass {
  sat_id: string;
  aos: string;
  max_el_deg: number;
  frequencyRecommendation: { uplink_mhz: number | null; downlink_mhz: number | null } | null;
}

/**
 * Every element inside `sel` that is cut: wider than its own box (scrollWidth), or reaching
 * outside the viewport or outside an ancestor that clips (overflow other than visible).
 */
function clippedIn(page: Page, sel: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const out: string[] = [];
    const vw = document.documentElement.clientWidth;
    const vh = document.documentElement.clientHeight;
    for (const root of Array.from(document.querySelectorAll(sel))) {
      for (const el of [root, ...Array.from(root.querySelectorAll('*'))] as HTMLElement[]) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) continue;
        const what = `${el.tagName} "${(el.textContent ?? '').trim()}"`;
        if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible') out.push(`${what} overflows itself`);
        if (r.left < -0.5 || r.right > vw + 0.5 || r.top < -0.5 || r.bottom > vh + 0.5) out.push(`${what} leaves the viewport`);
        for (let a = el.parentElement; a; a = a.parentElement) {
          const cs = getComputedStyle(a);
          if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue;
          const b = a.getBoundingClientRect();
          if (r.left < b.left - 0.5 || r.right > b.right + 0.5 || r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5) out.push(`${what} cut by its ${a.tagName}.${a.className}`);
        }
      }
    }
    return out;
  }, sel);
}

describe('/kiosk-rotator: tune column, minimum elevation, element age', { skip }, () => {
  let s: TestServer;
  let browser: Browser;
  const clock = () => s.clock as FixedClock;

  async function openKiosk(at: string, size: { width: number; height: number }) {
    clock().set(at);
    s.app.services.invalidateLite();
    const o = await openPage(browser, size);
    await o.page.clock.install({ time: Date.parse(at) });
    await o.page.goto(s.base + '/kiosk-rotator');
    // The 24 h list (the API's default query) replaces the snapshot's few passes when it arrives.
    const listed = ((await s.get('/api/v1/passes?hours=24')).body.items as ApiPass[]).slice(0, 6);
    await o.page.waitForFunction(
      (want) => Array.from(document.querySelectorAll('[data-scene=upcoming] [data-pass]'), (e) => e.getAttribute('data-pass')).join() === want,
      listed.map((p) => p.sat_id).join(),
    );
    // The rows are these passes, in this order.
    return { ...o, listed };
  }

  before(async () => {
    s = await startUiServer({ now: NOW });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await s?.stop();
  });

  it('shows each listed pass with its whole pair to tune at 480×320, 800×480 and 1280×800', async () => {
    // Satellites an operator works, with the longest pairs (ISS: FM both ways and a tone; RS-44: a linear transponder).
    const favorites = ['iss', 'so-50', 'ao-91', 'rs-44', 'ao-27', 'po-101', 'ao-123', 'io-86'];
    assert.equal((await s.post('/api/v1/settings/pass-filter', { pass_profile: 'Favorites', favorites })).status, 200);
    for (const v of VIEWPORTS) {
      const { context, page, problems, listed } = await openKiosk(NOW, v);
      const rows = page.locator('[data-scene=upcoming] [data-pass]');
      await screenshot(page, `kiosk-upcoming-tune-${v.name}`);
      assert.equal(await rows.count(), 6, `six passes at ${v.name}`);
      assert.ok(await page.locator('[data-scene=upcoming] th', { hasText: 'tune' }).isVisible(), `a tune column at ${v.name}`);
      let uplinks = 0;
      for (let i = 0; i < 6; i++) {
        const row = rows.nth(i);
        const p = listed[i];
        const rec = p.frequencyRecommendation;
        const pair = row.locator('[data-pair]');
        if (!rec || (rec.downlink_mhz == null && rec.uplink_mhz == null)) continue;
        assert.ok(await pair.isVisible(), `${p.sat_id}: the pair is shown at ${v.name}`);
        const shown = await pair.innerText();
        if (rec.downlink_mhz != null) assert.ok(shown.includes(`↓ ${rec.downlink_mhz.toFixed(3)}`), `${p.sat_id} downlink in "${shown}"`);
        if (rec.uplink_mhz != null) {
          uplinks++;
          assert.ok(shown.includes(`↑ ${rec.uplink_mhz.toFixed(3)}`), `${p.sat_id} uplink in "${shown}"`);
        }
      }
      assert.ok(uplinks > 0, 'the check saw at least one uplink');
      assert.deepEqual(await clippedIn(page, '[data-scene=upcoming] [data-pair]'), [], `nothing of a pair cut at ${v.name}`);
      // Only a long name may be ellipsized (it takes what the other columns leave).
      assert.deepEqual(await clippedIn(page, '[data-scene=upcoming] td:not(.k-sat)'), [], `no other cell cut at ${v.name}`);
      assert.equal(await horizontalOverflow(page), 0);
      assert.deepEqual(problems.errors, []);
      await context.close();
    }
    await s.post('/api/v1/settings/pass-filter', { pass_profile: 'All', favorites: [] });
  });

  it("lists no pass peaking below the operator's minimum elevation (5° by default, and as set)", async () => {
    const all: ApiPass[] = (await s.get('/api/v1/passes?hours=24&min_max_el=0')).body.items;
    const low = all.filter((p) => p.max_el_deg < 5 && Date.parse(p.aos) > Date.parse(NOW));
    assert.ok(low.length > 0 && Date.parse(low[0].aos) <= Date.parse(all[5].aos), 'the next six passes at 0° include one peaking below 5°');
    for (const minEl of [5, 25]) {
      assert.equal((await s.post('/api/v1/settings/pass-filter', { pass_profile: 'All', favorites: [], min_el_deg: minEl })).status, 200);
      const { context, page, listed } = await openKiosk(NOW, VIEWPORTS[1]);
      assert.equal(await page.locator('[data-scene=upcoming] [data-pass]').count(), 6);
      for (const p of listed) assert.ok(p.max_el_deg >= minEl, `${p.sat_id} ${p.aos} peaks at ${p.max_el_deg}° (min ${minEl}°)`);
      await screenshot(page, `kiosk-upcoming-min-el-${minEl}-800x480`);
      await context.close();
    }
    await s.post('/api/v1/settings/pass-filter', { min_el_deg: 5 });
  });

  it('warns when the orbital elements are old, and only then', async () => {
    const fresh = await openKiosk(NOW, VIEWPORTS[1]);
    const age = fresh.page.locator('[data-element-age]');
    assert.equal(await age.count(), 1, 'the element age is on the kiosk');
    assert.doesNotMatch((await age.getAttribute('class')) ?? '', /\bbad\b/);
    await fresh.context.close();
    const later = new Date(Date.parse(NOW) + 20 * DAY_MS).toISOString();
    for (const v of VIEWPORTS) {
      const { context, page } = await openKiosk(later, v);
      const warn = page.locator('[data-element-age]');
      assert.match((await warn.getAttribute('class')) ?? '', /\bbad\b/);
      assert.match(await warn.innerText(), /elements 2\d d old: refresh/);
      assert.deepEqual(await clippedIn(page, '[data-element-age]'), [], `the warning fits ${v.name}`);
      assert.ok(await warn.isVisible());
      await screenshot(page, `kiosk-old-elements-${v.name}`);
      await context.close();
    }
    clock().set(NOW);
  });
});
