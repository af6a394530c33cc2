import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { nodeSerialDriver } from '../../../src/links/serial-driver.js';
import { systemClock } from '../../../src/util/clock.js';
import type { RigDriver } from '../../../src/radio/rig.js';
import { defaultRadioSettings, mainLink } from '../../../src/radio/settings.js';
import { OP } from '../../../src/radio/yaesu/commands.js';
import { modelInfo } from '../../../src/radio/yaesu/models.js';
import { openYaesuLine } from '../../../src/radio/yaesu/yaesu-line.js';
import { openPtyPair, type PtyPair } from '../../sims/pty-pair.js';
import { YaesuCatSim, type YaesuLogEntry, type YaesuSimModel, type YaesuSimState } from '../../sims/yaesu-cat-rig.js';
import { hamlibSkip as skip, rigctl } from './rigctl.js';

// The native driver against Hamlib's own rigctl (models 1020, 1041, 1022), each from the same
// simulated radio: the same request, the same radio afterwards, and the driver's control bytes
// those Hamlib sends. Reads (03, BB, E7, F7) are left out of the comparison: each program reads
// what it needs to know, Hamlib after every write, the driver before (F7, the EEPROM's VFO byte).
// (hamlib-crosscheck.test.ts compares the codec's bytes, command by command.)

const BAUD = 9600;
const READS = new Set<number>([OP.READ_FREQ_MODE, OP.READ_EEPROM, OP.READ_RX_STATUS, OP.READ_TX_STATUS]);
const RIG_MODEL = { 'FT-817': 'ft817', 'FT-818': 'ft818', 'FT-857': 'ft857', 'FT-897': 'ft897' } as const;
const controls = (log: YaesuLogEntry[]) => log.filter((e) => !READS.has(e.opcode)).map((e) => e.bytes);
/** rigctl opens the rig afresh each run: its open sweep reads both VFOs through two 81s and ends with F7 (then its commands). */
const afterOpen = (log: YaesuLogEntry[]) => log.slice(log.findIndex((e) => e.opcode === OP.READ_TX_STATUS) + 1);
const isSplit = (bytes: string) => bytes.endsWith(' 02') || bytes.endsWith(' 82');

/** What a comparison looks at: both VFOs' frequency, mode and tone, split, and where the radio stands. */
const radio = (s: YaesuSimState) => ({ a: s.vfoA, b: s.vfoB, split: s.split, current: s.current });

