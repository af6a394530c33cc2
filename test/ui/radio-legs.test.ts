import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, horizontalOverflow, launch, openPage, screenshot, VIEWPORTS } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { openPtyPair, type PtyPair } from '../sims/pty-pair.js';
import { CivRigSim, type RigKind } from '../sims/civ-rig.js';
import { TEST_CIV_TIMEOUTS, until } from '../radio/rig-fixture.js';
import { systemClock } from '../../src/util/clock.js';
import { UPLINK_RIG_START } from '../../ui/components/settings/rig-fields.js';

// Two radios on the pages (issue 34): an IC-705 receives the downlink and an IC-9700 transmits
// the uplink, each simulated on its own pseudo-terminal behind the real serial stack. /radio
// shows each side with its radio's name, state, frequency and own error (an unplugged uplink
// radio); one radio is named once as carrying both; the /lite line and the kiosk's radio scene
// name the radios. Real time: the server polls the radios on the wall clock.

const skip = browserSkipReason() ?? false;
const text = (page: Page, sel: string) => page.locator(sel).first().innerText();

interface SimRadio {
  pty: PtyPair;
  sim: CivRigSim;
}

async function simRadio(kind: RigKind): Promise<SimRadio> {
  const pty = await openPtyPair();
  const sim = new CivRigSim({ kind, echo: false, transceive: true });
  await sim.open(pty.rigPath);
  return { pty, sim };
}

/** The radio's link on its pty: an IC-705 (CI-V 0xA4) or an IC-9700 (0xA2) at 115200 baud. */
const link = (r: SimRadio, kind: RigKind) => ({
  ...UPLINK_RIG_START,
  rig_model: kind === 'IC-705' ? 'rigA' : 'rigB',
  serial_device: r.pty.ctlPath,
  baud_rate: 115200,
  civ_address: kind === 'IC-705' ? '0xA4' : '0xA2',
});

