import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, horizontalOverflow, openPage, screenshot, serverAndBrowser, VIEWPORTS } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';

// Receive-only guidance where guidance shows (issue 27), in Chromium against the real server and
// the bundled transmitter data: a satellite with only a downlink (telemetry, beacon) is shown as
// "↓ 437.525 FM-D 9600 Bd", its down arrow alone with its rig mode and symbol rate, never an empty
// uplink and never "no profile". The satellites are picked from the API (receive_only: true), so
// the test follows the data rather than naming a satellite that a refresh may change.

const NOW = '2026-08-22T12:00:00Z';
const skip = browserSkipReason() ?? false;

interface ListedProfile {
  sat_id: string;
  name: string;
  receive_only: boolean;
  profile: { downlink_mode: string; baud?: number | null; description?: string };
}
interface PassRow {
  sat_id: string;
  name: string;
  aos: string;
  los: string;
  frequencyRecommendation: { receive_only?: boolean; uplink_hz: number | null; downlink_hz: number; downlink_mode: string; baud?: number | null } | null;
}

/** Receive-only profiles with a data downlink (a known baud): the case with the most to show. */
async function dataBeacons(s: TestServer): Promise<ListedProfile[]> {
  const items: ListedProfile[] = (await s.get('/api/v1/frequency-guides/profiles')).body.items;
  return items.filter((p) => p.receive_only && (p.profile.baud ?? 0) > 0);
}

async function open(env: { s: TestServer; browser: import('playwright-core').Browser }, path: string, size: { width: number; height: number }) {
  const o = await openPage(env.browser, size);
  await o.page.clock.install({ time: Date.parse(NOW) });
  await o.page.goto(env.s.base + path);
  return o;
}

/** "↓ 145.825 FM-D 1200 Bd" with the number as the page formats it (3 or 6 decimals). */
const downOnly = (mode: string, baud: number) => new RegExp(`↓\\s*\\d{3}\\.\\d{3}( \\d{3})?\\s*(MHz\\s*)?${mode.replace('-', '\\-')} ${baud} Bd`);

