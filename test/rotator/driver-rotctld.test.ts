import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { freePort, startRotctld } from './rotctld-peer.js';
import { nodeSerialDriver } from '../../src/links/serial-driver.js';
import { systemClock } from '../../src/util/clock.js';
import { openRotator } from '../../src/rotator/drivers/open-rotator.js';
import { RotctldDriver } from '../../src/rotator/drivers/rotctld-driver.js';
import { RotatorClosed, RotatorRejected } from '../../src/rotator/drivers/rotator-driver.js';

// Our rotctld client against Hamlib's real rotctld with its dummy rotator (-m 1) on an
// ephemeral loopback port: limits from \dump_state, a goto the dummy slews to, stop, park, a
// position outside the dummy's limits answered RPRT -1, and the daemon going away.

const have = spawnSync('rotctld', ['--version']).status === 0;
const required = process.env.REQUIRE_HAMLIB === '1';
const skip = !have && !required ? 'rotctld (apt-get install libhamlib-utils) is not installed; set REQUIRE_HAMLIB=1 to make this a failure' : false;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('rotctld client against Hamlib rotctld -m 1', { skip }, () => {
  let port: number;
  let daemon: ChildProcess;
  before(async () => {
    port = await freePort();
    daemon = await startRotctld(port);
  });
  after(() => {
    daemon?.kill();
  });

  it('reads limits, moves, stops, parks, and reports Hamlib’s refusals', async () => {
    const rot = await openRotator({ protocol: 'rotctld', serial: nodeSerialDriver, serial_device: '', baud_rate: 9600, rotctld_host: '127.0.0.1', rotctld_port: port, clock: systemClock });
    try {
      assert.ok(rot instanceof RotctldDriver);
      assert.deepEqual(rot.limits, { min_az_deg: -180, max_az_deg: 450, min_el_deg: 0, max_el_deg: 90, south_zero: false });
      const start = await rot.position();
      await rot.goto({ az_deg: 40, el_deg: 20 });
      await sleep(600);
      const moving = await rot.position();
      assert.ok(moving.az_deg > start.az_deg, `the dummy slews toward 40: ${JSON.stringify(moving)}`);
      await rot.stop();
      const stopped = await rot.position();
      await sleep(400);
      assert.deepEqual(await rot.position(), stopped);
      await assert.rejects(rot.goto({ az_deg: 500, el_deg: 10 }), (e: Error) => e instanceof RotatorRejected && /RPRT -1 \(invalid parameter\)/.test(e.message));
      await rot.park!();
      assert.ok((await rot.position()).az_deg !== undefined);
    } finally {
      await rot.close();
    }
  });

  it('the daemon going away closes the driver with an error', async () => {
    const p2 = await freePort();
    const d2 = await startRotctld(p2);
    const rot = await openRotator({ protocol: 'rotctld', serial: nodeSerialDriver, serial_device: '', baud_rate: 9600, rotctld_host: '127.0.0.1', rotctld_port: p2, clock: systemClock });
    const lost = new Promise<Error | null>((r) => rot.onClose(r));
    d2.kill('SIGKILL');
    const err = await Promise.race([lost, sleep(3000).then(() => 'no close' as const)]);
    assert.ok(err instanceof Error, `onClose reported ${String(err)}`);
    await assert.rejects(rot.position(), RotatorClosed);
    await rot.close();
  });

  it('nothing listening is a clear connect error', async () => {
    const p3 = await freePort();
    await assert.rejects(
      openRotator({ protocol: 'rotctld', serial: nodeSerialDriver, serial_device: '', baud_rate: 9600, rotctld_host: '127.0.0.1', rotctld_port: p3, clock: systemClock }),
      /cannot reach 127\.0\.0\.1/,
    );
  });
});
