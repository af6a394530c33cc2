import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { freePort } from '../../rotator/rotctld-peer.js';
import { rigctldSkip, startRigctld } from './rigctld-peer.js';
import { LineProxy, askRigctld } from './line-proxy.js';
import { FixedClock, systemClock, type Clock } from '../../../src/util/clock.js';
import { defaultRadioSettings, mainLink, type RigLink } from '../../../src/radio/settings.js';
import { openHamlibLine, type HamlibLine } from '../../../src/radio/rigctld/hamlib-line.js';
import { MODE_READ_MS } from '../../../src/radio/rigctld/hamlib-driver.js';
import { RigOpenError } from '../../../src/radio/rig-line.js';

// The Hamlib rig driver against Hamlib's real rigctld with its dummy rig (-m 1, CAT PTT), reached
// as a rigctld the operator runs (hamlib_address), through a proxy that writes down every line
// the station sent and can hold each back (a slow CAT link): the pair and the legs on the VFOs
// split names, the readback and its pacing, snapshot and restore, the tone on the transmit VFO,
// and PTT off ahead of a queue.

const link = (address: string): RigLink => ({ ...mainLink(defaultRadioSettings()), rig_model: 'hamlib', hamlib_address: address });
/** The dummy's VFO B frequency, read on a connection of its own (V VFOB, f, back to V VFOA). */
const vfoB = async (port: number) => Number((await askRigctld(port, ['V VFOB', 'f', 'V VFOA'], 3))[1]);