describe('receive-only guidance on /lite, /radio, / and the kiosk', { skip }, () => {
  const env = serverAndBrowser({ now: NOW }, (s) => s.app.services.orbit.table.ready());

  it('/lite at 480×320 shows a receive-only focus as ↓ only with mode and baud', async () => {
    const beacons = await dataBeacons(env.s);
    assert.ok(beacons.length > 0, 'the bundled data has receive-only data downlinks');
    // The first with a recommendation now (a pass within the snapshot's horizon); the snapshot's
    // focus is one of the tracked set, so each candidate is tracked before the snapshot is asked.
    let pick: ListedProfile | null = null;
    let rec: { receive_only?: boolean; uplink_mhz: number | null; downlink_mhz: number; baud: number | null } | null = null;
    for (const b of beacons.slice(0, 10)) {
      const saved = await env.s.post('/api/v1/settings/lite', { tracked_sat_ids: ['iss', b.sat_id], setup_complete: true });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      const snap = (await env.s.get(`/api/v1/lite/snapshot?sat_id=${b.sat_id}`)).body;
      if (snap.frequencyRecommendation?.sat_id === b.sat_id) {
        pick = b;
        rec = snap.frequencyRecommendation;
        break;
      }
    }
    assert.ok(pick && rec, 'a receive-only data beacon with a recommendation in the snapshot');
    assert.equal(rec.receive_only, true);
    assert.equal(rec.uplink_mhz, null);

    for (const size of [VIEWPORTS[0], VIEWPORTS[1]]) {
      const { context, page, problems } = await open(env, `/lite?sat_id=${pick.sat_id}`, size);
      const tune = page.locator('.tune-area [data-tune]');
      await tune.waitFor();
      assert.equal(await page.locator('.tune-area').getAttribute('data-subject'), pick.sat_id);
      const t = await tune.innerText();
      assert.match(t, downOnly(pick.profile.downlink_mode, pick.profile.baud!), t);
      assert.match(t, /receive only/, t);
      assert.doesNotMatch(t, /↑/, 'no uplink arrow for a satellite only heard');
      assert.doesNotMatch(t, /no (frequency )?profile/i);
      assert.notEqual(await tune.getAttribute('data-receive-only'), null, 'marked receive-only');
      assert.ok((await horizontalOverflow(page)) <= 0, 'fits the width');
      await screenshot(page, `receive-only-lite-${size.name}`);
      assert.deepEqual(problems.errors, []);
      await context.close();
    }
  });

  it('/radio lists a receive-only pass as ↓ only with mode and baud, no uplink', async () => {
    const passes: PassRow[] = (await env.s.get('/api/v1/passes?hours=6&min_max_el=5&include_ongoing=true&limit=300')).body.items;
    const ro = passes.find((p) => p.frequencyRecommendation?.receive_only && (p.frequencyRecommendation.baud ?? 0) > 0 && Date.parse(p.los) > Date.parse(NOW));
    assert.ok(ro, 'a receive-only data beacon passes in the next 6 h');
    const r = ro.frequencyRecommendation!;
    assert.equal(r.uplink_hz, null);
    for (const size of [VIEWPORTS[0], VIEWPORTS[2]]) {
      const { context, page, problems } = await open(env, '/radio', size);
      const button = page.locator(`.radio-passes button[data-pass="${ro.sat_id}"][data-los="${ro.los}"]`);
      const pair = button.locator('[data-pass-pair]');
      // Only the next 8 passes are listed; the chosen one is the first receive-only among them or later.
      const listed = await page.locator('.radio-passes button').first().waitFor().then(() => button.count());
      if (listed === 0) {
        // Further down the day than the list shows: any receive-only one listed still must read right.
        const any = page.locator('.radio-passes [data-pass-pair]', { hasText: 'receive only' }).first();
        await any.waitFor();
        await checkPair(page, await any.innerText(), null);
      } else {
        await checkPair(page, await pair.innerText(), r);
        await button.scrollIntoViewIfNeeded();
      }
      await screenshot(page, `receive-only-radio-${size.name}`);
      assert.deepEqual(problems.errors, []);
      await context.close();
    }
  });

  it('/ (home) and the kiosk show receive-only passes as ↓ only, "no profile" only without guidance', async () => {
    const { context, page, problems } = await open(env, '/', VIEWPORTS[2]);
    const rows = page.locator('[data-receive-only]');
    await rows.first().waitFor();
    for (const t of await rows.allInnerTexts()) {
      assert.match(t, /^↓\d{3}\.\d{3} [A-Z-]+( \d+ Bd)?/, t);
      assert.doesNotMatch(t, /↑|no profile/, t);
    }
    await rows.first().scrollIntoViewIfNeeded();
    await screenshot(page, 'receive-only-home-1280x800');
    assert.deepEqual(problems.errors, []);
    await context.close();

    // The kiosk's next passes (the tracked set the /lite test saved holds a data beacon).
    const k = await open(env, '/kiosk-rotator', VIEWPORTS[1]);
    const kpair = k.page.locator('[data-scene="upcoming"] [data-pass] [data-receive-only]');
    await kpair.first().waitFor();
    for (const t of await kpair.allInnerTexts()) {
      assert.match(t, /^↓\s*\d{3}\.\d{3}\s+[A-Z-]+( \d+ Bd)?$/, t);
    }
    await screenshot(k.page, 'receive-only-kiosk-800x480');
    await k.page.setViewportSize(VIEWPORTS[0]);
    assert.equal(await horizontalOverflow(k.page), 0, 'the kiosk table fits 480 px');
    await screenshot(k.page, 'receive-only-kiosk-480x320');
    assert.deepEqual(k.problems.errors, []);
    await k.context.close();
  });
});

/** A pass button's pair line: ↓ with mode (and baud), "receive only", no ↑. */
async function checkPair(_page: Page, text: string, r: PassRow['frequencyRecommendation']) {
  assert.match(text, /^↓ \d{3}\.\d{3} \d{3} [A-Z-]+( \d+ Bd)? · receive only$/, text);
  assert.doesNotMatch(text, /↑/, text);
  if (r) assert.match(text, downOnly(r.downlink_mode, r.baud!), text);
}
