import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it, mock } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { defaultRadioSession, type RadioSession } from '../../src/radio/types.js';
import type { FixedClock } from '../../src/util/clock.js';
import { browserSkipReason, horizontalOverflow, launch, openPage, screenshot, startUiServer, type PageProblems } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';
import { groundAt, type Ground } from '../../ui/components/kiosk/ground.js';
import { footprintRadiusKm } from '../../ui/lib/geo.js';
import { TIMING, livePass, rotate } from '../../ui/components/kiosk/rotation.js';

// /kiosk-rotator on the real server and Debian's Chromium: scenes, rotation, the live-pass
// takeover and every developer override. The browser clock is Playwright's, set to the server's.

const NOW = '2026-08-22T12:00:00Z';
const SIZES = [
  { name: '480x320', width: 480, height: 320 },
  { name: '800x480', width: 800, height: 480 },
  { name: '1280x800', width: 1280, height: 800 },
  { name: '1920x1080', width: 1920, height: 1080 },
] as const;
const skip = browserSkipReason() ?? false;
const sceneOf = (page: Page) => page.locator('[data-scene]').first().getAttribute('data-scene');
const text = (page: Page, sel: string) => page.locator(sel).first().innerText();
/** Problems other than the polls a test's own page.reload() cancelled in flight. */
const unexpected = (p: PageProblems) => p.errors.filter((e) => !/^request failed: GET .*\/api\/v1\/.* net::ERR_ABORTED$/.test(e));

describe('kiosk rotation and ground track (pure)', () => {
  it('keeps a scene for its dwell, skips scenes without content, restarts after a pin', () => {
    let r = rotate(null, ['upcoming', 'iss'], 0, false);
    assert.deepEqual(r, { scene: 'upcoming', since: 0 });
    assert.equal(rotate(r, ['upcoming', 'iss'], TIMING.dwell.upcoming - 1, false), r);
    r = rotate(r, ['upcoming', 'iss'], TIMING.dwell.upcoming, false);
    assert.deepEqual(r, { scene: 'iss', since: TIMING.dwell.upcoming });
    assert.equal(rotate(r, ['upcoming', 'iss', 'radio'], r.since + TIMING.dwell.iss, false).scene, 'radio');
    assert.equal(rotate(r, ['upcoming'], r.since + 1, false).scene, 'upcoming', 'a scene that lost its content is left at once');
    assert.deepEqual(rotate(r, ['upcoming', 'iss'], 99_000, true), { scene: 'iss', since: 99_000 }, 'a pin restarts the dwell');
  });
  it('finds the pass under way', () => {
    const passes = [
      { sat_id: 'a', aos: '2026-08-22T12:00:00Z', los: '2026-08-22T12:10:00Z' },
      { sat_id: 'b', aos: '2026-08-22T12:05:00Z', los: '2026-08-22T12:20:00Z' },
    ];
    assert.equal(livePass(passes, Date.parse('2026-08-22T11:59:59Z')), null);
    assert.equal(livePass(passes, Date.parse('2026-08-22T12:06:00Z'))?.sat_id, 'a', 'the earlier AOS holds until its LOS');
    assert.equal(livePass(passes, Date.parse('2026-08-22T12:10:00Z'))?.sat_id, 'b');
  });
  it('interpolates the sub-satellite point across the date line, and sizes the footprint', () => {
    const pt = (t_ms: number, lat_deg: number, lon_deg: number) => ({ t_ms, lat_deg, lon_deg }) as Ground;
    const here = groundAt([pt(0, 10, 179), pt(60_000, 12, -179)], 30_000)!;
    assert.ok(Math.abs(here.lat_deg - 11) < 1e-9 && Math.abs(Math.abs(here.lon_deg) - 180) < 1e-9, JSON.stringify(here));
    assert.equal(groundAt([pt(0, 0, 0), pt(60_000, 0, 1)], 90_000), null);
    assert.ok(Math.abs(footprintRadiusKm(420) - 2252) < 5, 'ISS at 420 km is above the horizon within ~2,250 km');
  });
});

