import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openPtyPair, type PtyPair } from '../../sims/pty-pair.js';
import { YaesuCatSim, type YaesuLogEntry, type YaesuSimModel } from '../../sims/yaesu-cat-rig.js';
import { OP, cat, writeFixed, type FixedOp } from '../../../src/radio/yaesu/commands.js';
import { modelInfo } from '../../../src/radio/yaesu/models.js';
import { hamlibSkip as skip, rigctl } from './rigctl.js';

// Hamlib's own rigctl against the Yaesu simulator over a pty, for each model: (1) Hamlib's F, M,
// T, S and C move the simulator and its f, m, t, s read it back, which proves the simulator
// speaks the 5-byte CAT as Hamlib expects; (2) every command Hamlib wrote is compared with our
// codec's bytes for the same command, which proves our bytes are Hamlib's. rigctl opens the rig
// afresh each run (reading EEPROM, both VFOs through two 81 toggles, and F7): those are checked too.

const BAUD = 9600;
const hex = (b: ArrayLike<number>) => Array.from(b, (x) => x.toString(16).toUpperCase().padStart(2, '0')).join(' ');
const FIXED: FixedOp[] = [OP.READ_FREQ_MODE, OP.READ_TX_STATUS, OP.READ_RX_STATUS, OP.TOGGLE_VFO, OP.PTT_ON, OP.PTT_OFF, OP.SPLIT_ON, OP.SPLIT_OFF, OP.LOCK_ON, OP.LOCK_OFF];

const fixedBytes = (op: FixedOp) => {
  const b = new Uint8Array(5);
  writeFixed(b, 0, op);
  return b;
};

/**
 * Every command Hamlib wrote is ours: the fixed ones byte for byte, and each set command in
 * `sets`, in order. BB (EEPROM) is left out: Hamlib 4.5 asks for the even address below the one it
 * wants and takes the second byte; our codec asks for the address itself, as the radio answers
 * it first (Hamlib's current ft817.c does the same).
 */
function assertOurs(log: YaesuLogEntry[], sets: Uint8Array[]): void {
  const fixed = new Map(FIXED.map((op) => [op, hex(fixedBytes(op))]));
  const others: string[] = [];
  for (const e of log) {
    if (e.opcode === OP.READ_EEPROM) continue;
    const f = fixed.get(e.opcode as FixedOp);
    if (f !== undefined) assert.equal(e.bytes, f, `Hamlib's ${e.bytes} is our fixed command`);
    else others.push(e.bytes);
  }
  assert.deepEqual(others, sets.map(hex), 'Hamlib’s set commands are ours');
}

const MODELS: YaesuSimModel[] = ['FT-817', 'FT-818', 'FT-857', 'FT-897'];

describe('Hamlib rigctl against the Yaesu simulator', { skip }, () => {
  let pty: PtyPair;
  before(async () => {
    pty = await openPtyPair();
  });
  after(async () => {
    await pty?.close();
  });

  for (const model of MODELS) {
    const n = modelInfo(model).hamlibModel;
    it(`${model} (Hamlib model ${n}): F M T S C move the simulator, f m t s read it, and every byte is ours`, async () => {
      const sim = new YaesuCatSim({ model });
      await sim.open(pty.rigPath, BAUD);
      const run = async (...cmd: string[]) => {
        sim.clearLog();
        const out = await rigctl(n, pty.ctlPath, BAUD, ...cmd);
        // rigctl may exit before the simulator has read its last bytes off the pty.
        await new Promise((r) => setTimeout(r, 30));
        return out;
      };
      try {
        await run('F', '145990000', 'M', 'PKTFM', '0');
        assert.deepEqual([sim.state.vfoA.freq, sim.state.vfoA.mode, sim.state.current], [145_990_000, 'PKT', 'A']);
        assertOurs(sim.log, [cat.setFreq(145_990_000), cat.setMode('FM-D')]);

        // Hamlib 4.5's FT-817 backend answers m from the 03 it read last while opening, which is
        // VFO B's; with the same mode on both VFOs, m still proves the mode byte is read right.
        sim.state.vfoA = { ...sim.state.vfoA, freq: 145_950_000, mode: 'LSB' };
        sim.state.vfoB = { ...sim.state.vfoB, freq: 435_795_120, mode: 'LSB' };
        const [f, m] = await run('f', 'm');
        assert.deepEqual([f, m], ['145950000', 'LSB']);
        assertOurs(sim.log, []);

        await run('T', '1');
        assert.equal(sim.state.catPtt, true);
        assertOurs(sim.log, []);
        assert.ok(sim.log.some((e) => e.opcode === OP.PTT_ON && e.reply === '00'));
        assert.deepEqual(await run('t'), ['1']);
        await run('T', '0');
        assert.equal(sim.state.catPtt, false);
        assert.ok(sim.log.some((e) => e.opcode === OP.PTT_OFF && e.reply === '00'));
        assertOurs(sim.log, []);
        assert.deepEqual(await run('t'), ['0']);

        await run('S', '1', 'VFOB');
        assert.equal(sim.state.split, true);
        assert.ok(sim.log.some((e) => e.opcode === OP.SPLIT_ON));
        assertOurs(sim.log, []);
        assert.equal((await run('s'))[0], '1');

        await run('S', '0', 'VFOA', 'C', '670', 'M', 'USB', '0');
        assert.deepEqual([sim.state.split, sim.state.vfoA.toneHz, sim.state.vfoA.toneMode, sim.state.vfoA.mode], [false, 67, 'ctcss-enc', 'USB']);
        assertOurs(sim.log, [cat.ctcssTone(67), cat.toneMode(model, 'ctcss-enc'), cat.setMode('USB')]);
        assert.equal((await run('s'))[0], '0');
        assert.equal(sim.state.current, 'A', 'Hamlib’s open sweep ends on the VFO it found');
      } finally {
        await sim.close();
      }
    });
  }
});
