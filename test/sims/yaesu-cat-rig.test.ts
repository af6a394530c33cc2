import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SerialPort } from 'serialport';
import { openPtyPair, type PtyPair } from './pty-pair.js';
import { YaesuCatSim, type YaesuSimModel } from './yaesu-cat-rig.js';
import { OP, cat, replyLength, writeSetFreq } from '../../src/radio/yaesu/commands.js';
import { modelInfo } from '../../src/radio/yaesu/models.js';
import { decodeAck, decodeEeprom, decodeFreqMode, decodeRxStatus, decodeTxStatus, splitFromEeprom, vfoFromEeprom } from '../../src/radio/yaesu/replies.js';

// The Yaesu simulator over a real pty, driven with the product's codec: the codec's bytes go in
// at the controller end, the answers come back through the codec's decoders. (The codec's own
// vectors, from Hamlib, are in test/radio/yaesu/codec.test.ts; hamlib-crosscheck.test.ts drives
// the simulator with Hamlib itself, so neither side is checked only against the other.)

/** The controller end: one command out, exactly the reply the opcode calls for back. */
class CatLine {
  private got: number[] = [];
  private wake: (() => void) | null = null;
  private constructor(private readonly port: SerialPort) {
    port.on('data', (d: Buffer) => {
      this.got.push(...d);
      this.wake?.();
    });
    port.on('error', () => {});
  }

  static open(path: string, baudRate: number): Promise<CatLine> {
    const p = new SerialPort({ path, baudRate, stopBits: 2, autoOpen: false });
    return new Promise((resolve, reject) => p.open((err) => (err ? reject(err) : resolve(new CatLine(p)))));
  }

  /** Writes the command and resolves with its reply (replyLength bytes), or rejects after ms. */
  async ask(cmd: Uint8Array, ms = 1000): Promise<Uint8Array> {
    const n = replyLength(cmd[4]);
    this.port.write(Buffer.from(cmd));
    const end = Date.now() + ms;
    while (this.got.length < n) {
      const left = end - Date.now();
      if (left <= 0) throw new Error(`no ${n}-byte reply to ${Buffer.from(cmd).toString('hex')} (have ${this.got.length})`);
      await new Promise<void>((r) => {
        const t = setTimeout(r, left);
        this.wake = () => (clearTimeout(t), r());
      });
      this.wake = null;
    }
    return Uint8Array.from(this.got.splice(0, n));
  }

  /** Writes raw bytes and expects nothing back within ms. */
  async quiet(cmd: Uint8Array, ms = 100): Promise<void> {
    this.port.write(Buffer.from(cmd));
    await new Promise((r) => setTimeout(r, ms));
    assert.equal(this.got.length, 0, `unexpected reply ${Buffer.from(this.got).toString('hex')}`);
  }

  close(): Promise<void> {
    return this.port.isOpen ? new Promise((r) => this.port.close(() => r())) : Promise.resolve();
  }
}

const ack = async (line: CatLine, cmd: Uint8Array) => decodeAck(await line.ask(cmd));
const freqMode = async (line: CatLine) => decodeFreqMode(await line.ask(cat.readFreqMode()));
const txStatus = async (line: CatLine) => decodeTxStatus(await line.ask(cat.readTxStatus()));
/** The 5 bytes as hex, for raw commands the codec would refuse to build. */
const raw = (s: string) => Uint8Array.from(s.split(' ').map((h) => parseInt(h, 16)));

