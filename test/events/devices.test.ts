import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { WsClient } from '../helpers/ws-client.js';
import { subscribed } from './fixture.js';
import { aprsFixture, ax25, until, type AprsFixture } from '../aprs/aprs-fixture.js';
import { rigFixture, type RigFixture } from '../radio/rig-fixture.js';
import type { FixedClock } from '../../src/util/clock.js';

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

describe('live events: the radio topic against the rig simulator', () => {
  let f: RigFixture;
  let c: WsClient;
  /**
   * The event the predicate picks. A poll completing late on a loaded machine may have taken the
   * leading edge at this instant of the fixed clock: then it comes at the end of min_period.
   */
  const pushed = async (pick: (m: any) => boolean) => {
    const found = await c.next(pick, 1000).catch(() => null);
    if (found) return found;
    (f.clock as FixedClock).advance(100);
    return c.next(pick);
  };
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
    const e = await pushed((m) => m.topic === 'radio' && m.data.runtime.targets.vfo_a_freq_hz === 145_990_000);
    assert.ok(c.events('radio').length > before);
    assert.equal(e.data.runtime.connected, true);
  });

  it('a knob turned on the rig (its transceive broadcast) is pushed', async () => {
    await quiet(f.clock as FixedClock);
    f.sim.turnKnob('A', 435_300_000);
    const e = await pushed((m) => m.topic === 'radio' && m.data.runtime.targets.vfo_a_freq_hz === 435_300_000);
    assert.deepEqual(e.data.settings, (await f.s.get('/api/v1/radio/state')).body.settings);
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
