import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { describe, it } from 'node:test';
import { NoPosition, passToTrack, type RotatorSky } from '../../src/rotator/pass-source.js';
import { RotatorService } from '../../src/rotator/rotator-service.js';
import { defaultRotatorSettings, RotatorSettingsSchema } from '../../src/rotator/settings.js';
import { JsonStore } from '../../src/store/json-store.js';
import { lazySerialDriver } from '../../src/links/lazy-serial-driver.js';
import { AppError } from '../../src/util/errors.js';
import { systemClock } from '../../src/util/clock.js';
import { tmpDataDir } from '../helpers/server.js';
import { until } from '../radio/rig-fixture.js';
import { freePort, startRotctld } from './rotctld-peer.js';

// What the rotator tracks, and what a missing look angle means: never a stand-in direction (it used
// to be az 0 / el −90, the antenna sent to the north horizon without a word). A pass the sky cannot
// place is refused; a pass that loses its satellite mid-way stops tracking, the antenna staying on
// its last real target, and last_error says why.

const T0 = Date.parse('2026-08-22T12:00:00Z');
const sky = (o: { pass?: { aos_ms: number; los_ms: number } | null; position?: (t: number) => { az_deg: number; el_deg: number } | null } = {}): RotatorSky => ({
  currentOrNextPass: () => (o.pass === undefined ? { aos_ms: T0, los_ms: T0 + 600_000 } : o.pass),
  sample: (_id, t) => (o.position ? o.position(t) : { az_deg: 100, el_deg: 20 }),
});

describe('the rotator\'s pass source', () => {
  it('takes the pinned window when given, else the pass under way or next; none: null', () => {
    assert.deepEqual({ ...passToTrack(sky(), 'iss', T0)!, look: null }, { sat_id: 'iss', aos_ms: T0, los_ms: T0 + 600_000, look: null });
    const pinned = passToTrack(sky(), 'iss', T0, { aos_ms: T0 + 1000, los_ms: T0 + 2000 })!;
    assert.deepEqual([pinned.aos_ms, pinned.los_ms], [T0 + 1000, T0 + 2000]);
    assert.equal(passToTrack(sky({ pass: null }), 'iss', T0), null);
  });

  it('looks up the sky at each time asked, and throws a 409 no_position where it has nothing (no az 0 / el −90)', () => {
    const pass = passToTrack(sky({ position: (t) => (t < T0 + 1000 ? { az_deg: 123, el_deg: 45 } : null) }), 'iss', T0)!;
    assert.deepEqual(pass.look(T0), { az_deg: 123, el_deg: 45 });
    assert.throws(
      () => pass.look(T0 + 1000),
      (e: unknown) => e instanceof NoPosition && e instanceof AppError && e.status === 409 && e.code === 'no_position' && /no position for iss at 2026-08-22T12:00:01/.test(e.message),
    );
  });
});

const haveRotctld = spawnSync('rotctld', ['--version']).status === 0;
const skip = !haveRotctld && process.env.REQUIRE_HAMLIB !== '1' ? 'rotctld (apt-get install libhamlib-utils) is not installed' : false;

describe('tracking a satellite that loses its position (Hamlib rotctld -m 1)', { skip }, () => {
  it('refuses a pass it cannot plan; mid-pass it stops tracking, commands nothing more, and says why', async () => {
    const port = await freePort();
    const daemon = await startRotctld(port);
    const dir = tmpDataDir('satstation-rot-');
    const store = new JsonStore({ dir, name: 'rotator-settings', schema: RotatorSettingsSchema, defaults: defaultRotatorSettings });
    await store.update({ enabled: true, protocol: 'rotctld', rotctld_port: port, update_interval_ms: 200 });
    const now = Date.now();
    let gone = true;
    const rotator = new RotatorService({
      clock: systemClock,
      store,
      serial: lazySerialDriver,
      sky: sky({ pass: { aos_ms: now - 60_000, los_ms: now + 600_000 }, position: (t) => (gone ? null : { az_deg: 120 + (t - now) / 60_000, el_deg: 40 }) }),
      knows: () => true,
      radioSession: () => null,
    });
    try {
      await rotator.start();
      await rotator.connect();
      await assert.rejects(rotator.startTracking('sat'), (e: unknown) => e instanceof AppError && e.status === 409 && e.code === 'no_position');
      assert.notEqual(rotator.runtime().control_mode, 'tracking');
      assert.equal(rotator.planView(), null);

      gone = false;
      await rotator.startTracking('sat');
      await until(() => rotator.runtime().target_az_deg !== null, 'the first command');
      const before = rotator.runtime();
      assert.equal(before.control_mode, 'tracking');
      assert.ok(Math.abs(before.target_az_deg! - 120) < 1 && before.target_el_deg === 40, JSON.stringify(before));

      gone = true; // a catalog refresh dropped it, or its elements stopped propagating
      await until(() => rotator.runtime().control_mode !== 'tracking', 'tracking to stop');
      const after = rotator.runtime();
      assert.equal(after.control_mode, 'idle');
      assert.equal(after.active_sat_id, null);
      assert.equal(rotator.planView(), null);
      assert.match(after.last_error ?? '', /^tracking stopped: no position for sat at /);
      assert.deepEqual([after.target_az_deg, after.target_el_deg], [before.target_az_deg, before.target_el_deg], 'no stand-in target was commanded');
    } finally {
      await rotator.stop();
      daemon.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