describe('Hamlib rig driver against rigctld -m 1', { skip: rigctldSkip }, () => {
  let daemonPort: number;
  let daemon: ChildProcess;
  let proxy: LineProxy;
  let line: HamlibLine;
  let clock: FixedClock;
  const open = (c: Clock = systemClock) => openHamlibLine({ clock: c }, link(`127.0.0.1:${proxy.port}`));

  before(async () => {
    daemonPort = await freePort();
    daemon = await startRigctld(daemonPort);
    proxy = new LineProxy(daemonPort);
    await proxy.start();
    clock = new FixedClock(Date.parse('2026-08-22T12:00:00Z'));
    line = await open(clock);
    await line.rig.init();
  });
  after(async () => {
    await line?.close();
    await proxy?.close();
    daemon?.kill();
  });
  beforeEach(() => {
    proxy.delayMs = 0;
  });

  it("opens a rigctld the operator runs: its label, the dummy's name from Hamlib's list, split on VFOB, standing on VFOA", async () => {
    assert.equal(line.label, `rigctld://127.0.0.1:${proxy.port}`);
    assert.equal(line.pid, null);
    assert.equal(line.rig.capabilities.radio, 'Hamlib 1 Dummy');
    assert.equal(line.rig.capabilities.split, true);
    assert.deepEqual(proxy.lines.slice(0, 4), ['\\chk_vfo', '\\dump_state', 'S 1 VFOB', 'V VFOA']);
    assert.equal(line.rig.selectedVfo(), 'A');
  });

  it('writes a pair: receive with F and M, then split on and transmit through I and X; VFO B holds the uplink', async () => {
    const mark = proxy.lines.length;
    await line.rig.writePair({ rx_hz: 145_900_000, rx_mode: 'USB', tx_hz: 435_300_000, tx_mode: 'LSB' });
    assert.deepEqual(proxy.since(mark), ['F 145900000', 'M USB 0', 'S 1 VFOB', 'I 435300000', 'X LSB 0']);
    const r = await line.rig.read();
    assert.deepEqual({ a: r.a, b: r.b, split: r.split_enabled, error: r.error }, { a: { freq_hz: 145_900_000, mode: 'USB' }, b: { freq_hz: 435_300_000, mode: 'LSB' }, split: true, error: null });
    assert.equal(await vfoB(daemonPort), 435_300_000, 'I went to VFO B, not VFO A');
  });

  it('a receive-only pair turns split off; data and reversed modes go in Hamlib’s spelling and come back in the station’s', async () => {
    const mark = proxy.lines.length;
    await line.rig.writePair({ rx_hz: 437_800_000, rx_mode: 'USB-D', tx_hz: null, tx_mode: null });
    assert.deepEqual(proxy.since(mark), ['F 437800000', 'M PKTUSB 0', 'S 0 VFOB']);
    const r = await line.rig.read();
    assert.deepEqual([r.a, r.split_enabled], [{ freq_hz: 437_800_000, mode: 'USB-D' }, false]);
    await line.rig.writeVfo('B', 145_950_000, 'CW-R');
    assert.deepEqual(proxy.since(mark).slice(-4), ['V VFOB', 'F 145950000', 'M CWR 0', 'V VFOA'], 'split off: VFO B itself (I would wait for split)');
    assert.equal(await vfoB(daemonPort), 145_950_000);
    await assert.rejects(line.rig.writeVfo('A', 145_000_000, 'NOPE'), /NOPE.* no mode Hamlib sets/);
  });

  it('a tracking tick is one line per leg: F for receive, I for transmit', async () => {
    await line.rig.writePair({ rx_hz: 145_900_000, rx_mode: null, tx_hz: 435_300_000, tx_mode: null });
    const mark = proxy.lines.length;
    await line.rig.writeLeg('rx', 145_901_230);
    await line.rig.writeLeg('tx', 435_298_770);
    assert.deepEqual(proxy.since(mark), ['F 145901230', 'I 435298770']);
    assert.equal(await vfoB(daemonPort), 435_298_770);
  });

  it('reads both frequencies every poll, modes and split only after the station set one or every MODE_READ_MS', async () => {
    await line.rig.writePair({ rx_hz: 145_900_000, rx_mode: 'FM', tx_hz: 435_300_000, tx_mode: 'FM' });
    let mark = proxy.lines.length;
    await line.rig.read();
    assert.deepEqual(proxy.since(mark), ['f', 'm', 'i', 'x', 's'], 'the pair set modes: read them');
    mark = proxy.lines.length;
    const quick = await line.rig.read();
    assert.deepEqual(proxy.since(mark), ['f', 'i']);
    assert.deepEqual([quick.a, quick.b, quick.split_enabled], [{ freq_hz: 145_900_000, mode: 'FM' }, { freq_hz: 435_300_000, mode: 'FM' }, true], 'modes and split as last read');
    clock.advance(MODE_READ_MS);
    mark = proxy.lines.length;
    await line.rig.read();
    assert.deepEqual(proxy.since(mark), ['f', 'm', 'i', 'x', 's']);
    await line.rig.setSplit(false);
    mark = proxy.lines.length;
    assert.equal((await line.rig.read()).split_enabled, false);
    assert.deepEqual(proxy.since(mark), ['f', 'm', 'i', 'x', 's']);
  });

  it('snapshot and restore: both VFOs’ frequency and mode, and split', async () => {
    await line.rig.writePair({ rx_hz: 145_850_000, rx_mode: 'FM', tx_hz: 435_250_000, tx_mode: 'USB' });
    await line.rig.setSplit(false);
    const snap = await line.rig.snapshot();
    assert.deepEqual([snap.a, snap.b, snap.split_enabled, snap.selected_vfo], [{ freq_hz: 145_850_000, mode: 'FM' }, { freq_hz: 435_250_000, mode: 'USB' }, false, 'A']);
    await line.rig.writePair({ rx_hz: 437_800_000, rx_mode: 'LSB', tx_hz: 145_990_000, tx_mode: 'CW' });
    const mark = proxy.lines.length;
    await line.rig.restore(snap);
    assert.deepEqual(proxy.since(mark), ['F 145850000', 'M FM 0', 'S 1 VFOB', 'I 435250000', 'X USB 0', 'S 0 VFOB']);
    const r = await line.rig.read();
    assert.deepEqual([r.a, r.b, r.split_enabled], [snap.a, snap.b, false]);
    assert.equal(await vfoB(daemonPort), 435_250_000);
  });

  it('sets the CTCSS tone on the transmit VFO (C in tenths of Hz, the encoder on) and comes back to receive', async () => {
    let mark = proxy.lines.length;
    await line.rig.setTone(88.5);
    assert.deepEqual(proxy.since(mark), ['V VFOB', 'C 885', 'U TONE 1', 'V VFOA']);
    assert.deepEqual(await askRigctld(daemonPort, ['V VFOB', 'c', 'u TONE', 'V VFOA'], 4), ['RPRT 0', '885', '1', 'RPRT 0']);
    mark = proxy.lines.length;
    await line.rig.setTone(null);
    assert.deepEqual(proxy.since(mark), ['V VFOB', 'U TONE 0', 'V VFOA']);
  });

  it('PTT: on, read back with t when asked, and off ahead of everything a slow link has waiting', async () => {
    await line.rig.pttOn();
    assert.equal(await line.rig.readPtt(), true);
    proxy.delayMs = 150; // a slow CAT link: each line waits
    const mark = proxy.lines.length;
    const busy = [line.rig.writeLeg('rx', 145_900_100), line.rig.writeLeg('tx', 435_299_900), line.rig.read()];
    await new Promise((r) => setTimeout(r, 20)); // F is in flight, I and the read's f wait
    await line.rig.pttOff();
    await Promise.all(busy);
    const sent = proxy.since(mark);
    assert.deepEqual(sent.slice(0, 4), ['F 145900100', 'T 0', 'I 435299900', 'f'], 'T 0 went right after the line in flight');
    proxy.delayMs = 0;
    assert.equal(await line.rig.readPtt(), false);
  });

  it('behind a slow link a tick never waits behind stale values: the newest frequency replaces one still waiting', async () => {
    proxy.delayMs = 150;
    const mark = proxy.lines.length;
    const steps = [145_900_000, 145_900_100, 145_900_200, 145_900_300].map((hz) => line.rig.writeLeg('rx', hz));
    await Promise.all(steps);
    assert.deepEqual(proxy.since(mark), ['F 145900000', 'F 145900300']);
  });
});

