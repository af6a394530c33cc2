import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { WsClient } from '../helpers/ws-client.js';
import { subscribed } from './fixture.js';
import { aprsFixture, ax25, until, type AprsFixture } from '../aprs/aprs-fixture.js';
import { rigFixture, type RigFixture } from '../radio/rig-fixture.js';
import { FixedClock } from '../../src/util/clock.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { openPtyPair, type PtyPair } from '../sims/pty-pair.js';
import { RotatorSim } from '../sims/rotator-sim.js';
import { freePort } from '../rotator/rotctld-peer.js';

// The equipment's topics against simulators: a write and a knob turned on the rig reach a radio
// subscriber; every APRS packet heard is one aprs.packets event, never coalesced, shaped as an item
// of GET /aprs/log, and the APRS state follows.

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A quiet min_period (100 ms) on the fixed clock, so the next change goes out at once (the
 * leading edge): twice 150 ms, each followed by the real time what a timer started needs (a poll's
 * serial round trip and its event).
 */
async function quiet(clock: { advance(ms: number): void }): Promise<void> {
  for (let i = 0; i < 2; i++) {
    clock.advance(150);
    await settle(150);
  }
}

/**
 * The event `pick` finds. A change that follows another within min_period on the fixed clock (a
 * poll or a load completing late on a loaded machine) goes out at the end of the period: the clock
 * is moved a period at a time until it comes.
 */
async function pushed(c: WsClient, clock: FixedClock, pick: (m: any) => boolean): Promise<any> {
  for (let i = 0; i < 10; i++) {
    const found = await c.next(pick, 500).catch(() => null);
    if (found) return found;
    clock.advance(100);
  }
  return c.next(pick, 2000);
}

describe('live events: the radio topic against the rig simulator', () => {
  let f: RigFixture;
  let c: WsClient;
  before(async () => {
    // One poll at connect, the next a minute later: what reaches the socket here is the write's own news.
    f = await rigFixture({ transceive: true, settings: { poll_interval_ms: 60_000 } });
    c = await subscribed(f.s, ['radio'], 100);
    await c.next((m) => m.topic === 'radio');
  });
  after(async () => {
    c?.destroy();
    await f?.stop();
  });

  it('a POST /radio/frequency is pushed with the frequency it wrote, without waiting for a poll', async () => {
    await quiet(f.clock as FixedClock);
    const before = c.events('radio').length;
    const r = await f.s.post('/api/v1/radio/frequency', { vfo: 'A', freq_hz: 145_990_000 });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const e = await pushed(c, f.clock as FixedClock, (m) => m.topic === 'radio' && m.data.runtime.targets.vfo_a_freq_hz === 145_990_000);
    assert.ok(c.events('radio').length > before);
    assert.equal(e.data.runtime.connected, true);
  });

  it('a knob turned on the rig (its transceive broadcast) is pushed', async () => {
    await quiet(f.clock as FixedClock);
    f.sim.turnKnob('A', 435_300_000);
    const e = await pushed(c, f.clock as FixedClock, (m) => m.topic === 'radio' && m.data.runtime.targets.vfo_a_freq_hz === 435_300_000);
    assert.deepEqual(e.data.settings, (await f.s.get('/api/v1/radio/state')).body.settings);
  });

  it('the lite topic follows the radio line: a radio unplugged (no route said so) is pushed on lite once the cache entry expires', async () => {
    const lite = await subscribed(f.s, ['lite'], 100);
    const first = await lite.next((m) => m.topic === 'lite');
    assert.equal(first.data.radioControl.connected, true);
    await quiet(f.clock as FixedClock);
    await f.pty.unplug();
    await until(async () => (await f.s.get('/api/v1/radio/state')).body.runtime.connected === false, 'the unplug noticed');
    // No route cleared the cache (the spec names those that do): the entry lives out its 15 s.
    await settle(200);
    assert.equal(lite.events('lite').length, 1, 'nothing while the cached snapshot is valid');
    (f.clock as FixedClock).advance(15_001);
    const e = await pushed(lite, f.clock as FixedClock, (m) => m.topic === 'lite' && m.data.radioControl.connected === false);
    assert.ok(e.data.radioControl.last_error, 'the fault is on the lite line');
    assert.equal((await f.s.get('/api/v1/lite/snapshot')).body.radioControl.connected, false, 'and on the GET');
    lite.destroy();
  });
});

