import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { openPtyPair, type PtyPair } from '../sims/pty-pair.js';
import { RotatorSim } from '../sims/rotator-sim.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { FixedClock } from '../../src/util/clock.js';

// Issue 32: the lite snapshot's rotator line is current after every change of the rotator, not
// up to 15 s later. Each change through the rotator routes (connect, goto, stop, park, track
// start/stop, settings, disconnect) against a GS-232B simulator on a pty, with the clock standing
// still: the next snapshot is rebuilt (X-Cache MISS) and says what the rotator says. A fault no
// route causes (the controller falls silent) clears it too, well inside the cache's 15 s.

const have = spawnSync('socat', ['-V']).status === 0;
const skip = !have ? 'socat is not installed (apt-get install socat)' : false;
const NOW = '2026-08-22T12:00:00Z';
const settle = (ms = 30) => new Promise((r) => setTimeout(r, ms));

describe('the lite rotator line follows the rotator', { skip }, () => {
  let s: TestServer;
  let pty: PtyPair;
  let sim: RotatorSim;
  const clock = new FixedClock(Date.parse(NOW));

  /** The snapshot's rotator block and X-Cache. */
  const lite = async () => {
    const r = await s.get('/api/v1/lite/snapshot');
    return { rotator: r.body.rotator, cache: r.headers.get('x-cache') };
  };
  /** The rotator block the snapshot would show now, from the rotator's own state. */
  const current = async () => {
    const st = (await s.get('/api/v1/rotator/state')).body;
    const { last_poll_at: _, ...shown } = st.runtime;
    return { enabled: st.settings.enabled, ...shown };
  };
  const withoutFocus = (r: Record<string, unknown>) => {
    const { focused: _, ...rest } = r;
    return rest;
  };
  /** Primes the cache (a second read is a hit), makes the change, and checks the next read without moving the clock. */
  const afterChange = async (what: string, change: () => Promise<{ status: number; body: unknown }>) => {
    await lite();
    assert.equal((await lite()).cache, 'HIT', `primed before ${what}`);
    const at = clock.now();
    const r = await change();
    assert.equal(r.status, 200, `${what}: ${JSON.stringify(r.body).slice(0, 300)}`);
    assert.equal(clock.now(), at, 'the clock stood still');
    const seen = await lite();
    assert.equal(seen.cache, 'MISS', `${what} cleared the lite cache`);
    assert.deepEqual(withoutFocus(seen.rotator), await current(), `${what}: the lite rotator line is current`);
    return seen.rotator;
  };

  before(async () => {
    pty = await openPtyPair();
    sim = new RotatorSim({ protocol: 'gs232b', az_rate_deg_s: 6, el_rate_deg_s: 3, start: { az_deg: 0, el_deg: 0 }, now: () => clock.now() });
    await sim.open(pty.rigPath, 9600);
    s = await startServer({ clock, app: { rotatorTimeouts: { reply_ms: 400 } } });
    await s.app.services.orbit.table.ready();
  });
  after(async () => {
    await s?.stop();
    await sim?.close();
    await pty?.close();
  });

  it('settings, connect, goto, stop, park, track start and stop, disconnect: each shows at once', async () => {
    const enabled = await afterChange('settings', () => s.post('/api/v1/settings/rotator', { enabled: true, protocol: 'gs232b', serial_device: pty.ctlPath, baud_rate: 9600, park_az_deg: 180, park_el_deg: 0 }));
    assert.equal(enabled.enabled, true);
    for (let i = 0; i < 50 && !s.app.services.rotator.loaded; i++) await settle(10);
    assert.equal((await afterChange('connect', () => s.post('/api/v1/rotator/connect'))).connected, true);
    const moved = await afterChange('goto', () => s.post('/api/v1/rotator/goto', { az_deg: 60, el_deg: 30 }));
    assert.deepEqual([moved.control_mode, moved.target_az_deg, moved.target_el_deg], ['manual', 60, 30]);
    assert.equal((await afterChange('stop', () => s.post('/api/v1/rotator/stop'))).control_mode, 'stopped');
    assert.equal((await afterChange('park', () => s.post('/api/v1/rotator/park'))).control_mode, 'parking');
    const tracking = await afterChange('track/start', () => s.post('/api/v1/rotator/track/start', { sat_id: 'iss' }));
    assert.deepEqual([tracking.control_mode, tracking.active_sat_id], ['tracking', 'iss']);
    assert.equal((await afterChange('track/stop', () => s.post('/api/v1/rotator/track/stop'))).control_mode, 'idle');
    assert.equal((await afterChange('disconnect', () => s.post('/api/v1/rotator/disconnect'))).connected, false);
  });

  it('a controller falling silent (no route involved) shows within its reply timeout, not 15 s later', async () => {
    assert.equal((await s.post('/api/v1/rotator/connect')).status, 200);
    clock.advance(1000); // the first poll reads the position
    for (let i = 0; i < 100 && s.app.services.rotator.runtime().last_poll_at === null; i++) await settle(5);
    await lite();
    assert.equal((await lite()).cache, 'HIT', 'primed');
    const primedAt = clock.now();
    sim.faults.silent = true;
    clock.advance(1000); // the next poll asks
    await settle();
    clock.advance(500); // the reply timeout (400 ms) runs on the same clock
    for (let i = 0; i < 100 && s.app.services.rotator.runtime().last_error === null; i++) await settle(5);
    assert.match(s.app.services.rotator.runtime().last_error ?? '', /reading the position/);
    assert.ok(clock.now() - primedAt < 15_000, 'inside the cache entry’s 15 s');
    const seen = await lite();
    assert.equal(seen.cache, 'MISS');
    assert.match(seen.rotator.last_error, /reading the position/);
    sim.faults.silent = false;
  });
});
