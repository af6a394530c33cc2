import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { nodeSerialDriver, type SerialConnection } from '../../../src/links/serial-driver.js';
import type { ByteConnection } from '../../../src/links/byte-connection.js';
import { FixedClock } from '../../../src/util/clock.js';
import { TimeoutError } from '../../../src/util/waitress.js';
import { BusClosed } from '../../../src/radio/civ-bus.js';
import { CAT_TIMEOUTS, CatPort } from '../../../src/radio/yaesu/cat-port.js';
import { OP, cat } from '../../../src/radio/yaesu/commands.js';
import { decodeFreqMode } from '../../../src/radio/yaesu/replies.js';
import { openPtyPair, type PtyPair } from '../../sims/pty-pair.js';
import { YaesuCatSim } from '../../sims/yaesu-cat-rig.js';

// The CAT port over a real serial port on a pty, the simulator at the other end: one command at a
// time, the reply length the opcode calls for, PTT off ahead of what waits, and the byte count
// kept in step after a timeout, a stray byte, a reply that is no ACK, and a silent radio.

const hexOps = (sim: YaesuCatSim) => sim.log.map((e) => e.bytes);

describe('CatPort on a pty against the Yaesu simulator', () => {
  let pty: PtyPair;
  let sim: YaesuCatSim;
  let conn: SerialConnection;
  let port: CatPort;
  before(async () => {
    pty = await openPtyPair();
  });
  after(async () => {
    await pty?.close();
  });
  beforeEach(async () => {
    sim = new YaesuCatSim({ model: 'FT-817' });
    await sim.open(pty.rigPath, 9600);
    conn = await nodeSerialDriver.open(pty.ctlPath, 9600, { stopBits: 2 });
    port = new CatPort(conn, { name: 'FT-817' });
  });
  afterEach(async () => {
    port.close(new Error('test over'));
    await conn.close();
    await sim.close();
  });

  it('takes the reply length each opcode calls for, one command at a time, and PTT off goes ahead of every waiting command', async () => {
    const f7 = new Uint8Array(1);
    const fm = new Uint8Array(5);
    const ee = new Uint8Array(2);
    const ack = new Uint8Array(1);
    const waiting = [port.request(cat.readTxStatus(), f7), port.request(cat.readFreqMode(), fm), port.request(cat.readEeprom(0x55), ee)];
    const urgent = port.urgent(cat.ptt(false), ack);
    await Promise.all([...waiting, urgent]);
    // F7 was on its way when PTT off came; 88 went next, ahead of 03 and BB.
    assert.deepEqual(sim.log.map((e) => e.opcode), [OP.READ_TX_STATUS, OP.PTT_OFF, OP.READ_FREQ_MODE, OP.READ_EEPROM]);
    assert.equal(f7[0], 0xff);
    assert.deepEqual(decodeFreqMode(fm), { hz: 145_800_000, mode: 'FM', narrow: false });
    assert.deepEqual([...ee], [0x00, 0x00]);
    assert.equal(ack[0], 0xf0, 'not keyed by CAT: F0');
    assert.equal(port.stats.resyncs, 0);
  });

  it('an answer later than the timeout is dropped, not taken for the next command; a slow radio costs no resync bytes', async () => {
    sim.faults.delayMs = CAT_TIMEOUTS.reply_ms + 100;
    // A write: never retried, so the late ACK is the only one on its way.
    await assert.rejects(port.request(cat.toggleVfo(), new Uint8Array(1)), (e) => e instanceof TimeoutError && e.message === `the FT-817's answer to toggle VFO (81): no answer within ${CAT_TIMEOUTS.reply_ms} ms`);
    sim.faults.delayMs = 0;
    sim.state.vfoB.freq = 435_990_000;
    const fm = new Uint8Array(5);
    await port.request(cat.readFreqMode(), fm);
    assert.deepEqual(decodeFreqMode(fm), { hz: 435_990_000, mode: 'FM', narrow: false }, 'the toggle took, and 03 got its own answer');
    assert.equal(port.stats.dropped, 1, 'the late ACK was dropped');
    assert.equal(sim.received.length, 10, 'two commands and not one single byte');
  });

  it('a stray byte shifts the radio\'s count: single F7 bytes until it answers, then the read is retried in step', async () => {
    sim.feed([0x00]); // a byte from nowhere: the radio now holds one
    const fm = new Uint8Array(5);
    await port.request(cat.readFreqMode(), fm);
    assert.deepEqual(decodeFreqMode(fm), { hz: 145_800_000, mode: 'FM', narrow: false });
    assert.equal(port.stats.resyncs, 1);
    // The radio read 00 + four bytes of our 03 as one command (lock on: nothing a shifted
    // command cannot do), then our 03's last byte and four single F7s as a TX-status read, which it
    // answered; four F7s unanswered and a fifth answered confirm it; then the 03 again.
    assert.deepEqual(hexOps(sim), ['00 00 00 00 00', '03 F7 F7 F7 F7', 'F7 F7 F7 F7 F7', '00 00 00 00 03']);
    const f7 = new Uint8Array(1);
    await port.request(cat.readTxStatus(), f7);
    assert.equal(f7[0], 0xff);
  });

  it('an ACK that is neither 00 nor F0 fails the command and puts the line back in step before the next', async () => {
    sim.faults.garble = true;
    await assert.rejects(port.request(cat.toggleVfo(), new Uint8Array(1)), /answered AA to toggle VFO \(81\), which is no ACK/);
    sim.faults.garble = false;
    const ack = new Uint8Array(1);
    await port.request(cat.toggleVfo(), ack);
    assert.equal(ack[0], 0x00);
    assert.equal(port.stats.resyncs, 1);
    assert.equal(sim.state.current, 'A', 'two toggles, each once');
  });

  it('a silent radio: a read gives up once the resync bytes went unanswered too, and the port works when the radio answers again', async () => {
    sim.faults.silent = true;
    await assert.rejects(port.request(cat.readTxStatus(), new Uint8Array(1)), TimeoutError);
    assert.equal(port.stats.timeouts, 1);
    assert.equal(port.stats.resyncs, 1, 'one resync, then no retry');
    assert.equal(sim.received.length, 10, 'the command and five single bytes');
    sim.faults.silent = false;
    const f7 = new Uint8Array(1);
    await port.request(cat.readTxStatus(), f7);
    assert.equal(f7[0], 0xff);
  });

  it('a busy event loop is no silent radio: an answer that came while the loop was blocked past the timeout is taken', async () => {
    const f7 = new Uint8Array(1);
    const answered = port.request(cat.readTxStatus(), f7);
    const end = Date.now() + CAT_TIMEOUTS.reply_ms + 100;
    while (Date.now() < end); // the loop blocked (a Pi's garbage collection); the timer is first when it runs again
    await answered;
    assert.equal(f7[0], 0xff);
    assert.deepEqual([port.stats.timeouts, port.stats.resyncs], [0, 0]);
  });

  it('a write is never retried after a timeout (an 81 twice is no 81)', async () => {
    sim.faults.silent = true;
    await assert.rejects(port.request(cat.toggleVfo(), new Uint8Array(1)), TimeoutError);
    assert.equal(sim.log.filter((e) => e.opcode === OP.TOGGLE_VFO).length, 1);
  });

  it('closing fails what is in flight and what waits, and refuses what comes', async () => {
    sim.faults.silent = true;
    const inFlight = port.request(cat.readTxStatus(), new Uint8Array(1));
    const queued = port.request(cat.readFreqMode(), new Uint8Array(5));
    port.close(new Error('serial device gone'));
    await assert.rejects(inFlight, (e) => e instanceof BusClosed && e.message === 'serial device gone');
    await assert.rejects(queued, BusClosed);
    await assert.rejects(port.request(cat.readTxStatus(), new Uint8Array(1)), BusClosed);
  });
});

describe('CatPort timers', () => {
  it('run on the clock it is given', async () => {
    const written: Uint8Array[] = [];
    const quietLink: ByteConnection = {
      write: async (b) => void written.push(Uint8Array.from(b)),
      close: async () => {},
      onData: () => {},
      onClose: () => {},
    };
    const clock = new FixedClock(0);
    const port = new CatPort(quietLink, { name: 'FT-818', clock, timeouts: { reply_ms: 300, read_retries: 0, resync_ms: 100 } });
    let settled: unknown = null;
    const p = port.request(cat.readTxStatus(), new Uint8Array(1)).catch((e) => (settled = e));
    await new Promise((r) => setImmediate(r));
    clock.advance(299);
    await new Promise((r) => setImmediate(r));
    assert.equal(settled, null, 'still waiting at 299 ms');
    clock.advance(1);
    await p;
    const err = settled as unknown as Error;
    assert.ok(err instanceof TimeoutError && /FT-818's answer to read TX status \(F7\): no answer within 300 ms/.test(err.message));
    assert.equal(written.length, 1);
  });
});
