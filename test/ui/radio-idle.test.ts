import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, horizontalOverflow, openPage, screenshot, serverAndBrowser, VIEWPORTS } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';

// /radio as a new operator first sees it (issue 33): radio control off, no rig connected. Each
// fact said once per subject; disabled buttons that look disabled; the tracked set first in the
// pass list and the satellite selector, the rest of the catalogue behind a search; columns of
// panels with no gap under a short one.

const NOW = '2026-08-22T12:00:00Z';
const skip = browserSkipReason() ?? false;

interface Pass {
  sat_id: string;
  name: string;
  frequencyRecommendation: object | null;
}

/** The satellites with a guided pass in the next 6 h, in order of their first pass (what /radio lists). */
async function guidedSats(s: TestServer): Promise<Pass[]> {
  const items: Pass[] = (await s.get('/api/v1/passes?hours=6&min_max_el=5&include_ongoing=true&include_all_sats=true&limit=300')).body.items;
  const seen = new Map<string, Pass>();
  for (const p of items) if (p.frequencyRecommendation && !seen.has(p.sat_id)) seen.set(p.sat_id, p);
  return [...seen.values()];
}

async function open(env: { s: TestServer; browser: import('playwright-core').Browser }, vp: (typeof VIEWPORTS)[number]) {
  const o = await openPage(env.browser, vp);
  await o.page.clock.install({ time: Date.parse(NOW) });
  await o.page.goto(env.s.base + '/radio', { waitUntil: 'networkidle' });
  await o.page.locator('[data-connection]').waitFor();
  return o;
}

/** How often a phrase is on the page, visible (the header's chips and the panels). */
const said = (page: Page, re: RegExp) => page.evaluate((src) => (document.body.innerText.match(new RegExp(src, 'gi')) ?? []).length, re.source);

