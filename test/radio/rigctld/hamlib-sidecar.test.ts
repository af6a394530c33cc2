import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { freePort } from '../../rotator/rotctld-peer.js';
import { rigctldSkip } from './rigctld-peer.js';
import { alive, listenersOn, rigctldPids } from './processes.js';
import { until } from '../rig-fixture.js';
import { openPtyPair, type PtyPair } from '../../sims/pty-pair.js';
import { YaesuCatSim } from '../../sims/yaesu-cat-rig.js';
import { systemClock } from '../../../src/util/clock.js';
import { defaultRadioSettings, mainLink, type RigLink } from '../../../src/radio/settings.js';
import { RIGCTLD_MISSING, openHamlibLine } from '../../../src/radio/rigctld/hamlib-line.js';
import { RigOpenError } from '../../../src/radio/rig-line.js';

// The station running rigctld itself (the sidecar), with the Yaesu simulator on a pty behind
// `rigctld -m 1020` (Hamlib's FT-817 backend): bound to 127.0.0.1, a pair reaching the
// simulator's two VFOs, the process stopped on close, its death reported as the line's loss, no
// rigctld left behind when the station is killed, and each way it can fail to start in words the
// operator can act on.

const skip = rigctldSkip || (spawnSync('socat', ['-V']).status !== 0 && process.env.REQUIRE_HAMLIB !== '1' ? 'socat is not installed' : false);
const sidecar = (device: string, hamlib_model = 1020): RigLink => ({ ...mainLink(defaultRadioSettings()), rig_model: 'hamlib', hamlib_model, serial_device: device, baud_rate: 9600 });
const isOpenError = (retry: boolean, re: RegExp) => (e: Error) => e instanceof RigOpenError && e.retry === retry && re.test(e.message);

describe('rigctld sidecar: the Yaesu simulator behind rigctld -m 1020', { skip }, () => {
  let pty: PtyPair;
  let sim: YaesuCatSim;
  before(async () => {
    pty = await openPtyPair();
    sim = new YaesuCatSim({ model: 'FT-817' });
    await sim.open(pty.rigPath, 9600);
  });
  after(async () => {
    await sim?.close();
    await pty?.close();
  });

  it('runs rigctld on 127.0.0.1 only; a pair reaches the simulator’s two VFOs, receive on the one it stands on', async () => {
    const line = await openHamlibLine({ clock: systemClock }, sidecar(pty.ctlPath));
    try {
      const port = Number(/^rigctld:\/\/127\.0\.0\.1:(\d+) \((.+)\)$/.exec(line.label)?.[1]);
      assert.ok(port > 0, line.label);
      assert.ok(line.label.endsWith(`(${pty.ctlPath})`));
      assert.deepEqual(listenersOn(port), ['0100007F'], 'rigctld listens on 127.0.0.1 and nowhere else: Hamlib has no authentication');
      assert.ok(line.pid !== null && alive(line.pid));
      assert.equal(line.rig.capabilities.radio, 'Hamlib 1020 FT-817');
      await line.rig.init();
      await line.rig.writePair({ rx_hz: 145_900_000, rx_mode: 'USB', tx_hz: 435_300_000, tx_mode: 'LSB' });
      const s = sim.state;
      assert.deepEqual([s.vfoA.freq, s.vfoA.mode, s.vfoB.freq, s.vfoB.mode, s.split, s.current], [145_900_000, 'USB', 435_300_000, 'LSB', true, 'A']);
      await line.rig.writeLeg('tx', 435_299_000);
      await line.rig.writeLeg('rx', 145_901_000);
      assert.deepEqual([s.vfoA.freq, s.vfoB.freq, s.current], [145_901_000, 435_299_000, 'A']);
      await line.rig.setTone(88.5);
      assert.deepEqual([s.vfoB.toneMode, s.vfoB.toneHz, s.vfoA.toneMode, s.current], ['ctcss-enc', 88.5, 'off', 'A'], 'the tone on the transmit VFO only');
      const r = await line.rig.read();
      assert.deepEqual([r.a, r.b, r.split_enabled, r.error], [{ freq_hz: 145_901_000, mode: 'USB' }, { freq_hz: 435_299_000, mode: 'LSB' }, true, null]);
    } finally {
      await line.close();
    }
  });

  it('close stops rigctld, and is no loss', async () => {
    const line = await openHamlibLine({ clock: systemClock }, sidecar(pty.ctlPath));
    let lost: string | null = null;
    line.onLost((why) => (lost = why));
    const pid = line.pid!;
    await line.close();
    assert.equal(alive(pid), false);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(lost, null);
  });

  it('rigctld killed with SIGKILL: the line is lost, in words that say so', async () => {
    const line = await openHamlibLine({ clock: systemClock }, sidecar(pty.ctlPath));
    const lost = new Promise<string>((r) => line.onLost(r));
    process.kill(line.pid!, 'SIGKILL');
    assert.match(await lost, /^rigctld killed by SIGKILL/);
    await line.close();
    assert.deepEqual(rigctldPids(pty.ctlPath), []);
  });

  it('a device that does not exist: rigctld’s own words, retried, and no rigctld left', async () => {
    const device = `${pty.ctlPath}-missing`;
    await assert.rejects(openHamlibLine({ clock: systemClock }, sidecar(device)), isOpenError(true, /^rigctld could not open Hamlib model 1020 on .*-missing: serial_open: Unable to open .*-missing - No such file or directory$/));
    assert.deepEqual(rigctldPids(device), []);
  });

  it('a model Hamlib does not know: the model named, not retried, no crash', async () => {
    await assert.rejects(openHamlibLine({ clock: systemClock }, sidecar(pty.ctlPath, 999999)), isOpenError(false, /^Hamlib has no rig model 999999 \(rigctld: "Unknown rig num 999999/));
  });

  it('no rigctld: "install libhamlib-utils", not retried; the same with a PATH that lacks it', async () => {
    await assert.rejects(openHamlibLine({ clock: systemClock, rigctld: '/nonexistent/rigctld' }, sidecar(pty.ctlPath)), isOpenError(false, /^rigctld is not installed: install libhamlib-utils/));
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      await assert.rejects(openHamlibLine({ clock: systemClock, models: async () => ({ kind: 'missing', note: '' }) }, sidecar(pty.ctlPath)), (e: Error) => e instanceof RigOpenError && !e.retry && e.message === RIGCTLD_MISSING);
    } finally {
      process.env.PATH = path;
    }
  });
});

describe('rigctld sidecar: the station killed', { skip: rigctldSkip }, () => {
  it('leaves no rigctld behind when the station process dies by SIGKILL', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', new URL('./fixtures/sidecar-holder.ts', import.meta.url).pathname, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
    const pid = await new Promise<number>((resolve, reject) => {
      child.stdout!.setEncoding('utf8').once('data', (d: string) => resolve(Number(d.trim())));
      child.once('exit', (code) => reject(new Error(`the holder exited (${code})`)));
    });
    assert.ok(alive(pid));
    child.kill('SIGKILL');
    await until(() => !alive(pid), `rigctld ${pid} to end after the station's SIGKILL`, 5000);
  });
});