describe('Hamlib rig driver against rigctld -m 1 --vfo', { skip: rigctldSkip }, () => {
  let daemon: ChildProcess;
  let proxy: LineProxy;
  let line: HamlibLine;
  before(async () => {
    const port = await freePort();
    daemon = await startRigctld(port, ['--vfo']);
    proxy = new LineProxy(port);
    await proxy.start();
    line = await openHamlibLine({ clock: systemClock }, link(`127.0.0.1:${proxy.port}`));
    await line.rig.init();
  });
  after(async () => {
    await line?.close();
    await proxy?.close();
    daemon?.kill();
  });

  it('names the VFO in every line that takes one, and sets the tone on VFOB without moving the rig', async () => {
    const mark = proxy.lines.length;
    await line.rig.writePair({ rx_hz: 145_900_000, rx_mode: 'FM', tx_hz: 435_300_000, tx_mode: 'FM' });
    await line.rig.setTone(67);
    await line.rig.writeLeg('rx', 145_900_500);
    assert.deepEqual(proxy.since(mark), ['F VFOA 145900000', 'M VFOA FM 0', 'S currVFO 1 VFOB', 'I currVFO 435300000', 'X currVFO FM 0', 'C VFOB 670', 'U VFOB TONE 1', 'F VFOA 145900500']);
    const r = await line.rig.read();
    assert.deepEqual([r.a_freq_hz, r.b_freq_hz, r.error], [145_900_500, 435_300_000, null]);
  });
});

describe('Hamlib rig line to a rigctld that goes away', { skip: rigctldSkip }, () => {
  it('says it is lost when the daemon ends, and a reopen that finds nobody is retried (RigOpenError, retry)', async () => {
    const port = await freePort();
    const daemon = await startRigctld(port);
    const line = await openHamlibLine({ clock: systemClock }, link(`127.0.0.1:${port}`));
    const lost = new Promise<string>((r) => line.onLost(r));
    daemon.kill('SIGKILL');
    assert.match(await lost, /^rigctld connection lost: /);
    await line.close();
    // Nobody listens there now (or, on a busy machine, someone else's program took the port): either way no rig, and a retry.
    await assert.rejects(openHamlibLine({ clock: systemClock }, link(`127.0.0.1:${port}`)), (e: Error) => e instanceof RigOpenError && e.retry && e.message.startsWith(`cannot open the rig through rigctld at 127.0.0.1:${port}: `));
  });
});