for (const model of ['FT-817', 'FT-818', 'FT-857', 'FT-897'] as YaesuSimModel[]) {
  const fam857 = model === 'FT-857' || model === 'FT-897';
  describe(`YaesuCatSim as an ${model} on a pty, through the codec`, () => {
    let pty: PtyPair;
    let sim: YaesuCatSim;
    let line: CatLine;
    before(async () => {
      pty = await openPtyPair();
      sim = new YaesuCatSim({ model });
      await sim.open(pty.rigPath, 9600);
      line = await CatLine.open(pty.ctlPath, 9600);
    });
    after(async () => {
      await line?.close();
      await sim?.close();
      await pty?.close();
    });
    beforeEach(() => {
      Object.assign(sim.state, { current: 'A', split: false, catPtt: false, handPtt: false, locked: false });
      Object.assign(sim.faults, { silent: false, delayMs: 0, garble: false });
      sim.state.vfoA = { freq: 145_800_000, mode: 'FM', toneMode: 'off', toneHz: 88.5, rxToneHz: 88.5 };
      sim.state.vfoB = { freq: 435_800_000, mode: 'FM', toneMode: 'off', toneHz: 88.5, rxToneHz: 88.5 };
      sim.clearLog();
    });

    it('sets and reads both VFOs through the toggle; ends where it started', async () => {
      assert.equal(sim.baudRate, 9600);
      assert.equal(await ack(line, cat.setFreq(145_990_000)), 'ok');
      assert.equal(await ack(line, cat.setMode('USB')), 'ok');
      assert.deepEqual(await freqMode(line), { hz: 145_990_000, mode: 'USB', narrow: false });
      assert.equal(await ack(line, cat.toggleVfo()), 'ok');
      assert.equal(sim.state.current, 'B');
      assert.equal(await ack(line, cat.setFreq(435_795_120)), 'ok');
      assert.equal(await ack(line, cat.setMode('FM-N')), 'ok');
      assert.deepEqual(await freqMode(line), { hz: 435_795_120, mode: 'FM-N', narrow: true });
      assert.equal(await ack(line, cat.toggleVfo()), 'ok');
      assert.deepEqual(await freqMode(line), { hz: 145_990_000, mode: 'USB', narrow: false });
      assert.equal(sim.state.vfoB.freq, 435_795_120);
      assert.deepEqual(sim.log.map((e) => e.opcode), [OP.SET_FREQ, OP.SET_MODE, OP.READ_FREQ_MODE, OP.TOGGLE_VFO, OP.SET_FREQ, OP.SET_MODE, OP.READ_FREQ_MODE, OP.TOGGLE_VFO, OP.READ_FREQ_MODE]);
      assert.equal(sim.log[0].bytes, '14 59 90 00 01');
      assert.equal(sim.log[0].reply, '00');
    });

    it('data modes: DIG and PKT; WFM shows but cannot be set; a bad code is refused', async () => {
      assert.equal(await ack(line, cat.setMode('USB-D')), 'ok');
      assert.equal(sim.state.vfoA.mode, 'DIG');
      assert.equal(await ack(line, cat.setMode('FM-D')), 'ok');
      assert.deepEqual(await freqMode(line), { hz: 145_800_000, mode: 'PKT', narrow: false });
      sim.state.vfoA.mode = 'WFM';
      assert.deepEqual(await freqMode(line), { hz: 145_800_000, mode: 'WFM', narrow: false });
      assert.equal(await ack(line, raw('06 00 00 00 07')), 'rejected');
      assert.equal(sim.state.vfoA.mode, 'WFM');
    });

    it('split on and off; a repeat is answered F0; F7 and the EEPROM tell split', async () => {
      assert.equal(await ack(line, cat.split(true)), 'ok');
      assert.equal(await ack(line, cat.split(true)), 'rejected');
      assert.equal(sim.state.split, true);
      const addr = modelInfo(model).eeprom.split;
      assert.equal(splitFromEeprom(decodeEeprom(await line.ask(cat.readEeprom(addr))) as number), true);
      assert.deepEqual(await txStatus(line), { keyed: false, highSwr: null, split: null, powerMeter: null }, 'F7 says nothing at rest');
      assert.equal(await ack(line, cat.split(false)), 'ok');
      assert.equal(await ack(line, cat.split(false)), 'rejected');
      assert.equal(splitFromEeprom(decodeEeprom(await line.ask(cat.readEeprom(addr))) as number), false);
    });

    it('the EEPROM VFO byte follows the toggle', async () => {
      const addr = modelInfo(model).eeprom.vfo;
      assert.equal(vfoFromEeprom(decodeEeprom(await line.ask(cat.readEeprom(addr))) as number), 'A');
      await ack(line, cat.toggleVfo());
      assert.equal(vfoFromEeprom(decodeEeprom(await line.ask(cat.readEeprom(addr))) as number), 'B');
    });

    it('PTT by CAT: F7 keyed; every control but PTT off is refused and ignored while keyed', async () => {
      await ack(line, cat.split(true));
      assert.equal(await ack(line, cat.ptt(true)), 'ok');
      assert.equal(await ack(line, cat.ptt(true)), 'rejected', 'already keyed');
      assert.deepEqual(await txStatus(line), { keyed: true, highSwr: false, split: true, powerMeter: 8 });
      // Keyed in split, 03 shows the transmit VFO.
      assert.deepEqual(await freqMode(line), { hz: 435_800_000, mode: 'FM', narrow: false });
      for (const cmd of [cat.setFreq(145_900_000), cat.setMode('USB'), cat.toggleVfo(), cat.split(false), cat.ctcssTone(67), cat.toneMode(model, 'ctcss-enc'), cat.lock(true)]) {
        assert.equal(await ack(line, cmd), 'rejected', Buffer.from(cmd).toString('hex'));
      }
      assert.deepEqual(
        [sim.state.vfoA.freq, sim.state.vfoA.mode, sim.state.current, sim.state.split, sim.state.vfoA.toneHz, sim.state.vfoA.toneMode, sim.state.locked],
        [145_800_000, 'FM', 'A', true, 88.5, 'off', false],
      );
      assert.ok(sim.log.slice(-7).every((e) => e.reply === 'F0' && !e.done));
      assert.equal(await ack(line, cat.ptt(false)), 'ok');
      assert.equal(await ack(line, cat.ptt(false)), 'rejected', 'already unkeyed');
      assert.equal((await txStatus(line) as { keyed: boolean }).keyed, false);
      assert.equal(await ack(line, cat.setFreq(145_900_000)), 'ok');
    });

    it('PTT by the operator’s hand: F7 keyed, CAT cannot unkey it, writes refused until released', async () => {
      sim.keyByHand(true);
      assert.equal(sim.keyed, true);
      assert.equal((await txStatus(line) as { keyed: boolean }).keyed, true);
      assert.equal(await ack(line, cat.setFreq(145_900_000)), 'rejected');
      assert.equal(await ack(line, cat.ptt(false)), 'rejected', 'CAT did not key it');
      assert.equal(sim.keyed, true);
      sim.keyByHand(false);
      assert.equal(await ack(line, cat.setFreq(145_900_000)), 'ok');
      assert.equal(sim.state.vfoA.freq, 145_900_000);
    });

    it('CTCSS tone and mode belong to the current VFO; the tone travels in both pairs', async () => {
      assert.equal(await ack(line, cat.toggleVfo()), 'ok');
      assert.equal(await ack(line, cat.ctcssTone(67)), 'ok');
      assert.equal(await ack(line, cat.toneMode(model, 'ctcss-enc')), 'ok');
      assert.deepEqual([sim.state.vfoB.toneHz, sim.state.vfoB.toneMode], [67, 'ctcss-enc']);
      assert.deepEqual([sim.state.vfoA.toneHz, sim.state.vfoA.toneMode], [88.5, 'off']);
      // Only the transmit pair filled in, as SatPC32 once sent it.
      const onePair = raw('07 44 00 00 0B');
      if (fam857) {
        assert.equal(await ack(line, onePair), 'rejected', `the ${model} needs the tone in P3 P4 too`);
        assert.equal(sim.state.vfoB.toneHz, 67);
        assert.equal(sim.state.vfoB.rxToneHz, 67);
        assert.equal(await ack(line, cat.toneMode(model, 'ctcss-dec')), 'ok');
      } else {
        assert.equal(await ack(line, onePair), 'ok', `the ${model} ignores P3 P4`);
        assert.equal(sim.state.vfoB.toneHz, 74.4);
        assert.equal(await ack(line, raw('3A 00 00 00 0A')), 'rejected', 'no decoder-only CTCSS on the FT-817/818');
      }
      assert.equal(await ack(line, raw('08 84 08 84 0B')), 'rejected', '88.4 Hz is no tone');
    });

    it('E7 reports the receiver; lock; unknown opcodes get no answer; garble and silence', async () => {
      Object.assign(sim.state.rx, { squelchOpen: true, sMeter: 9 });
      assert.deepEqual(decodeRxStatus(await line.ask(cat.readRxStatus())), { squelchOpen: true, toneMatched: true, centered: true, sMeter: 9 });
      assert.equal(await ack(line, cat.lock(true)), 'ok');
      assert.equal(await ack(line, cat.lock(true)), 'rejected');
      assert.equal(await ack(line, cat.lock(false)), 'ok');
      await line.quiet(raw('00 00 00 00 0F'));
      assert.equal(sim.log.at(-1)?.reply, '');
      sim.faults.garble = true;
      assert.equal((decodeFreqMode(await line.ask(cat.readFreqMode())) as { garbled: string }).garbled, 'frequency is not BCD');
      sim.faults.garble = false;
      sim.faults.silent = true;
      await line.quiet(cat.setFreq(146_000_000));
      assert.equal(sim.state.vfoA.freq, 145_800_000);
      sim.faults.silent = false;
      sim.faults.delayMs = 150;
      const t0 = Date.now();
      assert.equal(await ack(line, cat.lock(true)), 'ok');
      assert.ok(Date.now() - t0 >= 140, `answered after ${Date.now() - t0} ms`);
      sim.faults.delayMs = 0;
      await assert.rejects(sim.open(pty.rigPath), /already open/);
      const buf = new Uint8Array(5);
      writeSetFreq(buf, 0, 146_000_000);
      assert.equal(await ack(line, buf), 'ok');
    });

    it('bytes split anywhere still make 5-byte commands; out-of-band frequencies are refused', async () => {
      const r = sim.feed([0x14, 0x61]);
      assert.deepEqual(r, []);
      assert.deepEqual(sim.feed([0x00, 0x00, 0x01]), [0x00]);
      assert.equal(sim.state.vfoA.freq, 146_100_000);
      assert.deepEqual(sim.feed(cat.setFreq(300_000_000)), [0xf0]);
      assert.equal(sim.state.vfoA.freq, 146_100_000);
      // Two stray bytes shift the count; single F7 bytes complete it as an F7 read and realign.
      sim.feed([0x12, 0x34]);
      let sent = 0;
      let answer: number[] = [];
      while (answer.length === 0 && sent < 5) (answer = sim.feed([OP.READ_TX_STATUS])), sent++;
      assert.deepEqual([sent, answer], [3, [0xff]]);
      assert.deepEqual(sim.feed(cat.readTxStatus()), [0xff], 'aligned again');
    });
  });
}