describe('live events: APRS packets and state against a KISS TNC', () => {
  let f: AprsFixture;
  let c: WsClient;
  before(async () => {
    f = await aprsFixture();
    c = await subscribed(f.s, ['aprs', 'aprs.packets'], 100);
    await c.next((m) => m.topic === 'aprs');
  });
  after(async () => {
    c?.destroy();
    await f?.stop();
  });

  it('one aprs.packets event per packet, in order, never coalesced, each an item of GET /aprs/log', async () => {
    const sent = ['N0CALL-9>APRS,WIDE1-1:>one', 'N1ABC>APRS,WIDE1-1:>two', 'N2XYZ>APRS,WIDE1-1:>three'];
    await quiet(f.clock);
    for (const p of sent) f.tnc.push(ax25(p));
    await until(() => c.events('aprs.packets').length === 3, 'three packet events');
    const events = c.events('aprs.packets');
    assert.deepEqual(events.map((e) => e.seq), [1, 2, 3]);
    assert.deepEqual(events.map((e) => e.data.text), ['>one', '>two', '>three']);
    const log = (await f.s.get('/api/v1/aprs/log')).body.items;
    assert.deepEqual(events.map((e) => e.data), log.slice(0, 3).reverse(), 'the log lists newest first');
    f.clock.advance(100); // the state's changes within its min_period: one event at its end, the newest
    const state = await c.next((m) => m.topic === 'aprs' && m.data.runtime.packets_rx === 3);
    assert.equal(state.data.runtime.heard_count, 3);
  });

  it('the emergency stop is pushed on the aprs topic', async () => {
    await quiet(f.clock);
    assert.equal((await f.s.post('/api/v1/aprs/emergency-stop')).status, 200);
    const e = await c.next((m) => m.topic === 'aprs' && m.data.runtime.emergency_stopped === true);
    assert.deepEqual(e.data, (await f.s.get('/api/v1/aprs/state')).body);
  });
});

describe('live events: the rotator topic against a GS-232B controller on a pty', () => {
  let s: TestServer;
  let pty: PtyPair;
  let sim: RotatorSim;
  let c: WsClient;
  const clock = new FixedClock(Date.parse('2026-08-22T12:00:00Z'));
  before(async () => {
    pty = await openPtyPair();
    sim = new RotatorSim({ protocol: 'gs232b', az_rate_deg_s: 6, el_rate_deg_s: 3, start: { az_deg: 0, el_deg: 0 }, now: () => clock.now() });
    await sim.open(pty.rigPath, 9600);
    s = await startServer({ clock, app: { rotatorTimeouts: { reply_ms: 400 } } });
    c = await subscribed(s, ['rotator'], 100);
    await c.next((m) => m.topic === 'rotator');
  });
  after(async () => {
    c?.destroy();
    await s?.stop();
    await sim?.close();
    await pty?.close();
  });

  it('enabling it, connecting and each position read back are pushed, whoever caused them', async () => {
    await quiet(clock);
    const set = await s.post('/api/v1/settings/rotator', { enabled: true, protocol: 'gs232b', serial_device: pty.ctlPath, baud_rate: 9600 });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    await pushed(c, clock, (m) => m.topic === 'rotator' && m.data.settings.enabled === true);
    await quiet(clock);
    assert.equal((await s.post('/api/v1/rotator/connect')).status, 200);
    await pushed(c, clock, (m) => m.topic === 'rotator' && m.data.runtime.connected === true);
    await quiet(clock);
    assert.equal((await s.post('/api/v1/rotator/goto', { az_deg: 60, el_deg: 30 })).status, 200);
    await pushed(c, clock, (m) => m.topic === 'rotator' && m.data.runtime.target_az_deg === 60);
    // The poll loop reads the antenna moving: no route is called, the position is pushed.
    for (let i = 0; i < 3; i++) await quiet(clock);
    const moving = await pushed(c, clock, (m) => m.topic === 'rotator' && m.data.runtime.az_deg > 0);
    assert.ok(moving.data.runtime.az_deg < 60);
  });
});

describe('live events: system state follows the Hamlib servers', () => {
  let f: RigFixture;
  let c: WsClient;
  before(async () => {
    f = await rigFixture({ settings: { poll_interval_ms: 60_000 } });
    c = await subscribed(f.s, ['system'], 100);
    await c.next((m) => m.topic === 'system');
  });
  after(async () => {
    c?.destroy();
    await f?.stop();
  });

  it('a rigctld client connecting and leaving is pushed (hamlibRuntime.clients)', async () => {
    const port = await freePort();
    const clock = f.clock as FixedClock;
    await quiet(clock);
    assert.equal((await f.s.post('/api/v1/settings/hamlib', { rigctld_enabled: true, rigctld_port: port })).status, 200);
    await pushed(c, clock, (m) => m.topic === 'system' && m.data.hamlibRuntime.rigctld_listening === true);
    await quiet(clock);
    const sock = connect(port, '127.0.0.1');
    await pushed(c, clock, (m) => m.topic === 'system' && m.data.hamlibRuntime.clients === 1);
    await quiet(clock);
    sock.destroy();
    await pushed(c, clock, (m) => m.topic === 'system' && m.data.hamlibRuntime.clients === 0 && m.data.hamlibRuntime.rigctld_listening);
  });
});