describe('/kiosk-rotator', { skip }, () => {
  let s: TestServer;
  let browser: Browser;
  const clock = () => s.clock as FixedClock;

  /** Sets the server's time (fresh snapshot) and opens the kiosk with the browser clock at the same moment. */
  async function openKiosk(at = NOW, size: { width: number; height: number } = SIZES[1], prepare?: (o: Awaited<ReturnType<typeof openPage>>) => Promise<void>) {
    clock().set(at);
    s.app.services.invalidateLite();
    const o = await openPage(browser, size);
    await prepare?.(o);
    await o.page.clock.install({ time: Date.parse(at) });
    await o.page.goto(s.base + '/kiosk-rotator');
    await o.page.locator('[data-corner]').waitFor();
    return o;
  }
  /** Overrides as a developer sets them; the snapshot cache is cleared so iss.state follows at once. */
  async function overrides(body: Record<string, unknown>) {
    const r = await s.post('/api/v1/settings/developer-overrides', body);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    s.app.services.invalidateLite();
  }
  /** Screenshots of the scene at every size, none wider than the screen. */
  async function shoot(page: Page, name: string) {
    for (const v of SIZES) {
      await page.setViewportSize({ width: v.width, height: v.height });
      await page.evaluate(() => new Promise(requestAnimationFrame));
      assert.equal(await horizontalOverflow(page), 0, `${name} fits ${v.name}`);
      await screenshot(page, `kiosk-${name}-${v.name}`);
    }
  }

  before(async () => {
    s = await startUiServer({ now: NOW });
    browser = await launch();
  });
  afterEach(async () => {
    await overrides({ enabled: false, force_scene: null, force_sat_id: null, simulate_pass_phase: null, force_iss_video_eligible: null, force_iss_stream_healthy: null, show_debug_badge: false });
    mock.restoreAll(); // the radio's own (resting) session again
  });
  after(async () => {
    await browser?.close();
    await s?.stop();
  });

  it('opens on the next six passes with the clock in the display zone, and no errors', async () => {
    const { context, page, problems } = await openKiosk();
    assert.equal(await sceneOf(page), 'upcoming');
    // The snapshot's few passes stand in until the 24 h list arrives (now guidance for ~90 satellites).
    await page.locator('[data-pass]').nth(5).waitFor();
    assert.equal(await page.locator('[data-pass]').count(), 6);
    assert.match(await text(page, '[data-corner]'), /^12:00 UTC · Next passes$/);
    assert.match(await text(page, '[data-pass]'), /\d\d:\d\d/, 'AOS time and countdown');
    assert.equal(await page.locator('.k-progress').count(), 1, 'the scene-change bar');
    await shoot(page, 'upcoming');
    assert.deepEqual(problems.errors, []);
    await context.close();
  });

  it('rotates scenes on their dwell, skipping radio until a session is pinned', async () => {
    const { context, page, problems } = await openKiosk();
    // Checked mid-dwell (20 s each from the first frame), so a second's jitter in the start does not matter.
    const seen: string[] = [];
    for (const ms of [10_000, 20_000, 20_000]) {
      await page.clock.runFor(ms);
      seen.push((await sceneOf(page))!);
    }
    assert.deepEqual(seen, ['upcoming', 'iss', 'upcoming'], 'no radio scene without a session');
    const p = (await s.get('/api/v1/passes?hours=24')).body.items.find((x: { sat_id: string }) => x.sat_id === 'iss');
    const session: RadioSession = {
      ...defaultRadioSession(),
      ...{ selected_sat_id: 'iss', sat_name: 'ISS (ZARYA)', pass_aos: p.aos, pass_los: p.los, max_el_deg: p.max_el_deg },
      ...{ screen_state: 'armed', control_state: 'armed_waiting_aos', is_eligible: true },
    };
    mock.method(s.app.services.radio, 'session', () => session); // a pinned session without a rig
    // The mock has no news of its own; a real select is the radio area's news, as a settings change is.
    assert.equal((await s.post('/api/v1/settings/radio', { poll_interval_ms: 1500 })).status, 200);
    await page.clock.runFor(20_000); // system state (pushed, or its 10 s poll) has the session before this dwell ends
    assert.equal(await sceneOf(page), 'iss');
    await shoot(page, 'iss');
    await page.clock.runFor(18_000);
    assert.equal(await sceneOf(page), 'radio');
    assert.match(await text(page, '[data-scene=radio]'), /ARMED WAITING AOS/);
    assert.match(await text(page, '[data-countdown]'), /\d+:\d\d:\d\d/, 'time to AOS');
    assert.match(await text(page, '[data-pair]'), /145\.990/);
    await shoot(page, 'radio');
    await page.clock.runFor(15_000);
    assert.equal(await sceneOf(page), 'upcoming', 'radio dwells 15 s');
    assert.deepEqual(problems.errors, []);
    await context.close();
  });

  it('pins the live-pass scene while a tracked satellite is up', async () => {
    const items = (await s.get('/api/v1/passes?hours=24')).body.items as Array<{ sat_id: string; aos: string; los: string; max_el_deg: number }>;
    const pass = items.find((x) => x.sat_id === 'iss' && x.max_el_deg > 30)!;
    const aos = Date.parse(pass.aos);
    const los = Date.parse(pass.los);
    const at = new Date(aos + (los - aos) * 0.4).toISOString();
    const { context, page, problems } = await openKiosk(at);
    await page.locator('[data-stage=during]').waitFor();
    assert.equal(await text(page, '[data-pass-head]'), 'IN PASS');
    assert.match(await text(page, '[data-scene-name]'), /Live pass/);
    assert.match(await text(page, '[data-pair]'), /437\.\d{3}[\s\S]*145\.\d{3}[\s\S]*67\.0/);
    assert.match(await text(page, '[data-azel]'), /Az \d+° [NESW]+ · El \d+\.\d°/);
    assert.equal(await page.locator('svg.k-sky [data-now]').count(), 1, 'the satellite on the sky plot');
    const before = await text(page, '[data-countdown]');
    await page.clock.runFor(45_000);
    assert.equal(await sceneOf(page), 'pass', 'no rotation during the pass');
    assert.notEqual(await text(page, '[data-countdown]'), before, 'counts down to LOS');
    await shoot(page, 'pass');
    assert.deepEqual(problems.errors, []);
    await context.close();
  });

  it('force_scene picks the scene (aprs, overview, lite) and stops the rotation', async () => {
    await overrides({ enabled: true, force_scene: 'aprs' });
    const { context, page, problems } = await openKiosk();
    assert.equal(await sceneOf(page), 'aprs');
    assert.match(await text(page, '[data-scene=aprs]'), /No callsign set[\s\S]*off/);
    await page.clock.runFor(45_000);
    assert.equal(await sceneOf(page), 'aprs', 'a forced scene does not rotate');
    assert.equal(await page.locator('.k-progress').count(), 0, 'no change coming, no bar');
    await shoot(page, 'aprs');
    for (const [forced, scene] of [['overview', 'upcoming'], ['lite', 'pass'], ['iss_video', 'iss']]) {
      await overrides({ force_scene: forced });
      await page.reload();
      await page.locator(`[data-scene=${scene}]`).waitFor();
    }
    await overrides({ enabled: false });
    await page.reload();
    assert.equal(await sceneOf(page), 'upcoming', 'disabled overrides force nothing');
    assert.deepEqual(unexpected(problems), []);
    await context.close();
  });

  it('force_iss_video_eligible / force_iss_stream_healthy switch the ISS scene between stream and ground track', async () => {
    await s.post('/api/v1/settings/iss-display-mode', { stream_url: `${s.base}/health` });
    await overrides({ enabled: true, force_scene: 'iss_video', force_iss_video_eligible: true, force_iss_stream_healthy: true });
    const { context, page, problems } = await openKiosk();
    const frame = page.locator('iframe[data-iss-video]');
    await frame.waitFor();
    assert.equal(await frame.getAttribute('src'), `${s.base}/health`);
    assert.match((await frame.getAttribute('allow')) ?? '', /autoplay/);
    await shoot(page, 'iss-video');
    await overrides({ force_iss_stream_healthy: false });
    await page.reload();
    await page.locator('[data-iss-mode=track]').waitFor();
    await overrides({ force_iss_stream_healthy: true, force_iss_video_eligible: false });
    await page.reload();
    await page.locator('[data-iss-mode=track]').waitFor();
    assert.equal(await frame.count(), 0);
    assert.match(await text(page, '[data-iss-next]'), /next pass \d\d:\d\d UTC · in /);
    assert.deepEqual(unexpected(problems), []);
    await context.close();
  });

  it('force_sat_id follows any satellite, simulate_pass_phase places the pass, the debug badge says so', async () => {
    await overrides({ enabled: true, force_scene: 'pass', force_sat_id: 'ao-27' });
    const { context, page, problems } = await openKiosk();
    await page.locator('[data-sat=ao-27]').waitFor();
    assert.equal(await text(page, '[data-pass-head]'), 'NEXT PASS');
    assert.match(await text(page, '[data-scene=pass]'), /AOS in[\s\S]*436\.\d{3}/, 'its countdown and pair, from system state');
    await screenshot(page, 'kiosk-pass-forced-sat-800x480');
    assert.equal(await page.locator('[data-debug-badge]').count(), 0);
    await overrides({ force_scene: null, force_sat_id: null, simulate_pass_phase: 'early', show_debug_badge: true });
    await page.reload();
    await page.locator('[data-simulated]').waitFor();
    assert.equal(await text(page, '[data-simulated]'), 'SIMULATED EARLY');
    assert.equal(await text(page, '[data-pass-head]'), 'IN PASS');
    const early = await text(page, '[data-countdown]');
    const earlyPos = await text(page, '[data-azel]');
    assert.match(await text(page, '[data-debug-badge]'), /pass · phase=early · snap \d+ s/);
    await overrides({ simulate_pass_phase: 'late' });
    await page.reload();
    await page.locator('[data-simulated]').waitFor();
    const late = await text(page, '[data-countdown]');
    assert.ok(late < early, `late (${late}) has less time to LOS than early (${early})`);
    assert.notEqual(await text(page, '[data-azel]'), earlyPos, 'the satellite moved along the path');
    await shoot(page, 'pass-simulated');
    assert.deepEqual(unexpected(problems), []);
    await context.close();
  });

  it('says so when the appliance stops answering', async () => {
    // The appliance goes away: its live socket drops (and cannot open again), then the polls fail.
    let gone = false;
    let sockets: Array<{ close(): Promise<void> }> = [];
    const { context, page } = await openKiosk(NOW, SIZES[1], async (o) => {
      await o.context.routeWebSocket(/\/api\/v1\/events$/, (ws) => {
        if (gone) return void ws.close();
        ws.connectToServer();
        sockets.push(ws);
      });
    });
    await page.waitForFunction(() => document.documentElement.dataset.socket === 'open');
    gone = true;
    await page.route('**/api/v1/lite/snapshot*', (r) => r.abort());
    for (const ws of sockets) await ws.close();
    sockets = [];
    await page.waitForFunction(() => document.documentElement.dataset.socket === 'polling');
    await page.clock.runFor(6_000);
    assert.match(await text(page, '[data-stale]'), /not answering/);
    assert.equal(await sceneOf(page), 'upcoming', 'the last data stays on screen');
    await context.close();
  });
});
