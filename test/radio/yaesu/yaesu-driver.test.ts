import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { nodeSerialDriver } from '../../../src/links/serial-driver.js';
import { systemClock } from '../../../src/util/clock.js';
import { AppError } from '../../../src/util/errors.js';
import { TimeoutError } from '../../../src/util/waitress.js';
import { rigFault } from '../../../src/radio/rig-errors.js';
import type { RigLine } from '../../../src/radio/rig-line.js';
import { defaultRadioSettings, mainLink } from '../../../src/radio/settings.js';
import { TRACK_RESOLUTION } from '../../../src/radio/tracking.js';
import { openYaesuLine } from '../../../src/radio/yaesu/yaesu-line.js';
import { TX_RETUNE_HZ } from '../../../src/radio/yaesu/yaesu-driver.js';
import { CAT_TIMEOUTS } from '../../../src/radio/yaesu/cat-port.js';
import { openPtyPair, type PtyPair } from '../../sims/pty-pair.js';
import { YaesuCatSim, type YaesuSimModel, type YaesuSimVfo } from '../../sims/yaesu-cat-rig.js';

// The native FT-817/818/857/897 driver as the station opens it (openYaesuLine: the serial port
// at 8N2 over a pty), the simulator at the other end. What the issue asks of it: the pair with the
// receive VFO where the radio rests and the transmit VFO written by toggling, every update ending
// on the receive VFO; nothing but F7 while the radio is keyed, and PTT off ahead of everything;
// the tone in both byte pairs; snapshot and restore; a silent radio, a stray byte, an unplug.

const RIG_MODEL = { 'FT-817': 'ft817', 'FT-818': 'ft818', 'FT-857': 'ft857', 'FT-897': 'ft897' } as const;
const ops = (sim: YaesuCatSim) => sim.log.map((e) => e.opcode.toString(16).toUpperCase().padStart(2, '0')).join(' ');

interface Bench {
  pty: PtyPair;
  sim: YaesuCatSim;
  line: RigLine;
  /** The simulator's VFO the driver receives on (where the radio rested at init), and the other. */
  rx: () => YaesuSimVfo;
  tx: () => YaesuSimVfo;
  done(): Promise<void>;
}

const linkTo = (model: YaesuSimModel, device: string) => ({ ...mainLink({ ...defaultRadioSettings(), rig_model: RIG_MODEL[model], serial_device: device, baud_rate: 9600 }), rig_model: RIG_MODEL[model] });

/** A pty, the simulator as `model` resting on VFO `rest`, and the line opened and initialised; the log starts empty. */
async function station(model: YaesuSimModel, rest: 'A' | 'B' = 'A', prep?: (sim: YaesuCatSim) => void): Promise<Bench> {
  const pty = await openPtyPair();
  const sim = new YaesuCatSim({ model });
  sim.state.current = rest;
  prep?.(sim);
  await sim.open(pty.rigPath, 9600);
  let line: RigLine;
  try {
    line = await openYaesuLine({ serial: nodeSerialDriver, clock: systemClock }, linkTo(model, pty.ctlPath));
    await line.rig.init();
  } catch (err) {
    await sim.close();
    await pty.close();
    throw err;
  }
  sim.clearLog();
  const vfo = (v: 'A' | 'B') => (v === 'A' ? sim.state.vfoA : sim.state.vfoB);
  return {
    pty,
    sim,
    line,
    rx: () => vfo(rest),
    tx: () => vfo(rest === 'A' ? 'B' : 'A'),
    async done() {
      await line.close();
      await sim.close();
      await pty.close();
    },
  };
}

/** Runs fn on a station and closes it whatever happens. */
async function on(opening: Promise<Bench>, fn: (b: Bench) => Promise<void>): Promise<void> {
  const b = await opening;
  try {
    await fn(b);
  } finally {
    await b.done();
  }
}

const isCode = (code: string, msg?: RegExp) => (e: unknown) => e instanceof AppError && e.code === code && (!msg || msg.test(e.message));

