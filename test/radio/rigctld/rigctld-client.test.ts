import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { freePort } from '../../rotator/rotctld-peer.js';
import { rigctldSkip, startRigctld } from './rigctld-peer.js';
import { systemClock } from '../../../src/util/clock.js';
import { connectRigctld, type RigctldClient } from '../../../src/radio/rigctld/rigctld-client.js';
import { RigctldClosed, RigctldRejected } from '../../../src/radio/rigctld/rigctld-errors.js';
import { HamlibError } from '../../../src/ham/hamlib/errors.js';

// The rigctld client against Hamlib's real rigctld with its dummy rig (-m 1) on an ephemeral
// loopback port: what it learns on open, every value set and read back, Hamlib's refusals, the
// VFO-first dialect of a daemon started with --vfo, the latest-value-wins queue, and the daemon
// killed under it.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const open = (port: number) => connectRigctld({ host: '127.0.0.1', port, clock: systemClock, connectMs: 3000, replyMs: 3000 });

describe('rigctld client against Hamlib rigctld -m 1', { skip: rigctldSkip }, () => {
  let port: number;
  let daemon: ChildProcess;
  let rig: RigctldClient;
  before(async () => {
    port = await freePort();
    daemon = await startRigctld(port);
    rig = await open(port);
  });
  after(async () => {
    await rig?.close();
    daemon?.kill();
  });

  it('opens with \\chk_vfo and \\dump_state, and leaves split on with the sub VFO', async () => {
    assert.equal(rig.info?.vfoArg, false);
    assert.equal(rig.info?.dump.model, 1);
    assert.equal(rig.info?.dump.protocol, 1);
    assert.equal(rig.info?.txVfo, 'VFOB');
    assert.deepEqual(await rig.split(), { on: true, tx_vfo: 'VFOB' });
  });

  it('sets and reads back frequency, split frequency, mode, split and PTT', async () => {
    await rig.setFreq(145_900_000);
    await rig.setSplitFreq(435_300_000);
    assert.equal(await rig.freq(), 145_900_000, 'I left the receive frequency alone');
    assert.equal(await rig.splitFreq(), 435_300_000);
    await rig.setMode('USB', 2400);
    assert.deepEqual(await rig.mode(), { mode: 'USB', passband_hz: 2400 });
    await rig.setMode('FM', 0);
    assert.equal((await rig.mode()).mode, 'FM');
    await rig.setSplit(false);
    assert.equal((await rig.split()).on, false);
    await rig.setSplit(true);
    assert.deepEqual(await rig.split(), { on: true, tx_vfo: 'VFOB' });
    await rig.setPtt(true);
    assert.equal(await rig.ptt(), true);
    await rig.setPtt(false);
    assert.equal(await rig.ptt(), false);
  });

  it('a refusal is a typed error with Hamlib’s code, and the connection goes on', async () => {
    await assert.rejects(rig.setVfo('MEM'), (e: Error) => e instanceof RigctldRejected && e.code === HamlibError.EINVAL && /set_vfo: rigctld answered RPRT -1 \(invalid parameter\)/.test(e.message));
    await rig.setVfo('VFOA'); // the dummy refuses MEM yet stands on it until told otherwise
    const sent = rig.stats.sent;
    await assert.rejects(rig.setFreq(Number.NaN), RangeError);
    assert.equal(rig.stats.sent, sent, 'nothing is sent for a value no line can carry');
    assert.equal(await rig.freq(), 145_900_000);
  });

  it('a burst of 20 F sends far fewer, and the last value wins', async () => {
    const sent = rig.stats.sent;
    const burst = Array.from({ length: 20 }, (_, i) => rig.setFreq(145_800_000 + i * 100));
    await Promise.all(burst);
    const written = rig.stats.sent - sent;
    assert.ok(written <= 3, `${written} F lines for 20 requests`);
    assert.equal(await rig.freq(), 145_801_900);
  });

  it('speaks with a VFO first to a daemon started with --vfo', async () => {
    const p = await freePort();
    const d = await startRigctld(p, ['--vfo']);
    // The daemon is killed whatever fails: one left running keeps this process from ever exiting.
    const r = await open(p).catch((err: Error) => {
      d.kill();
      throw err;
    });
    try {
      assert.equal(r.info?.vfoArg, true);
      assert.deepEqual(await r.split(), { on: true, tx_vfo: 'VFOB' });
      await r.setFreq(145_990_000, 'VFOA');
      assert.equal(await r.freq('VFOA'), 145_990_000);
      await r.setSplitFreq(435_250_000);
      assert.equal(await r.splitFreq(), 435_250_000);
      await r.setPtt(true);
      assert.equal(await r.ptt(), true);
      await r.setPtt(false);
    } finally {
      await r.close();
      d.kill();
    }
  });

  it('the daemon killed mid-session: the loss is reported once and every pending request fails', async () => {
    const p = await freePort();
    const d = await startRigctld(p);
    const r = await open(p).catch((err: Error) => {
      d.kill();
      throw err;
    });
    const reports: (Error | null)[] = [];
    r.onClose((err) => reports.push(err));
    d.kill('SIGSTOP'); // requests now wait on a daemon that does not read
    const pending = [r.setFreq(146_000_000), r.setSplitFreq(435_000_000), r.freq(), r.setMode('FM', 0)].map((q) => q.then(() => 'done', (e: Error) => e));
    await sleep(100);
    d.kill('SIGKILL');
    const outcomes = await Promise.race([Promise.all(pending), sleep(3000).then(() => 'still waiting' as const)]);
    assert.notEqual(outcomes, 'still waiting');
    for (const o of outcomes as unknown[]) assert.ok(o instanceof RigctldClosed, `pending request ended in ${String(o)}`);
    await sleep(50);
    assert.equal(reports.length, 1);
    assert.ok(reports[0] instanceof Error);
    await assert.rejects(r.freq(), RigctldClosed);
    let late: Error | null | undefined;
    r.onClose((err) => (late = err));
    assert.equal(late, reports[0], 'a listener added after the loss hears it at once');
    await r.close();
    assert.equal(reports.length, 1);
  });
});