describe('/radio before the rig is set up', { skip }, () => {
  const env = serverAndBrowser({ now: NOW });

  for (const vp of VIEWPORTS) {
    it(`says each fact once and shows disabled buttons as disabled at ${vp.name}`, async () => {
      const { context, page, problems } = await open(env, vp);
      // The rig: not connected, said once (not also "idle" chips, "Control idle", "idle · rig not connected").
      assert.equal(await said(page, /not connected/), 1);
      assert.equal(await said(page, /\bidle\b/), 0);
      assert.equal(await page.locator('[data-control-holder]').count(), 0, 'nobody holds the rig: no holder chip');
      // The rotator is off: said once, by its line.
      assert.equal(await said(page, /\bdisabled\b|rotator control is off/), 1);

      // Connect (radio control is off) and Log (no call typed) are disabled, and look it: no fill, a dashed edge.
      const connect = page.getByRole('button', { name: 'Connect', exact: true }).first();
      const log = page.locator('[data-logbook-recent]').getByRole('button', { name: 'Log', exact: true });
      for (const b of [connect, log]) {
        assert.equal(await b.isDisabled(), true);
        const look = await b.evaluate((el) => {
          const cs = getComputedStyle(el);
          return { bg: cs.backgroundColor, border: cs.borderTopStyle, color: cs.color, accent: getComputedStyle(document.documentElement).getPropertyValue('--accent').trim() };
        });
        assert.equal(look.bg, 'rgba(0, 0, 0, 0)', `${await b.innerText()}: no fill (${JSON.stringify(look)})`);
        assert.equal(look.border, 'dashed', `${await b.innerText()}: a dashed edge`);
      }
      assert.equal(await horizontalOverflow(page), 0);
      await screenshot(page, `radio-idle-${vp.name}`);
      assert.deepEqual(problems.errors, []);
      await context.close();
    });
  }

  it('lists the tracked satellites first and finds the others by a search, at every size', async () => {
    const sats = await guidedSats(env.s);
    assert.ok(sats.length >= 6, `enough satellites pass in 6 h (${sats.length})`);
    const tracked = sats.slice(0, 2).map((p) => p.sat_id);
    const other = sats[4];
    const set = await env.s.post('/api/v1/settings/lite', { tracked_sat_ids: tracked, setup_complete: true });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    for (const vp of VIEWPORTS) {
      const { context, page, problems } = await open(env, vp);
      const passes = page.locator('.radio-passes [data-pass]');
      await passes.first().waitFor();
      const listed = new Set(await passes.evaluateAll((els) => els.map((e) => e.getAttribute('data-pass')!)));
      assert.deepEqual([...listed].sort(), [...tracked].sort(), 'the pass list holds the tracked satellites only');
      const options = () => page.locator('#track-sat option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
      assert.deepEqual((await options()).sort(), [...tracked].sort(), 'the selector offers the tracked satellites');
      await page.locator('.radio-session').scrollIntoViewIfNeeded();
      await screenshot(page, `radio-tracked-${vp.name}`);

      // Another satellite, by a part of its name typed loosely (case and punctuation aside).
      const typed = other.name.replace(/[^A-Za-z0-9]/g, '').slice(0, 6).toLowerCase();
      await page.fill('#pass-search', typed);
      const found = page.locator(`.radio-passes [data-pass="${other.sat_id}"]`).first();
      await found.waitFor();
      await found.scrollIntoViewIfNeeded();
      await screenshot(page, `radio-pass-search-${vp.name}`);
      await page.fill('#track-search', typed);
      await page.waitForFunction((id) => Array.from(document.querySelectorAll<HTMLOptionElement>('#track-sat option')).some((o) => o.value === id), other.sat_id);
      const fold = (t: string) => t.replace(/[^A-Za-z0-9]/g, '').toLowerCase();
      const offered = await page.locator('#track-sat option').evaluateAll((os) => os.map((o) => [o.textContent ?? '', (o as HTMLOptionElement).value]));
      assert.ok(offered.every(([name, id]) => fold(name).includes(typed) || fold(id).includes(typed)), `the selector narrows to the matches: ${JSON.stringify(offered)}`);
      await page.selectOption('#track-sat', other.sat_id);
      await page.fill('#track-search', '');
      assert.equal(await page.locator('#track-sat').inputValue(), other.sat_id, 'a satellite picked from a search stays picked');
      await page.locator('#track-sat').scrollIntoViewIfNeeded();
      await screenshot(page, `radio-track-search-${vp.name}`);
      assert.equal(await horizontalOverflow(page), 0);
      assert.deepEqual(problems.errors, []);
      await context.close();
    }
    await env.s.post('/api/v1/settings/lite', { tracked_sat_ids: ['iss'], setup_complete: false });
  });

  it("lists every tracked pass even when the whole catalogue's list is cut at its limit", async () => {
    const sats = await guidedSats(env.s);
    const tracked = sats.slice(-2).map((p) => p.sat_id);
    assert.equal((await env.s.post('/api/v1/settings/lite', { tracked_sat_ids: tracked, setup_complete: true })).status, 200);
    const { context, page, problems } = await openPage(env.browser, VIEWPORTS[1]);
    await page.clock.install({ time: Date.parse(NOW) });
    // A catalogue large enough that the 300 passes of the whole list end before the tracked ones: the list as cut.
    await page.route(/\/api\/v1\/passes\?.*include_all_sats=true/, async (route) => {
      const res = await route.fetch();
      const body = await res.json();
      const items = body.items.filter((p: Pass) => !tracked.includes(p.sat_id)).slice(0, 3);
      await route.fulfill({ response: res, json: { ...body, items, count: items.length, truncated: true } });
    });
    await page.goto(env.s.base + '/radio', { waitUntil: 'networkidle' });
    await page.locator('.radio-passes [data-pass]').first().waitFor();
    const listed = new Set(await page.locator('.radio-passes [data-pass]').evaluateAll((els) => els.map((e) => e.getAttribute('data-pass')!)));
    assert.deepEqual([...listed].sort(), [...tracked].sort());
    assert.deepEqual(problems.errors, []);
    await context.close();
    await env.s.post('/api/v1/settings/lite', { tracked_sat_ids: ['iss'], setup_complete: false });
  });

  for (const vp of VIEWPORTS) {
    it(`stacks its panels without gaps at ${vp.name}`, async () => {
      const { context, page } = await open(env, vp);
      // For each panel: the next panel below it in the same column starts right under it (the grid's gap, .8 rem).
      const gaps = await page.evaluate(() => {
        const boxes = Array.from(document.querySelectorAll<HTMLElement>('main section.panel')).map((el) => ({ id: el.getAttribute('aria-labelledby'), r: el.getBoundingClientRect() }));
        const out: string[] = [];
        for (const a of boxes) {
          const below = boxes.filter((b) => b !== a && b.r.top >= a.r.bottom - 1 && b.r.left < a.r.right - 1 && b.r.right > a.r.left + 1);
          if (!below.length) continue;
          const gap = Math.min(...below.map((b) => b.r.top)) - a.r.bottom;
          if (gap > 16) out.push(`${a.id}: ${Math.round(gap)} px`);
        }
        return out;
      });
      assert.deepEqual(gaps, [], 'gaps under panels');
      await screenshot(page, `radio-columns-${vp.name}`);
      await context.close();
    });
  }
});
