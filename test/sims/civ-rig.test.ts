import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { SerialPort } from 'serialport';
import { openPtyPair, type PtyPair } from './pty-pair.js';
import { CivRigSim } from './civ-rig.js';

// The simulator's own tests: raw CI-V bytes written to the controller end of a real pty pair,
// raw bytes read back. Nothing from src/ is used, so these pin the simulator to the reference
// independently of the product's codec.

const bytes = (hex: string) => hex.trim().split(/\s+/).map((h) => parseInt(h, 16));
const hex = (b: ArrayLike<number>) => Array.from(b, (x) => x.toString(16).toUpperCase().padStart(2, '0')).join(' ');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The controller end, opened with serialport directly. */
class Line {
  private buf: number[] = [];
  private waiter: (() => void) | null = null;
  closed = false;
  private constructor(readonly port: SerialPort) {
    port.on('data', (d: Buffer) => {
      this.buf.push(...d);
      this.waiter?.();
    });
    port.on('error', () => {});
    port.on('close', () => {
      this.closed = true;
      this.waiter?.();
    });
  }

  static open(path: string): Promise<Line> {
    return new Promise((resolve, reject) => {
      const p = new SerialPort({ path, baudRate: 115200, autoOpen: false });
      p.open((err) => (err ? reject(err) : resolve(new Line(p))));
    });
  }

  send(h: string | number[]): void {
    this.port.write(Buffer.from(typeof h === 'string' ? bytes(h) : h));
  }