describe('YaesuCatSim on a pulled cable', () => {
  it('closes its end when the pty goes away', async () => {
    const pty = await openPtyPair();
    const sim = new YaesuCatSim({ model: 'FT-818' });
    try {
      await sim.open(pty.rigPath);
      assert.equal(sim.isOpen, true);
      await pty.unplug();
      const end = Date.now() + 2000;
      while (sim.isOpen && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      assert.equal(sim.isOpen, false);
    } finally {
      await sim.close();
      await pty.close();
    }
  });
});

describe('YaesuCatSim pacing (sim.pace)', () => {
  it("holds each answer for the line's time at its baud: 11 bits a byte, the command's and the answer's", async () => {
    const pty = await openPtyPair();
    const sim = new YaesuCatSim({ model: 'FT-857' });
    let line: CatLine | null = null;
    try {
      await sim.open(pty.rigPath, 4800);
      sim.pace = true;
      line = await CatLine.open(pty.ctlPath, 4800);
      for (const [cmd, bytes] of [[cat.readTxStatus(), 5 + 1], [cat.readFreqMode(), 5 + 5]] as const) {
        const t0 = performance.now();
        await line.ask(cmd);
        const ms = performance.now() - t0;
        assert.ok(ms >= (bytes * 11 * 1000) / 4800 - 1, `${ms.toFixed(1)} ms for ${bytes} bytes at 4800 baud`);
      }
    } finally {
      await line?.close();
      await sim.close();
      await pty.close();
    }
  });
});
