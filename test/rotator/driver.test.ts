import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { openPtyPair, type PtyPair } from '../sims/pty-pair.js';
import { RotatorSim, type RotatorSimProtocol } from '../sims/rotator-sim.js';
import { nodeSerialDriver } from '../../src/links/serial-driver.js';
import { systemClock } from '../../src/util/clock.js';
import { openRotator } from '../../src/rotator/drivers/open-rotator.js';
import { ROTATOR_TIMEOUTS, RotatorClosed, RotatorGarbled, RotatorSilent, RotatorTargetInvalid } from '../../src/rotator/drivers/rotator-driver.js';

// Each serial driver through the real serialport stack over a pty against the simulator: it
// reads the position, moves the rotator at its slew rate, stops it, and reports a silent, a
// garbled and an unplugged controller as clear errors within the reply timeout.

const have = spawnSync('socat', ['-V']).status === 0;
const skip = !have ? 'socat is not installed (apt-get install socat)' : false;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const protocols: Array<{ protocol: RotatorSimProtocol; baud: number }> = [
  { protocol: 'gs232a', baud: 9600 },
  { protocol: 'gs232b', baud: 9600 },
  { protocol: 'easycomm2', baud: 9600 },
  { protocol: 'rot2prog', baud: 600 },
];

describe('rotator drivers against the simulator over a pty', { skip }, () => {
  let pty: PtyPair;
  before(async () => {
    pty = await openPtyPair();
  });
  after(async () => {
    await pty?.close();
  });

  for (const { protocol, baud } of protocols) {
    it(`${protocol}: position, goto at the slew rate, stop, faults`, async () => {
      const sim = new RotatorSim({ protocol, az_rate_deg_s: 60, el_rate_deg_s: 30, rot2prog_pulses: 2, start: { az_deg: 10, el_deg: 5 } });
      await sim.open(pty.rigPath, baud);
      // The product's reply timeout: the simulator answers on this process's busy event loop, and a
      // third of it (300 ms) was missed once in a loaded full run.
      const open = () =>
        openRotator({ protocol, serial: nodeSerialDriver, serial_device: pty.ctlPath, baud_rate: baud, rotctld_host: '', rotctld_port: 0, clock: systemClock });
      const rot = await open();
      try {
        assert.equal(rot.protocol, protocol);
        assert.deepEqual(await rot.position(), { az_deg: 10, el_deg: 5 });

        await rot.goto({ az_deg: 70, el_deg: 20 });
        await sleep(300);
        const mid = await rot.position();
        assert.ok(mid.az_deg > 10 && mid.az_deg < 70, `moving at 60°/s, not there yet: ${mid.az_deg}`);
        await sleep(1200);
        assert.deepEqual(await rot.position(), { az_deg: 70, el_deg: 20 });

        await rot.goto({ az_deg: 250, el_deg: 80 });
        await sleep(500);
        await rot.stop();
        const stopped = await rot.position();
        await sleep(300);
        assert.deepEqual(await rot.position(), stopped, 'stop halts the rotator');
        assert.ok(stopped.az_deg < 250);

        await assert.rejects(rot.goto({ az_deg: Number.NaN, el_deg: 0 }), RotatorTargetInvalid);

        sim.faults.silent = true;
        const t0 = Date.now();
        await assert.rejects(rot.position(), RotatorSilent);
        assert.ok(Date.now() - t0 < 2 * ROTATOR_TIMEOUTS.reply_ms, 'a silent controller is an error within the reply timeout');
        sim.faults.silent = false;

        sim.faults.garbled = true;
        await assert.rejects(rot.position(), RotatorGarbled);
        sim.faults.garbled = false;
        assert.deepEqual(await rot.position(), stopped, 'the driver recovers when the controller does');

        // A pulled cable: the next command fails and onClose reports the loss.
        const lost = new Promise<Error | null>((r) => rot.onClose(r));
        await pty.unplug();
        await assert.rejects(async () => {
          for (let i = 0; i < 5; i++) await rot.position();
        });
        const err = await Promise.race([lost, sleep(3000).then(() => 'no close')]);
        assert.ok(err instanceof Error, `onClose reported ${String(err)}`);
        await assert.rejects(rot.position(), RotatorClosed);
      } finally {
        await rot.close();
        await sim.close();
        await pty.replug();
      }
    });
  }

  it('openRotator fails clearly on a silent controller and leaves the port closed', async () => {
    const sim = new RotatorSim({ protocol: 'gs232b' });
    sim.faults.silent = true;
    await sim.open(pty.rigPath);
    try {
      const o = { protocol: 'gs232b' as const, serial: nodeSerialDriver, serial_device: pty.ctlPath, baud_rate: 9600, rotctld_host: '', rotctld_port: 0, clock: systemClock, timeouts: { reply_ms: 200 } };
      await assert.rejects(openRotator(o), RotatorSilent);
      sim.faults.silent = false;
      const rot = await openRotator(o); // the port was released: it opens again
      await rot.close();
    } finally {
      await sim.close();
    }
  });
});