  private async until(cond: () => boolean, what: string, ms: number): Promise<void> {
    const end = Date.now() + ms;
    while (!cond()) {
      const left = end - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; have [${hex(this.buf)}]`);
      await new Promise<void>((r) => {
        const t = setTimeout(r, left);
        this.waiter = () => {
          clearTimeout(t);
          r();
        };
      });
      this.waiter = null;
    }
  }

  /** The next n bytes, exactly. */
  async take(n: number, ms = 1000): Promise<string> {
    await this.until(() => this.buf.length >= n, `${n} bytes`, ms);
    return hex(this.buf.splice(0, n));
  }

  /** The next complete frame FE FE .. FD. */
  async frame(ms = 1000): Promise<string> {
    await this.until(() => this.buf.indexOf(0xfd) >= 0, 'a frame', ms);
    return hex(this.buf.splice(0, this.buf.indexOf(0xfd) + 1));
  }

  /** Nothing arrives for ms. */
  async silence(ms = 80): Promise<void> {
    await sleep(ms);
    assert.equal(hex(this.buf), '', 'expected silence on the line');
  }

  /**
   * The port closes once the cable is pulled. serialport on Linux can miss a pty hangup when a
   * read was under way (it then reads 0 bytes forever); the next write fails and closes it, as
   * any controller's next command would.
   */
  async waitClosed(ms = 2000): Promise<void> {
    await this.until(() => this.closed, 'the port to close', 300).catch(() => this.send([0xfe]));
    await this.until(() => this.closed, 'the port to close', ms);
  }

  close(): Promise<void> {
    if (!this.port.isOpen) return Promise.resolve();
    return new Promise((r) => this.port.close(() => r()));
  }
}

describe('CivRigSim as an IC-705 (0xA4) on a pty', () => {
  let pty: PtyPair;
  let sim: CivRigSim;
  let ctl: Line;
  /** Sends FE FE A4 E0 <body> FD and returns the answer frame. */
  const ask = async (body: string, to = 'A4', from = 'E0') => {
    ctl.send(`FE FE ${to} ${from} ${body} FD`);
    return ctl.frame();
  };
  const OK = 'FE FE E0 A4 FB FD';
  const NG = 'FE FE E0 A4 FA FD';

  before(async () => {
    pty = await openPtyPair();
    assert.match(pty.ctlPath, /^\/dev\/shm\//);
    sim = new CivRigSim({ kind: 'IC-705', transceive: true });
    assert.equal(sim.address, 0xa4);
    await sim.open(pty.rigPath);
    ctl = await Line.open(pty.ctlPath);
  });
  after(async () => {
    await ctl?.close();
    await sim?.close();
    await pty?.close();
  });
  beforeEach(() => {
    sim.faults.noReplyTo.clear();
    sim.faults.ngTo.clear();
    Object.assign(sim.faults, { noReplyAtAll: false, delayMs: 0, garble: false, dropApply: false });
    sim.state.echo = false;
    sim.state.transceive = true;
    sim.state.split = false;
    sim.state.selected = 'A';
    sim.state.vfoA.freq = 145_000_000;
    sim.state.vfoB.freq = 435_000_000;
    sim.clearLog();
  });

  it('selects VFO A/B (07 00/01); 03 reads the selected one; the log keeps the frames in order', async () => {
    assert.equal(await ask('07 01'), OK);
    assert.equal(sim.state.selected, 'B');
    assert.equal(await ask('03'), 'FE FE E0 A4 03 00 00 00 35 04 FD'); // 435.000.000 LE BCD
    assert.equal(await ask('07 00'), OK);
    assert.equal(sim.state.selected, 'A');
    assert.equal(await ask('03'), 'FE FE E0 A4 03 00 00 00 45 01 FD');
    assert.equal(await ask('07 02'), NG);
    assert.equal(await ask('07 D0'), NG, 'the IC-705 has no MAIN/SUB bands');
    assert.deepEqual(
      sim.log.map((e) => e.bytes),
      ['FE FE A4 E0 07 01 FD', 'FE FE A4 E0 03 FD', 'FE FE A4 E0 07 00 FD', 'FE FE A4 E0 03 FD', 'FE FE A4 E0 07 02 FD', 'FE FE A4 E0 07 D0 FD'],
    );
    assert.equal(sim.log[0].cmd, 0x07);
    assert.deepEqual(sim.log[0].data, [0x01]);
  });

  it('split: 0F 01 on, 0F reads it, 0F 00 off; anything else NG', async () => {
    assert.equal(await ask('0F 01'), OK);
    assert.equal(sim.state.split, true);
    assert.equal(await ask('0F'), 'FE FE E0 A4 0F 01 FD');
    assert.equal(await ask('0F 00'), OK);
    assert.equal(sim.state.split, false);
    assert.equal(await ask('0F 02'), NG);
    assert.equal(await ask('0F 01 01'), NG);
    assert.equal(await ask('16 5A 01'), NG, 'no satellite mode on the IC-705');
  });

  it('0x25: 00 is the selected VFO, 01 the unselected one, whichever that is', async () => {
    assert.equal(await ask('25 00'), 'FE FE E0 A4 25 00 00 00 00 45 01 FD');
    assert.equal(await ask('25 01'), 'FE FE E0 A4 25 01 00 00 00 35 04 FD');
    assert.equal(await ask('25 00 00 00 80 45 01'), OK); // 145.800.000
    assert.equal(sim.state.vfoA.freq, 145_800_000);
    assert.equal(await ask('25 01 00 50 79 35 04'), OK); // 435.795.000
    assert.equal(sim.state.vfoB.freq, 435_795_000);
    // with B selected the slots swap: 00 is B
    assert.equal(await ask('07 01'), OK);
    assert.equal(await ask('25 00 00 00 90 45 01'), OK);
    assert.equal(sim.state.vfoB.freq, 145_900_000);
    assert.equal(sim.state.vfoA.freq, 145_800_000);
    assert.equal(await ask('25 01'), 'FE FE E0 A4 25 01 00 00 80 45 01 FD', '01 now reads A');
    assert.equal(await ask('25 01 00 00 00 31 04'), OK);
    assert.equal(sim.state.vfoA.freq, 431_000_000);
    // strict values
    assert.equal(await ask('25 00 00 00 00 50 02'), NG, '250 MHz is outside the IC-705 ranges');
    assert.equal(await ask('25 00 00 00 0A 45 01'), NG, 'a nibble that is not a digit');
    assert.equal(await ask('25 00 00 00 80 45'), NG, 'four frequency bytes');
    assert.equal(await ask('25 02'), NG, 'no slot 02');
    assert.equal(await ask('05 00 00 80 45 01'), OK, '05 sets the selected VFO (B)');
    assert.equal(sim.state.vfoB.freq, 145_800_000);
    assert.equal(await ask('05 00 00 00 03 00'), OK, '30 kHz is the bottom of the range');
    assert.equal(await ask('05 00 00 00 00 47'), NG, '470.000.000 Hz is missing a byte');
    assert.equal(await ask('05 01 00 00 70 04'), NG, '470.000.001 Hz is above the top');
  });

  it('0x26: mode, data, filter for both slots; 04 and 06 act on the selected VFO', async () => {
    assert.equal(await ask('26 00 01 01 02'), OK); // A: USB-D FIL2
    assert.deepEqual([sim.state.vfoA.mode, sim.state.vfoA.data, sim.state.vfoA.filter], ['USB', true, 2]);
    assert.equal(await ask('26 01 00 00 01'), OK); // B: LSB FIL1
    assert.deepEqual([sim.state.vfoB.mode, sim.state.vfoB.data, sim.state.vfoB.filter], ['LSB', false, 1]);
    assert.equal(await ask('26 00'), 'FE FE E0 A4 26 00 01 01 02 FD');
    assert.equal(await ask('26 01'), 'FE FE E0 A4 26 01 00 00 01 FD');
    assert.equal(await ask('26 01 05'), OK, 'data and filter may be skipped');
    assert.deepEqual([sim.state.vfoB.mode, sim.state.vfoB.data, sim.state.vfoB.filter], ['FM', false, 1]);
    assert.equal(await ask('04'), 'FE FE E0 A4 04 01 02 FD');
    assert.equal(await ask('06 03 03'), OK);
    assert.deepEqual([sim.state.vfoA.mode, sim.state.vfoA.filter], ['CW', 3]);
    assert.equal(await ask('06 17'), OK, 'DV');
    assert.equal(await ask('06 06'), OK, 'WFM on the IC-705');
    assert.equal(await ask('26 00 09 00 01'), NG, 'no mode 09');
    assert.equal(await ask('26 00 01 02 01'), NG, 'data is 00/01');
    assert.equal(await ask('26 00 01 00 04'), NG, 'no FIL4');
    assert.equal(await ask('26 00 03 01 01'), NG, 'no CW-D');
    assert.equal(await ask('26 00 01 00 01 00'), NG, 'too long');
    assert.equal(await ask('06 22'), NG, 'DD is the IC-9700 only');
  });

  it('squelch 14 03: 2-byte BCD 0000..0255', async () => {
    assert.equal(await ask('14 03 01 28'), OK);
    assert.equal(sim.state.squelch, 128);
    assert.equal(await ask('14 03 00 00'), OK);
    assert.equal(sim.state.squelch, 0);
    assert.equal(await ask('14 03'), 'FE FE E0 A4 14 03 00 00 FD');
    assert.equal(await ask('14 03 02 56'), NG, '256 is out of range');
    assert.equal(await ask('14 03 00 FF'), NG, 'not BCD (255 binary)');
    assert.equal(await ask('14 03 00'), NG, 'one byte');
  });

  it('scope: 27 10 on, 27 14 00 mode, 27 15 00 span as the ± value (±500 kHz yes, 1 000 000 NG)', async () => {
    assert.equal(await ask('27 10 01'), OK);
    assert.equal(sim.state.scope.on, true);
    assert.equal(await ask('27 10'), 'FE FE E0 A4 27 10 01 FD');
    assert.equal(await ask('27 14 00 01'), OK);
    assert.equal(sim.state.scope.mode, 'fixed');
    assert.equal(await ask('27 14 00 00'), OK);
    assert.equal(sim.state.scope.mode, 'center');
    assert.equal(await ask('27 14 00'), 'FE FE E0 A4 27 14 00 00 FD');
    assert.equal(await ask('27 14 00 04'), NG);
    assert.equal(await ask('27 14 01 00'), NG, 'no sub scope on the IC-705');
    assert.equal(await ask('27 15 00 00 00 50 00 00'), OK); // 500000
    assert.equal(sim.state.scope.spanHalfHz, 500_000);
    assert.equal(await ask('27 15 00'), 'FE FE E0 A4 27 15 00 00 00 50 00 00 FD');
    assert.equal(await ask('27 15 00 00 00 00 01 00'), NG, '1 000 000 is the total width, not the ± value');
    assert.equal(await ask('27 15 00 00 00 20 00 00'), NG, '±200 kHz is not offered');
    assert.equal(await ask('27 15 00 00 25 00 00 00'), OK, '±2.5 kHz');
    assert.equal(sim.state.scope.spanHalfHz, 2_500);
    assert.equal(await ask('27 10 00'), OK);
    assert.equal(sim.state.scope.on, false);
  });

  it('tone: 1B 00/01 three-byte BCD in 0.1 Hz (88.5 = 00 08 85), standard tones only; 16 42/43 on/off; on the selected VFO', async () => {
    assert.equal(await ask('1B 00 00 08 85'), OK);
    assert.equal(sim.state.vfoA.tone.repeaterToneHz, 88.5);
    assert.equal(await ask('1B 00 00 06 70'), OK);
    assert.equal(await ask('1B 00'), 'FE FE E0 A4 1B 00 00 06 70 FD');
    assert.equal(await ask('1B 01 00 25 41'), OK);
    assert.equal(sim.state.vfoA.tone.tsqlHz, 254.1);
    assert.equal(await ask('1B 00 00 08 86'), NG, '88.6 Hz is not a CTCSS tone');
    assert.equal(await ask('1B 00 08 85'), NG, 'two bytes');
    assert.equal(await ask('1B 00 00 88 50'), NG, '885.0 Hz');
    assert.equal(await ask('16 42 01'), OK);
    assert.equal(sim.state.vfoA.tone.toneOn, true);
    assert.equal(await ask('16 42'), 'FE FE E0 A4 16 42 01 FD');
    assert.equal(await ask('16 43 01'), OK);
    assert.equal(sim.state.vfoA.tone.tsqlOn, true);
    assert.equal(await ask('16 42 02'), NG);
    assert.equal(await ask('07 01'), OK);
    assert.equal(await ask('1B 00 00 07 19'), OK);
    assert.equal(sim.state.vfoB.tone.repeaterToneHz, 71.9, 'B carries its own tone');
    assert.equal(sim.state.vfoA.tone.repeaterToneHz, 67);
  });

  it('NG for bad BCD, wrong lengths and unknown commands', async () => {
    assert.equal(await ask('05 00 00 80 4F 01'), NG);
    assert.equal(await ask('05 00 00 80 45 01 00'), NG);
    assert.equal(await ask('03 00'), NG);
    assert.equal(await ask('99'), NG);
    assert.equal(await ask('1A 05 01 32'), NG, 'a command the simulator does not model is NG, not silence');
  });

  it('answers only its own address or broadcast, to the sender; parses split, noisy input', async () => {
    ctl.send('FE FE A2 E0 03 FD'); // another rig's address
    await ctl.silence();
    assert.equal(sim.log.length, 0, 'not logged');
    assert.equal(await ask('03', '00'), 'FE FE E0 A4 03 00 00 00 45 01 FD', 'broadcast');
    assert.equal(await ask('03', 'A4', 'E1'), 'FE FE E1 A4 03 00 00 00 45 01 FD', 'to the sender');
    // noise, a longer preamble, a frame cut by a new preamble, and byte-at-a-time delivery
    for (const b of bytes('00 13 FE 37 FE FE A4 E0 07 FE FE FE A4 E0 07 01 FD')) {
      ctl.send([b]);
      await sleep(1);
    }
    assert.equal(await ctl.frame(), OK);
    assert.equal(sim.state.selected, 'B');
    assert.deepEqual(sim.log.map((e) => e.bytes).slice(-1), ['FE FE A4 E0 07 01 FD']);
    ctl.send('FE FE A4 E0 07 FC 00 FD'); // a collision inside a frame spoils it
    await ctl.silence();
    assert.equal(sim.state.selected, 'B');
  });

  it('echo on: every byte received comes back first, then the reply', async () => {
    sim.state.echo = true;
    ctl.send('FE FE A4 E0 03 FD');
    assert.equal(await ctl.take(6), 'FE FE A4 E0 03 FD');
    assert.equal(await ctl.frame(), 'FE FE E0 A4 03 00 00 00 45 01 FD');
    ctl.send('FE FE A4 E0 07 01 FD');
    assert.equal(await ctl.frame(), 'FE FE A4 E0 07 01 FD');
    assert.equal(await ctl.frame(), OK);
    sim.echo = false;
    assert.equal(await ask('07 00'), OK, 'no echo once off');
  });

  it('transceive: a turned knob on the selected VFO is broadcast to 00 (frequency 00, mode 01); CI-V writes are not', async () => {
    sim.turnKnob('A', 145_810_000);
    assert.equal(await ctl.frame(), 'FE FE 00 A4 00 00 00 81 45 01 FD');
    assert.equal(sim.state.vfoA.freq, 145_810_000);
    sim.pressMode('A', 'USB', 2);
    assert.equal(await ctl.frame(), 'FE FE 00 A4 01 01 02 FD');
    sim.turnKnob('B', 435_100_000); // not the operating VFO: no broadcast
    assert.equal(sim.state.vfoB.freq, 435_100_000);
    assert.equal(await ask('05 00 00 82 45 01'), OK, 'only the OK, no broadcast of our own write');
    await ctl.silence(50);
    sim.state.transceive = false;
    sim.turnKnob('A', 145_820_000);
    await ctl.silence(50);
    assert.throws(() => sim.turnKnob('A', 250_000_000), RangeError);
  });

  it('faults: noReplyTo 0x25 still applies; ngTo; delay; garble; dropApply; noReplyAtAll', async () => {
    sim.faults.noReplyTo.add(0x25);
    ctl.send('FE FE A4 E0 25 00 00 00 80 45 01 FD');
    await ctl.silence();
    assert.equal(sim.state.vfoA.freq, 145_800_000, 'applied though never answered');
    sim.faults.noReplyTo.clear();

    sim.faults.ngTo.add(0x25);
    assert.equal(await ask('25 00 00 00 90 45 01'), NG);
    assert.equal(sim.state.vfoA.freq, 145_800_000, 'an NG is not applied');
    sim.faults.ngTo.clear();

    sim.faults.delayMs = 60;
    const t0 = Date.now();
    assert.equal(await ask('03'), 'FE FE E0 A4 03 00 00 80 45 01 FD');
    assert.ok(Date.now() - t0 >= 55, 'held back');
    sim.faults.delayMs = 0;

    sim.faults.garble = true;
    assert.equal(await ask('25 00'), 'FE FE E0 A4 25 00 AA AA AA AA AA FD', 'frame and sub-command kept, value corrupted');
    assert.equal(await ask('07 00'), 'FE FE E0 A4 AA BB FD');
    sim.faults.garble = false;

    sim.faults.dropApply = true;
    assert.equal(await ask('0F 01'), OK);
    assert.equal(sim.state.split, false, 'acknowledged, not applied');
    sim.faults.dropApply = false;

    sim.faults.noReplyAtAll = true;
    sim.state.echo = true;
    ctl.send('FE FE A4 E0 0F 01 FD');
    await ctl.silence();
    assert.equal(sim.state.split, false, 'a quiet rig does nothing');
    assert.equal(sim.log.at(-1)?.bytes, 'FE FE A4 E0 0F 01 FD', 'but the frame is on the wire log');
  });

  it('jam() sends a collision', async () => {
    sim.jam();
    assert.equal(await ctl.frame(), 'FE FE FC FC FC FD');
  });

  it('unplug: the controller end closes and the links vanish; replug: same names, talking again', async () => {
    await pty.unplug();
    assert.equal(existsSync(pty.ctlPath) || existsSync(pty.rigPath), false, 'the links are gone');
    await ctl.waitClosed();
    await pty.replug();
    assert.ok(existsSync(pty.ctlPath) && existsSync(pty.rigPath), 'the same names are back');
    await sim.close();
    await sim.open(pty.rigPath);
    ctl = await Line.open(pty.ctlPath);
    assert.equal(await ask('03'), 'FE FE E0 A4 03 00 00 00 45 01 FD');
  });
});

describe('CivRigSim as an IC-9700 (0xA2)', () => {
  let pty: PtyPair;
  let sim: CivRigSim;
  let ctl: Line;
  const ask = async (body: string) => {
    ctl.send(`FE FE A2 E0 ${body} FD`);
    return ctl.frame();
  };
  const OK = 'FE FE E0 A2 FB FD';
  const NG = 'FE FE E0 A2 FA FD';

  before(async () => {
    pty = await openPtyPair();
    sim = new CivRigSim({ kind: 'IC-9700' });
    assert.equal(sim.address, 0xa2);
    await sim.open(pty.rigPath);
    ctl = await Line.open(pty.ctlPath);
  });
  after(async () => {
    await ctl?.close();
    await sim?.close();
    await pty?.close();
  });

  it('MAIN/SUB bands (07 D0/D1/D2), each with VFO A/B; 03-06 and 25/26 act on the selected band', async () => {
    assert.equal(await ask('07 D1'), OK);
    assert.equal(sim.state.band, 'SUB');
    assert.equal(await ask('07 D2'), 'FE FE E0 A2 07 D2 01 FD');
    assert.equal(await ask('05 00 00 64 35 04'), OK); // 435.640.000 on SUB
    assert.equal(sim.state.sub.vfoA.freq, 435_640_000);
    assert.equal(sim.state.vfoB.freq, 435_640_000, 'vfoB is shorthand for the SUB band');
    assert.equal(await ask('06 01'), OK);
    assert.equal(sim.state.sub.vfoA.mode, 'USB');
    assert.equal(await ask('25 01 00 00 00 31 04'), OK, '01 is the SUB band VFO B');
    assert.equal(sim.state.sub.vfoB.freq, 431_000_000);
    assert.equal(await ask('07 D0'), OK);
    assert.equal(await ask('03'), 'FE FE E0 A2 03 00 00 90 45 01 FD');
    assert.equal(await ask('07 01'), OK);
    assert.equal(sim.state.main.selected, 'B');
    assert.equal(await ask('03'), 'FE FE E0 A2 03 00 00 50 45 01 FD', 'MAIN VFO B');
    assert.equal(await ask('07 00'), OK);
    assert.equal(await ask('05 00 00 00 96 12'), OK, '1296 MHz');
    assert.equal(sim.state.main.vfoA.freq, 1_296_000_000);
    assert.equal(await ask('06 22'), OK, 'DD on 1200 MHz');
    assert.equal(await ask('05 00 00 00 30 12'), NG, '1230 MHz is below the 23 cm band');
    assert.equal(await ask('05 00 00 00 35 04'), NG, 'MAIN cannot go to the band SUB is on');
    assert.equal(await ask('05 00 00 90 45 01'), OK);
    assert.equal(await ask('06 22'), NG, 'no DD outside 1200 MHz');
    assert.equal(await ask('06 06'), NG, 'no WFM on the IC-9700');
    assert.equal(await ask('06 00'), OK);
    assert.equal(await ask('07 B0'), OK, 'exchange MAIN and SUB');
    assert.equal(sim.state.main.vfoA.freq, 435_640_000);
    assert.equal(sim.state.sub.vfoA.freq, 145_900_000);
    assert.equal(await ask('07 B0'), OK);
    assert.equal(await ask('27 14 01 01'), OK, 'the IC-9700 has a SUB scope');
    assert.equal(sim.state.scopeSub.mode, 'fixed');
  });

  it('satellite mode (16 5A): split, 0x25/0x26 and VFO B are refused; bands still selectable', async () => {
    assert.equal(await ask('0F 01'), OK);
    assert.equal(await ask('16 5A 01'), OK);
    assert.equal(sim.state.satMode, true);
    assert.equal(sim.state.split, false, 'satellite mode turns split off');
    assert.equal(await ask('16 5A'), 'FE FE E0 A2 16 5A 01 FD');
    assert.equal(await ask('0F 01'), NG);
    assert.equal(await ask('0F 00'), OK);
    assert.equal(await ask('25 00'), NG);
    assert.equal(await ask('25 00 00 00 90 45 01'), NG);
    assert.equal(await ask('26 01 01 00 01'), NG);
    assert.equal(await ask('07 01'), NG);
    assert.equal(await ask('07 D1'), OK);
    assert.equal(await ask('05 00 00 70 35 04'), OK);
    assert.equal(sim.state.sub.vfoA.freq, 435_700_000);
    assert.equal(await ask('07 D0'), OK);
    assert.equal(await ask('05 00 00 95 45 01'), OK);
    assert.equal(sim.state.vfoA.freq, 145_950_000);
    sim.turnKnob('SUB', 435_710_000); // not the operating band: no broadcast
    sim.turnKnob('MAIN', 145_960_000);
    assert.equal(await ctl.frame(), 'FE FE 00 A2 00 00 00 96 45 01 FD');
    assert.equal(await ask('16 5A 00'), OK);
    assert.equal(await ask('25 00'), 'FE FE E0 A2 25 00 00 00 96 45 01 FD', '0x25 works again');
  });
});