describe('two radios on /radio, /lite and the kiosk', { skip }, () => {
  let down: SimRadio;
  let up: SimRadio;
  let s: TestServer;
  let browser: Browser;
  const state = async () => (await s.get('/api/v1/radio/state')).body;

  /** Screenshots at the three sizes, none wider than the screen. */
  async function shoot(page: Page, name: string) {
    for (const vp of VIEWPORTS) {
      await page.setViewportSize(vp);
      await page.evaluate(() => new Promise(requestAnimationFrame));
      await screenshot(page, `${name}-${vp.name}`);
      assert.ok((await horizontalOverflow(page)) <= 0, `${name} fits ${vp.name}`);
    }
  }

  before(async () => {
    [down, up, browser] = await Promise.all([simRadio('IC-705'), simRadio('IC-9700'), launch()]);
    const uiDir = process.env.UI_DIR ? resolve(process.env.UI_DIR) : null;
    s = await startServer({ clock: systemClock, config: { uiDir }, app: { civTimeouts: TEST_CIV_TIMEOUTS } });
    const set = await s.post('/api/v1/settings/radio', { enabled: true, ...link(down, 'IC-705'), uplink_rig: link(up, 'IC-9700') });
    assert.equal(set.status, 200, JSON.stringify(set.body));
  });
  after(async () => {
    await browser?.close();
    await s?.stop();
    for (const r of [down, up]) {
      await r?.sim.close().catch(() => {});
      await r?.pty.close();
    }
  });

  it('/radio before connecting: each side with its radio, not connected, and both links', async () => {
    const { context, page, problems } = await openPage(browser, VIEWPORTS[1]);
    await page.goto(s.base + '/radio', { waitUntil: 'networkidle' });
    await page.locator('[data-legs="two"]').waitFor();
    assert.equal(await page.locator('[data-legs="one"]').count(), 0);
    assert.equal(await page.locator('[data-vfo]').count(), 0, 'no VFO A/B of one radio');
    assert.match(await text(page, '[data-leg="downlink"]'), /Downlink · receives\s+IC-705\s+not connected/);
    assert.match(await text(page, '[data-leg="uplink"]'), /Uplink · transmits\s+IC-9700\s+not connected/);
    assert.equal(await page.locator('[data-split]').count(), 0, 'no split of one radio');
    // The connection panel: each radio's own link.
    assert.match(await text(page, '[data-link="downlink"]'), new RegExp(`IC-705 CI-V 0xA4[\\s\\S]*${down.pty.ctlPath}`));
    assert.match(await text(page, '[data-link="uplink"]'), new RegExp(`IC-9700 CI-V 0xA2[\\s\\S]*${up.pty.ctlPath}`));
    await shoot(page, 'radio-two-radios-idle');
    assert.deepEqual(problems.errors, []);
    await context.close();
  });

  it('/radio connected: each side’s frequency and mode from its own radio; an unplugged uplink radio shows its own error, the downlink stays up', async () => {
    down.sim.state.vfoA.freq = 145_800_000;
    down.sim.state.vfoA.mode = 'FM';
    up.sim.state.vfoA.freq = 437_800_000;
    up.sim.state.vfoA.mode = 'FM';
    const { context, page, problems } = await openPage(browser, VIEWPORTS[2]);
    await page.goto(s.base + '/radio', { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.locator('[data-leg="downlink"]', { hasText: 'connected' }).locator('strong', { hasText: '145.800 000' }).waitFor();
    await page.locator('[data-leg="uplink"] strong', { hasText: '437.800 000' }).waitFor();
    assert.match(await text(page, '[data-leg="downlink"]'), /IC-705\s+connected[\s\S]*FM/);
    assert.match(await text(page, '[data-leg="uplink"]'), /IC-9700\s+connected[\s\S]*FM/);
    assert.equal(await page.locator('[data-leg-error]').count(), 0);
    await page.getByText('connected: both radios').waitFor();
    // A direct write says which radio each side is.
    assert.deepEqual(await page.locator('#vfo-sel option').allInnerTexts(), ['A ↓ IC-705', 'B ↑ IC-9700']);
    await shoot(page, 'radio-two-radios-connected');

    await up.pty.unplug();
    await until(async () => (await state()).runtime.legs.uplink.connected === false, 'the uplink unplug noticed', 10_000);
    const err = page.locator('[data-leg="uplink"] [data-leg-error]');
    await err.waitFor();
    assert.match(await err.innerText(), /uplink radio \(IC-9700\)/, 'the error names its radio');
    assert.match(await text(page, '[data-leg="uplink"]'), /not connected/);
    assert.match(await text(page, '[data-leg="downlink"]'), /IC-705\s+connected/, 'the downlink radio stays up');
    assert.equal(await page.locator('[data-leg="downlink"] [data-leg-error]').count(), 0, 'the downlink has no error of its own');
    assert.equal(await page.locator('[data-last-error]').count(), 0, 'said once, beside its radio');
    await shoot(page, 'radio-two-radios-uplink-unplugged');
    // Back: the uplink radio reconnects by itself and its error goes.
    await up.sim.close().catch(() => {});
    await up.pty.replug();
    await up.sim.open(up.pty.rigPath);
    await page.locator('[data-leg="uplink"]', { hasText: /IC-9700\s+connected/ }).waitFor({ timeout: 15_000 });
    await page.locator('[data-leg-error]').waitFor({ state: 'detached' });
    await until(async () => (await state()).runtime.last_error === null, 'the station’s error cleared', 10_000);
    assert.deepEqual(problems.errors, []);
    await context.close();
  });

  it('/lite names the radios', async () => {
    const { context, page, problems } = await openPage(browser, VIEWPORTS[1]);
    await page.goto(s.base + '/lite', { waitUntil: 'networkidle' });
    const line = page.locator('[data-radio-line]');
    await line.waitFor();
    assert.match((await line.getAttribute('title'))!, /^radio: IC-705 \+ IC-9700 /);
    await shoot(page, 'lite-two-radios');
    assert.deepEqual(problems.errors, []);
    await context.close();
  });

  it('the kiosk’s radio scene names the radios', async () => {
    const pass = (await s.get('/api/v1/passes?hours=24')).body.items.find((x: { sat_id: string }) => x.sat_id === 'iss');
    assert.ok(pass, 'an ISS pass today');
    const sel = await s.post('/api/v1/radio/session/select', { sat_id: 'iss', pass_aos: pass.aos, pass_los: pass.los, max_el_deg: pass.max_el_deg });
    assert.equal(sel.status, 200, JSON.stringify(sel.body));
    assert.equal((await s.post('/api/v1/settings/developer-overrides', { enabled: true, force_scene: 'radio' })).status, 200);
    const { context, page, problems } = await openPage(browser, VIEWPORTS[1]);
    await page.goto(s.base + '/kiosk-rotator');
    const rig = page.locator('[data-scene="radio"] [data-rig]');
    await rig.waitFor();
    assert.equal(await rig.innerText(), 'IC-705 + IC-9700');
    await shoot(page, 'kiosk-radio-two-radios');
    assert.deepEqual(problems.errors, []);
    await context.close();
    await s.post('/api/v1/settings/developer-overrides', { enabled: false, force_scene: null });
  });

  it('/radio with one radio names it once, as carrying both sides', async () => {
    assert.equal((await s.post('/api/v1/radio/disconnect')).status, 200);
    assert.equal((await s.post('/api/v1/settings/radio', { uplink_rig: null })).status, 200);
    const { context, page, problems } = await openPage(browser, VIEWPORTS[1]);
    await page.goto(s.base + '/radio', { waitUntil: 'networkidle' });
    const one = page.locator('[data-legs="one"]');
    await one.waitFor();
    assert.match(await one.innerText(), /One radio, IC-705, carries both: it receives the downlink and transmits the uplink/);
    assert.equal(await page.locator('[data-leg]').count(), 0, 'no side repeated per radio');
    assert.match(await text(page, '[data-vfo="A"]'), /↓ downlink/);
    assert.match(await text(page, '[data-vfo="B"]'), /↑ uplink/);
    assert.deepEqual(await page.locator('#vfo-sel option').allInnerTexts(), ['A (receive)', 'B (transmit)']);
    await shoot(page, 'radio-one-radio');
    assert.deepEqual(problems.errors, []);
    await context.close();
  });
});