describe('YaesuDriver on a pty against the simulator', () => {
  for (const [model, rest] of [['FT-817', 'A'], ['FT-818', 'B'], ['FT-857', 'B'], ['FT-897', 'A']] as const) {
    it(`${model} resting on VFO ${rest}: init learns it; a pair goes to it, the uplink to the other VFO by toggling, split on, the radio left where it rested`, async () => {
      const pty = await openPtyPair();
      const sim = new YaesuCatSim({ model });
      sim.state.current = rest;
      await sim.open(pty.rigPath, 9600);
      let line: RigLine | null = null;
      try {
        line = await openYaesuLine({ serial: nodeSerialDriver, clock: systemClock }, linkTo(model, pty.ctlPath));
        assert.equal(line.label, pty.ctlPath);
        assert.equal(line.rig.capabilities.radio, `Yaesu ${model}`);
        await line.rig.init();
        // F7, the EEPROM's VFO and split bytes, the receive VFO, and the transmit VFO between two toggles.
        assert.equal(ops(sim), 'F7 BB BB 03 81 03 81');
        assert.equal(sim.state.current, rest);
        const rxVfo = rest === 'A' ? sim.state.vfoA : sim.state.vfoB;
        const txVfo = rest === 'A' ? sim.state.vfoB : sim.state.vfoA;
        let r = await line.rig.read();
        assert.deepEqual([r.a, r.b, r.selected_vfo, r.split_enabled, r.error], [{ freq_hz: rxVfo.freq, mode: 'FM' }, { freq_hz: txVfo.freq, mode: 'FM' }, 'A', false, null]);

        sim.clearLog();
        await line.rig.writePair({ rx_hz: 435_795_123, rx_mode: 'USB', tx_hz: 145_965_004, tx_mode: 'LSB' });
        assert.equal(ops(sim), 'F7 BB 01 07 81 01 07 81 02');
        assert.deepEqual([rxVfo.freq, rxVfo.mode, txVfo.freq, txVfo.mode], [435_795_120, 'USB', 145_965_000, 'LSB']);
        assert.deepEqual([sim.state.split, sim.state.current], [true, rest]);

        sim.clearLog();
        r = await line.rig.read();
        assert.equal(ops(sim), 'F7 BB 03', 'a poll never toggles');
        assert.deepEqual([r.a, r.a_freq_hz, r.b, r.b_freq_hz, r.selected_vfo, r.split_enabled], [{ freq_hz: 435_795_120, mode: 'USB' }, 435_795_120, { freq_hz: 145_965_000, mode: 'LSB' }, 145_965_000, 'A', true]);
        assert.equal(line.rig.selectedVfo(), 'A');
      } finally {
        await line?.close();
        await sim.close();
        await pty.close();
      }
    });
  }

  it('a receive-only pair turns split off; a pair whose split is already on takes the F0 as "already so"', async () => {
    await on(station('FT-817'), async (b) => {
      await b.line.rig.writePair({ rx_hz: 145_800_000, rx_mode: 'FM', tx_hz: 435_800_000, tx_mode: 'FM' });
      b.sim.clearLog();
      await b.line.rig.writePair({ rx_hz: 145_810_000, rx_mode: null, tx_hz: 435_790_000, tx_mode: null });
      assert.equal(ops(b.sim), 'F7 BB 01 81 01 81 02 F7 BB', 'F0 to 02: F7 says not keyed, and the EEPROM says split is on');
      assert.equal(b.sim.state.split, true);
      await b.line.rig.writePair({ rx_hz: 145_820_000, rx_mode: null, tx_hz: null, tx_mode: null });
      assert.equal(b.sim.state.split, false);
      assert.equal(b.sim.state.vfoB.freq, 435_790_000, 'the transmit VFO left alone');
    });
  });

  it('writeLeg: the receive VFO directly; the transmit VFO between two toggles, once it moved by TX_RETUNE_HZ for its mode', async () => {
    // The driver's threshold sits on top of auto-track's deadband, which alone would toggle every tick.
    assert.ok(TX_RETUNE_HZ.fm > TRACK_RESOLUTION.fm.deadband_hz && TX_RETUNE_HZ.linear > TRACK_RESOLUTION.linear.deadband_hz);
    await on(station('FT-857', 'B'), async (b) => {
      await b.line.rig.writePair({ rx_hz: 435_800_000, rx_mode: 'FM', tx_hz: 145_850_000, tx_mode: 'FM' });
      b.sim.clearLog();
      await b.line.rig.writeLeg('rx', 435_801_300);
      assert.equal(ops(b.sim), 'F7 BB 01');
      assert.equal(b.rx().freq, 435_801_300);
      await b.line.rig.writeLeg('tx', 145_850_000 + TX_RETUNE_HZ.fm - 10);
      assert.equal(ops(b.sim), 'F7 BB 01', 'FM: under 1 kHz the uplink is not rewritten (no toggle, no mute)');
      await b.line.rig.writeLeg('tx', 145_850_000 + TX_RETUNE_HZ.fm);
      assert.equal(ops(b.sim), 'F7 BB 01 F7 BB 81 01 81');
      assert.deepEqual([b.tx().freq, b.sim.state.current], [145_851_000, 'B']);

      await b.line.rig.writePair({ rx_hz: 435_640_000, rx_mode: 'USB', tx_hz: 145_965_000, tx_mode: 'LSB' });
      b.sim.clearLog();
      await b.line.rig.writeLeg('tx', 145_965_000 - TX_RETUNE_HZ.linear + 10);
      assert.equal(ops(b.sim), '', 'linear: under 100 Hz nothing is sent');
      await b.line.rig.writeLeg('tx', 145_965_000 - TX_RETUNE_HZ.linear);
      assert.equal(ops(b.sim), 'F7 BB 81 01 81');
      assert.equal(b.tx().freq, 145_964_900);
      // Measured from what the radio holds, not from what was last asked: small steps add up.
      b.sim.clearLog();
      await b.line.rig.writeLeg('tx', 145_964_840);
      await b.line.rig.writeLeg('tx', 145_964_800);
      assert.equal(ops(b.sim), 'F7 BB 81 01 81');
      assert.equal(b.tx().freq, 145_964_800);
    });
  });

  it('writeVfo: A is the receive VFO, B the transmit VFO written by toggling; a mode the CAT cannot set is a 400 before any byte', async () => {
    await on(station('FT-818', 'B'), async (b) => {
      await b.line.rig.writeVfo('A', 145_900_000, 'FM-N');
      await b.line.rig.writeVfo('B', 435_900_000, 'USB-D');
      assert.deepEqual([b.rx().freq, b.rx().mode, b.tx().freq, b.tx().mode, b.sim.state.current], [145_900_000, 'FM-N', 435_900_000, 'DIG', 'B']);
      const r = await b.line.rig.read();
      assert.deepEqual([r.a, r.b], [{ freq_hz: 145_900_000, mode: 'FM-N' }, { freq_hz: 435_900_000, mode: 'DIG' }]);
      b.sim.clearLog();
      await assert.rejects(b.line.rig.writePair({ rx_hz: 145_900_000, rx_mode: 'RTTY', tx_hz: null, tx_mode: null }), isCode('mode_unsupported', /mode RTTY cannot be set by CAT on the FT-818/));
      await assert.rejects(b.line.rig.writeVfo('B', 435_900_000, 'DV'), isCode('mode_unsupported'));
      assert.equal(ops(b.sim), '');
    });
  });

  it('the operator left the radio on the other VFO: a poll reads it as B without toggling, and the next write comes back to the receive VFO first', async () => {
    await on(station('FT-817', 'A'), async (b) => {
      b.sim.state.current = 'B'; // A/B on the front panel
      b.sim.state.vfoB.freq = 435_700_000;
      const r = await b.line.rig.read();
      assert.equal(ops(b.sim), 'F7 BB 03');
      assert.deepEqual([r.selected_vfo, r.a_freq_hz, r.b_freq_hz], ['B', null, 435_700_000], 'the transmit VFO is no news for knob-follow');
      assert.equal(b.line.rig.selectedVfo(), 'B');
      b.sim.clearLog();
      await b.line.rig.writeLeg('rx', 145_810_000);
      assert.equal(ops(b.sim), 'F7 BB 81 01');
      assert.deepEqual([b.sim.state.current, b.sim.state.vfoA.freq, b.sim.state.vfoB.freq], ['A', 145_810_000, 435_700_000]);
      assert.equal(b.line.rig.selectedVfo(), 'A');
    });
  });

  it('keyed by hand: every write is refused with a clear error and nothing but F7 goes out; reads still answer; PTT off still goes and says CAT cannot release it', async () => {
    await on(station('FT-857'), async (b) => {
      await b.line.rig.writePair({ rx_hz: 435_800_000, rx_mode: 'FM', tx_hz: 145_850_000, tx_mode: 'FM' });
      const before = structuredClone(b.sim.state);
      b.sim.keyByHand(true);
      b.sim.clearLog();
      const rig = b.line.rig;
      const writes: Array<[string, () => Promise<unknown>]> = [
        ['pair', () => rig.writePair({ rx_hz: 435_790_000, rx_mode: 'FM', tx_hz: 145_860_000, tx_mode: 'FM' })],
        ['receive leg', () => rig.writeLeg('rx', 435_790_000)],
        ['transmit leg', () => rig.writeLeg('tx', 145_860_000)],
        ['VFO', () => rig.writeVfo('B', 145_860_000)],
        ['tone', () => rig.setTone(67)],
        ['split', () => rig.setSplit(false)],
        ['snapshot', () => rig.snapshot()],
        ['restore', () => rig.restore({ a: { freq_hz: 145_800_000, mode: 'FM' }, b: { freq_hz: 435_800_000, mode: 'FM' }, split_enabled: false, squelch: 0, scope: { enabled: false, mode: null, span_hz: null }, tone: null, selected_vfo: 'A' })],
      ];
      for (const [what, write] of writes) {
        await assert.rejects(write(), isCode('rig_transmitting', /^the FT-857 is transmitting \(keyed by hand\?\): .* not written/), what);
        assert.equal(rigFault(await write().catch((e) => e), 'x').status, 409);
      }
      assert.match(ops(b.sim), /^F7( F7)*$/, 'nothing but F7 while keyed');
      assert.deepEqual(b.sim.state.vfoA, before.vfoA);
      assert.deepEqual(b.sim.state.vfoB, before.vfoB);

      b.sim.clearLog();
      const r = await rig.read();
      assert.equal(r.error, null);
      assert.equal(await rig.readPtt(), true);
      await assert.rejects(rig.pttOff(), isCode('rig_keyed_by_hand', /answered F0 and still transmits/));
      assert.equal(ops(b.sim), 'F7 BB 03 F7 88 F7', 'reads answer, and PTT off went');
      b.sim.keyByHand(false);
      await rig.pttOff(); // F0 (CAT had not keyed it), and F7 says it does not transmit: fine
      assert.equal(await rig.readPtt(), false);
      await rig.writeLeg('rx', 435_790_000);
      assert.equal(b.sim.state.vfoA.freq, 435_790_000);
    });
  });

  it('PTT on from the receive VFO, so split transmits on the other; keyed by CAT the writes wait, PTT off releases it', async () => {
    await on(station('FT-818', 'B'), async (b) => {
      await b.line.rig.writePair({ rx_hz: 435_800_000, rx_mode: 'FM', tx_hz: 145_850_000, tx_mode: 'FM' });
      b.sim.state.current = 'A'; // the operator looked at the other VFO
      b.sim.clearLog();
      await b.line.rig.pttOn();
      assert.equal(ops(b.sim), 'F7 BB 81 08');
      assert.deepEqual([b.sim.state.catPtt, b.sim.state.current], [true, 'B']);
      assert.equal(await b.line.rig.readPtt(), true);
      // Keyed in split, the radio shows the transmit VFO: the poll files 03 under B.
      b.sim.state.vfoA.freq = 145_851_000;
      const r = await b.line.rig.read();
      assert.deepEqual([r.a_freq_hz, r.b_freq_hz], [null, 145_851_000]);
      await assert.rejects(b.line.rig.writeLeg('rx', 435_801_000), isCode('rig_transmitting'));
      await b.line.rig.pttOn(); // already transmitting: nothing to send
      b.sim.clearLog();
      await b.line.rig.pttOff();
      assert.equal(ops(b.sim), '88');
      assert.equal(b.sim.state.catPtt, false);
      await b.line.rig.writeLeg('rx', 435_801_000);
      assert.equal(b.rx().freq, 435_801_000);
    });
  });

  it('PTT off jumps the queue: it goes out right after the command in flight, ahead of the rest of a pair and a tracking step', async () => {
    await on(station('FT-817'), async (b) => {
      b.sim.faults.delayMs = 20;
      const rig = b.line.rig;
      const pair = rig.writePair({ rx_hz: 145_800_000, rx_mode: 'FM', tx_hz: 435_800_000, tx_mode: 'FM' });
      const step = rig.writeLeg('rx', 145_801_000);
      while (b.sim.log.length === 0) await new Promise((r) => setTimeout(r, 1));
      await rig.pttOff();
      await Promise.all([pair, step]);
      // F7 was in flight and 88 went next. It answered F0 (CAT had not keyed it); its F7 read-back
      // went ahead of all that waited then, behind the BB already on its way.
      assert.equal(ops(b.sim), 'F7 88 BB F7 01 07 81 01 07 81 02 F7 BB 01');
      assert.equal(b.sim.state.vfoA.freq, 145_801_000);
    });
  });

  for (const model of ['FT-817', 'FT-857', 'FT-897'] as const) {
    it(`${model}: the CTCSS tone goes on the transmit VFO with the tone in both byte pairs and the encoder on; off turns the encoder off`, async () => {
      await on(station(model, 'B'), async (b) => {
        await b.line.rig.writePair({ rx_hz: 435_800_000, rx_mode: 'FM', tx_hz: 145_850_000, tx_mode: 'FM' });
        b.sim.clearLog();
        await b.line.rig.setTone(88.5);
        assert.equal(ops(b.sim), 'F7 BB 81 0B 0A 81');
        assert.equal(b.sim.log[3].bytes, '08 85 08 85 0B');
        assert.equal(b.sim.log[4].reply, '00');
        assert.deepEqual([b.tx().toneHz, b.tx().toneMode, b.rx().toneMode, b.sim.state.current], [88.5, 'ctcss-enc', 'off', 'B']);
        if (model !== 'FT-817') assert.equal(b.tx().rxToneHz, 88.5, 'the FT-857/897 need the second pair');
        await b.line.rig.setTone(null);
        assert.equal(b.tx().toneMode, 'off');
        b.sim.clearLog();
        await assert.rejects(b.line.rig.setTone(88.4), isCode('bad_tone', /not a standard CTCSS tone/));
        assert.equal(ops(b.sim), '');
      });
    });
  }

  for (const rest of ['A', 'B'] as const) {
    it(`snapshot and restore (radio resting on ${rest}): both VFOs' frequency and mode and split come back, the radio on its receive VFO`, async () => {
      await on(station('FT-897', rest, (sim) => {
        sim.state.vfoA = { ...sim.state.vfoA, freq: 145_990_000, mode: 'FM-N' };
        sim.state.vfoB = { ...sim.state.vfoB, freq: 433_300_000, mode: 'DIG' };
        sim.state.split = rest === 'B';
      }), async (b) => {
        const original = structuredClone({ a: b.sim.state.vfoA, b: b.sim.state.vfoB, split: b.sim.state.split });
        b.sim.clearLog();
        const snap = await b.line.rig.snapshot();
        assert.equal(ops(b.sim), 'F7 BB 03 BB 81 03 81');
        assert.deepEqual([snap.a, snap.b, snap.split_enabled, snap.selected_vfo], [{ freq_hz: b.rx().freq, mode: b.rx().mode }, { freq_hz: b.tx().freq, mode: b.tx().mode }, rest === 'B', 'A']);

        await b.line.rig.writePair({ rx_hz: 435_640_000, rx_mode: 'USB', tx_hz: 145_965_000, tx_mode: 'LSB' });
        await b.line.rig.setTone(67);
        assert.equal(b.sim.state.split, true);
        b.sim.clearLog();
        await b.line.rig.restore(snap);
        assert.equal(ops(b.sim), rest === 'B' ? 'F7 BB 01 07 81 01 07 81 02 F7 BB' : 'F7 BB 01 07 81 01 07 81 82');
        assert.deepEqual({ a: { freq: b.sim.state.vfoA.freq, mode: b.sim.state.vfoA.mode }, b: { freq: b.sim.state.vfoB.freq, mode: b.sim.state.vfoB.mode }, split: b.sim.state.split }, {
          a: { freq: original.a.freq, mode: original.a.mode },
          b: { freq: original.b.freq, mode: original.b.mode },
          split: original.split,
        });
        assert.equal(b.sim.state.current, rest);
      });
    });
  }

  it('restore of a mode the CAT cannot set (WFM) puts back the rest and says which mode it left', async () => {
    await on(station('FT-817', 'A', (sim) => {
      sim.state.vfoA = { ...sim.state.vfoA, freq: 100_100_000, mode: 'WFM' };
    }), async (b) => {
      const snap = await b.line.rig.snapshot();
      await b.line.rig.writePair({ rx_hz: 145_800_000, rx_mode: 'FM', tx_hz: 435_800_000, tx_mode: 'USB' });
      await assert.rejects(b.line.rig.restore(snap), /restored, except the mode WFM: the CAT cannot set it/);
      assert.deepEqual([b.sim.state.vfoA.freq, b.sim.state.vfoA.mode, b.sim.state.vfoB.mode, b.sim.state.split], [100_100_000, 'FM', 'FM', false]);
    });
  });

  it('F0 is a hint, the read-back the truth: a frequency the radio does not take is refused with what it kept', async () => {
    await on(station('FT-817'), async (b) => {
      b.sim.clearLog();
      await assert.rejects(b.line.rig.writeLeg('rx', 200_000_000), isCode('rig_rejected', /the FT-817 refused the receive VFO's frequency 200000000 Hz \(answered F0\): it stays on 145800000 Hz/));
      assert.equal(ops(b.sim), 'F7 BB 01 F7 03');
    });
  });

  it('a silent radio: the poll reports the timeout, writes fail with it, and the driver works again once the radio answers', async () => {
    await on(station('FT-818'), async (b) => {
      b.sim.faults.silent = true;
      const r = await b.line.rig.read();
      assert.equal(r.error, `the FT-818's answer to read TX status (F7): no answer within ${CAT_TIMEOUTS.reply_ms} ms`);
      assert.deepEqual([r.a, r.a_freq_hz], [null, null]);
      const err = await b.line.rig.writeLeg('rx', 145_810_000).catch((e) => e);
      assert.ok(err instanceof TimeoutError);
      assert.equal(rigFault(err, 'auto-track step').code, 'rig_timeout');
      b.sim.faults.silent = false;
      b.sim.state.vfoA.freq = 145_820_000;
      const ok = await b.line.rig.read();
      assert.deepEqual([ok.error, ok.a_freq_hz], [null, 145_820_000]);
      await b.line.rig.writeLeg('rx', 145_830_000);
      assert.equal(b.sim.state.vfoA.freq, 145_830_000);
    });
  });

  it('a stray byte on the line: the driver puts the count back in step and the next write lands where it should', async () => {
    await on(station('FT-857'), async (b) => {
      b.sim.feed([0x14]); // the radio now holds one byte of nothing
      await b.line.rig.read(); // F7 and BB come back shifted; the resync sorts it out
      b.sim.clearLog();
      const r = await b.line.rig.read();
      assert.deepEqual([r.error, r.a_freq_hz], [null, 145_800_000]);
      assert.equal(ops(b.sim), 'F7 BB 03');
      await b.line.rig.writeLeg('rx', 145_810_000);
      assert.deepEqual([b.sim.state.vfoA.freq, b.sim.state.vfoB.freq, b.sim.state.current], [145_810_000, 435_800_000, 'A']);
    });
  });

  it('nothing to prepare for a satellite, and no transceive: prepareSatellite sends nothing, watchRx never calls', async () => {
    await on(station('FT-817'), async (b) => {
      await b.line.rig.prepareSatellite();
      let heard = 0;
      const stop = b.line.rig.watchRx(() => heard++);
      await b.line.rig.read();
      stop();
      assert.equal(heard, 0);
      assert.equal(ops(b.sim), 'F7 BB 03');
    });
  });

  it('unplugged: onLost names the device, and what waits or comes fails as the link being down; close() after reports nothing more', async () => {
    await on(station('FT-817'), async (b) => {
      let lost: string | null = null;
      b.line.onLost((why) => (lost = why));
      b.sim.faults.silent = true;
      const waiting = b.line.rig.writeLeg('rx', 145_810_000).catch((e) => e);
      while (b.sim.log.length === 0) await new Promise((r) => setTimeout(r, 1));
      await b.pty.unplug();
      const deadline = Date.now() + 5000;
      while (lost === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      assert.match(lost ?? '', new RegExp(`^serial device ${b.pty.ctlPath} went away`));
      assert.equal(rigFault(await waiting, 'auto-track step').code, 'rig_unavailable');
      assert.equal(rigFault(await b.line.rig.writeLeg('rx', 145_820_000).catch((e) => e), 'x').code, 'rig_unavailable');
      const r = await b.line.rig.read();
      assert.ok(r.error);
    });
  });

  it('close() is no loss: onLost stays quiet', async () => {
    const b = await station('FT-817');
    let lost = 0;
    b.line.onLost(() => lost++);
    await b.done();
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(lost, 0);
  });

  it('a device that cannot be opened throws, for the connection to retry', async () => {
    await assert.rejects(openYaesuLine({ serial: nodeSerialDriver, clock: systemClock }, linkTo('FT-817', '/dev/shm/satstation-no-such-device')), /cannot open \/dev\/shm\/satstation-no-such-device/);
  });
});