describe("the native Yaesu driver's bytes against Hamlib's rigctl", { skip }, () => {
  let pty: PtyPair;
  before(async () => {
    pty = await openPtyPair();
  });
  after(async () => {
    await pty?.close();
  });

  /** A simulator from `start`, on the rig end while fn talks to it. */
  async function withSim(model: YaesuSimModel, start: (s: YaesuSimState) => void, fn: (sim: YaesuCatSim) => Promise<unknown>): Promise<YaesuCatSim> {
    const sim = new YaesuCatSim({ model });
    start(sim.state);
    await sim.open(pty.rigPath, BAUD);
    try {
      await fn(sim);
      await new Promise((r) => setTimeout(r, 30)); // the last bytes off the pty
    } finally {
      await sim.close();
    }
    return sim;
  }

  /** Hamlib's run and the driver's from the same radio: the radios afterwards, and each one's control commands. */
  async function both(model: YaesuSimModel, start: (s: YaesuSimState) => void, hamlib: string[], driver: (rig: RigDriver) => Promise<void>) {
    const h = await withSim(model, start, () => rigctl(modelInfo(model).hamlibModel, pty.ctlPath, BAUD, ...hamlib));
    const d = await withSim(model, start, async (sim) => {
      const link = { ...mainLink({ ...defaultRadioSettings(), rig_model: RIG_MODEL[model], serial_device: pty.ctlPath, baud_rate: BAUD }), rig_model: RIG_MODEL[model] };
      const line = await openYaesuLine({ serial: nodeSerialDriver, clock: systemClock }, link);
      try {
        await line.rig.init();
        sim.clearLog();
        await driver(line.rig);
      } finally {
        await line.close();
      }
    });
    assert.ok(h.log.some((e) => e.opcode === OP.READ_TX_STATUS), "Hamlib's open sweep ends with F7");
    return { hamlib: { radio: radio(h.state), controls: controls(afterOpen(h.log)) }, driver: { radio: radio(d.state), controls: controls(d.log) } };
  }

  /** Is `sub` the sequence `seq` with some entries left out? */
  const within = (sub: string[], seq: string[]) => {
    let i = 0;
    for (const x of seq) if (x === sub[i]) i++;
    return i === sub.length;
  };

  for (const model of ['FT-817', 'FT-818', 'FT-857'] as const) {
    const n = modelInfo(model).hamlibModel;

    it(`${model}: the transmit VFO's update is Hamlib's set_split_freq (S 1 VFOB I, model ${n}) byte for byte: 81, 01, 81`, async () => {
      const start = (s: YaesuSimState) => {
        s.vfoA = { ...s.vfoA, freq: 435_800_000, mode: 'FM' };
        s.vfoB = { ...s.vfoB, freq: 145_850_000, mode: 'FM' };
        s.split = true;
      };
      const r = await both(model, start, ['S', '1', 'VFOB', 'I', '145852000'], (rig) => rig.writeLeg('tx', 145_852_000));
      assert.equal(r.driver.radio.b.freq, 145_852_000);
      assert.deepEqual(r.driver.radio, r.hamlib.radio);
      // Hamlib also (re)sends split on for S 1 VFOB: the rest is the toggle around the write.
      assert.deepEqual(r.driver.controls, ['00 00 00 00 81', '14 58 52 00 01', '00 00 00 00 81']);
      assert.deepEqual(r.driver.controls, r.hamlib.controls.filter((b) => !isSplit(b)));
    });

    it(`${model}: a whole pair leaves the radio as Hamlib's F M I X with split (model ${n}) does, with Hamlib's own bytes in Hamlib's order`, async () => {
      const start = (s: YaesuSimState) => {
        s.vfoA = { ...s.vfoA, freq: 145_800_000, mode: 'FM' };
        s.vfoB = { ...s.vfoB, freq: 435_800_000, mode: 'FM' };
      };
      const r = await both(model, start, ['S', '1', 'VFOB', 'F', '435795120', 'M', 'USB', '0', 'I', '145965000', 'X', 'LSB', '0'], (rig) =>
        rig.writePair({ rx_hz: 435_795_120, rx_mode: 'USB', tx_hz: 145_965_000, tx_mode: 'LSB' }),
      );
      assert.deepEqual([r.driver.radio.a.freq, r.driver.radio.a.mode, r.driver.radio.b.freq, r.driver.radio.b.mode, r.driver.radio.split], [435_795_120, 'USB', 145_965_000, 'LSB', true]);
      assert.deepEqual(r.driver.radio, r.hamlib.radio);
      assert.ok(within(r.driver.controls, r.hamlib.controls), `ours ${r.driver.controls.join(' | ')} within Hamlib's ${r.hamlib.controls.join(' | ')}`);
    });

    it(`${model}: the uplink tone is Hamlib's C on VFO B (V VFOB C V VFOA, model ${n}) byte for byte: 81, 0B both pairs, 0A encoder, 81`, async () => {
      const r = await both(model, () => {}, ['V', 'VFOB', 'C', '885', 'V', 'VFOA'], (rig) => rig.setTone(88.5));
      assert.deepEqual([r.driver.radio.b.toneHz, r.driver.radio.b.toneMode, r.driver.radio.current], [88.5, 'ctcss-enc', 'A']);
      assert.deepEqual(r.driver.radio, r.hamlib.radio);
      assert.deepEqual(r.driver.controls, r.hamlib.controls);
    });
  }
});
