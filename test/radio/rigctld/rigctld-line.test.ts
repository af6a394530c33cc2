import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encode, rprtCode, subVfo, RigDumpReader, type ReplyReader, type ReplyStep, type RigDump } from '../../../src/radio/rigctld/rigctld-line.js';
import { HamlibError } from '../../../src/ham/hamlib/errors.js';

// The rigctld client's pure codec: the lines it sends (plain, and with a VFO first for a daemon
// started with --vfo), and replies read line by line as Hamlib 4.5's rigctld writes them.

const plain = { vfoArg: false };
const withVfo = { vfoArg: true };

/** Feeds lines until the reader ends; the last step. */
function read<T>(reader: ReplyReader<T>, lines: string[]): ReplyStep<T> {
  let step: ReplyStep<T> = { kind: 'more' };
  for (const l of lines) {
    assert.equal(step.kind, 'more', `the reply ended before '${l}'`);
    step = reader.feed(l);
  }
  return step;
}

describe('rigctld client lines', () => {
  it('encodes the commands the rig driver needs, VFO names and never bare numbers', () => {
    assert.equal(encode.setFreq(plain, 145_800_000).line, 'F 145800000\n');
    assert.equal(encode.setFreq(plain, 145_800_000.4).line, 'F 145800000\n');
    assert.equal(encode.getFreq(plain).line, 'f\n');
    assert.equal(encode.setSplitFreq(plain, 435_300_000).line, 'I 435300000\n');
    assert.equal(encode.getSplitFreq(plain).line, 'i\n');
    assert.equal(encode.setMode(plain, 'USB', 2400).line, 'M USB 2400\n');
    assert.equal(encode.getMode(plain).line, 'm\n');
    assert.equal(encode.setSplit(plain, true, 'VFOB').line, 'S 1 VFOB\n');
    assert.equal(encode.setSplit(plain, false, 'Sub').line, 'S 0 Sub\n');
    assert.equal(encode.getSplit(plain).line, 's\n');
    assert.equal(encode.setVfo(plain, 'VFOA').line, 'V VFOA\n');
    assert.equal(encode.setPtt(plain, true).line, 'T 1\n');
    assert.equal(encode.getPtt(plain).line, 't\n');
    assert.equal(encode.chkVfo().line, '\\chk_vfo\n');
    assert.equal(encode.dumpState().line, '\\dump_state\n');
  });

  it('puts the VFO first when the daemon wants one (\\chk_vfo 1), except where Hamlib takes none', () => {
    assert.equal(encode.setFreq(withVfo, 145_800_000).line, 'F currVFO 145800000\n');
    assert.equal(encode.setFreq(withVfo, 145_800_000, 'VFOA').line, 'F VFOA 145800000\n');
    assert.equal(encode.getFreq(withVfo, 'Main').line, 'f Main\n');
    assert.equal(encode.setSplitFreq(withVfo, 435_300_000).line, 'I currVFO 435300000\n');
    assert.equal(encode.setSplit(withVfo, true, 'VFOB').line, 'S currVFO 1 VFOB\n');
    assert.equal(encode.setMode(withVfo, 'FM', 0).line, 'M currVFO FM 0\n');
    assert.equal(encode.setPtt(withVfo, false).line, 'T currVFO 0\n');
    assert.equal(encode.setVfo(withVfo, 'VFOB').line, 'V VFOB\n'); // set_vfo is ARG_NOVFO
  });

  it('keys a request on command and VFO: a newer F replaces an older F for the same VFO only', () => {
    assert.equal(encode.setFreq(plain, 1).key, encode.setFreq(plain, 2).key);
    assert.notEqual(encode.setFreq(plain, 1, 'VFOA').key, encode.setFreq(plain, 1, 'VFOB').key);
    assert.notEqual(encode.setFreq(plain, 1).key, encode.setSplitFreq(plain, 1).key);
    assert.equal(encode.setPtt(plain, true).key, encode.setPtt(plain, false).key);
  });

  it("encodes split's transmit mode, the CTCSS tone and functions the Hamlib rig driver sets", () => {
    assert.equal(encode.setSplitMode(plain, 'LSB', 0).line, 'X LSB 0\n');
    assert.equal(encode.getSplitMode(plain).line, 'x\n');
    assert.equal(encode.setCtcssTone(plain, 885).line, 'C 885\n');
    assert.equal(encode.setCtcssTone(withVfo, 670, 'VFOB').line, 'C VFOB 670\n');
    assert.equal(encode.setFunc(plain, 'TONE', true).line, 'U TONE 1\n');
    assert.equal(encode.setFunc(withVfo, 'TONE', false, 'Sub').line, 'U Sub TONE 0\n');
    assert.deepEqual(read(encode.getSplitMode(plain).reader(), ['PKTUSB', '3000']), { kind: 'done', value: { mode: 'PKTUSB', passband_hz: 3000 } });
    // Each function is its own intent: a waiting TSQL is never replaced by a TONE.
    assert.notEqual(encode.setFunc(plain, 'TONE', true).key, encode.setFunc(plain, 'TSQL', true).key);
    assert.equal(encode.setFunc(plain, 'TONE', true).key, encode.setFunc(plain, 'TONE', false).key);
    assert.throws(() => encode.setSplitMode(plain, 'FOO'), RangeError);
    assert.throws(() => encode.setCtcssTone(plain, 88.5), RangeError);
  });

  it('refuses what no line can carry', () => {
    assert.throws(() => encode.setFreq(plain, Number.NaN), RangeError);
    assert.throws(() => encode.setFreq(plain, -1), RangeError);
    assert.throws(() => encode.setMode(plain, 'FOO'), RangeError);
  });

  it('reads a set: RPRT 0 is done, RPRT -n is Hamlib’s error, anything else is out of step', () => {
    assert.deepEqual(read(encode.setFreq(plain, 1).reader(), ['RPRT 0']), { kind: 'done', value: true });
    assert.deepEqual(read(encode.setPtt(plain, true).reader(), ['RPRT -9']), { kind: 'error', code: HamlibError.ERJCTED });
    assert.equal(read(encode.setFreq(plain, 1).reader(), ['145800000']).kind, 'garbled');
    assert.equal(read(encode.setFreq(plain, 1).reader(), ['RPRT 3']).kind, 'garbled');
  });

  it('reads gets: values one per line, or one RPRT -n instead of them', () => {
    assert.deepEqual(read(encode.getFreq(plain).reader(), ['145800000']), { kind: 'done', value: 145_800_000 });
    assert.deepEqual(read(encode.getFreq(plain).reader(), ['145800000.000000']), { kind: 'done', value: 145_800_000 }); // Hamlib 3's "%f"
    assert.deepEqual(read(encode.getSplitFreq(plain).reader(), ['435300000']), { kind: 'done', value: 435_300_000 });
    assert.deepEqual(read(encode.getMode(plain).reader(), ['USB', '2400']), { kind: 'done', value: { mode: 'USB', passband_hz: 2400 } });
    assert.deepEqual(read(encode.getMode(plain).reader(), ['USB-D', '3000']), { kind: 'done', value: { mode: 'PKTUSB', passband_hz: 3000 } });
    assert.deepEqual(read(encode.getSplit(plain).reader(), ['1', 'VFOB']), { kind: 'done', value: { on: true, tx_vfo: 'VFOB' } });
    assert.deepEqual(read(encode.getSplit(plain).reader(), ['0', 'Sub']), { kind: 'done', value: { on: false, tx_vfo: 'Sub' } });
    assert.deepEqual(read(encode.getPtt(plain).reader(), ['1']), { kind: 'done', value: true });
    assert.deepEqual(read(encode.getPtt(plain).reader(), ['RPRT -11']), { kind: 'error', code: HamlibError.ENAVAIL });
    assert.equal(read(encode.getFreq(plain).reader(), ['RPRT 0']).kind, 'garbled');
    assert.equal(read(encode.getFreq(plain).reader(), ['hello']).kind, 'garbled');
    assert.equal(read(encode.getSplit(plain).reader(), ['1', '2']).kind, 'garbled'); // a bare number is no VFO
  });

  it('reads \\chk_vfo from Hamlib 4 ("1") and Hamlib 3 ("CHKVFO 0")', () => {
    assert.deepEqual(read(encode.chkVfo().reader(), ['1']), { kind: 'done', value: true });
    assert.deepEqual(read(encode.chkVfo().reader(), ['0']), { kind: 'done', value: false });
    assert.deepEqual(read(encode.chkVfo().reader(), ['CHKVFO 0']), { kind: 'done', value: false });
    assert.equal(rprtCode('RPRT -5'), -5);
    assert.equal(rprtCode('RPRT'), null);
  });
});

// Hamlib 4.5.4's rigctld -m 1, as it answered \dump_state (the long key lists cut).
const DUMMY_DUMP = `1
1
0
150000.000000 1500000000.000000 0x1ff -1 -1 0x77e00007 0xf
0 0 0 0 0 0 0
150000.000000 1500000000.000000 0x1ff 5000 100000 0x77e00007 0xf
0 0 0 0 0 0 0
0x1ff 1
0x1ff 0
0 0
0xc 2400
0x2 500
0 0
9990
9990
10000
0
10
10 20 30
0xffffffffffffffff
0xffffffffffffffff
0xfffffffff7ffffff
0xffffff7083ffffff
0xffffffffffffffff
0xffffffffffffffbf
vfo_ops=0x7ffffff
ptt_type=0x0
targetable_vfo=0x10c3
has_set_vfo=1
timeout=0
rig_model=1
rigctld_version=Hamlib 4.5.4 Jan 10 01:31:41Z 2023 SHA=921cc5
agc_levels=0=OFF 1=SUPERFAST 2=FAST 3=MEDIUM 4=SLOW 5=AUTO 6=USER
done`;

function dump(text: string): ReplyStep<RigDump> {
  return read(new RigDumpReader(), text.split('\n').filter((l) => l !== '')); // the line reader drops empty lines
}

describe('rigctld \\dump_state', () => {
  it('reads a protocol 1 dump to "done": model, the ranges’ VFOs, the keys', () => {
    const step = dump(DUMMY_DUMP);
    assert.equal(step.kind, 'done');
    if (step.kind !== 'done') return;
    assert.equal(step.value.protocol, 1);
    assert.equal(step.value.model, 1);
    assert.equal(step.value.vfo_mask, 0x77e00007);
    assert.equal(step.value.keys.get('rig_model'), '1');
    assert.equal(step.value.keys.get('agc_levels'), '0=OFF 1=SUPERFAST 2=FAST 3=MEDIUM 4=SLOW 5=AUTO 6=USER');
    assert.equal(subVfo(step.value), 'VFOB');
  });

  it('ends a protocol 0 dump after its sixth mask, with empty preamp and attenuator lines dropped', () => {
    const v0 = DUMMY_DUMP.replace(/^1\n/, '0\n').replace(/\nvfo_ops[\s\S]*$/, '').replace('\n10\n10 20 30\n', '\n\n\n');
    const step = dump(v0);
    assert.equal(step.kind, 'done');
    if (step.kind === 'done') assert.equal(step.value.protocol, 0);
  });

  it('takes Sub on a Main/Sub rig without VFOB, VFOB when the dump names no VFO', () => {
    const mainSub = (1 << 25) | (1 << 26); // Sub | Main
    assert.equal(subVfo({ protocol: 1, model: 3081, vfo_mask: mainSub, keys: new Map() }), 'Sub');
    assert.equal(subVfo({ protocol: 0, model: 1, vfo_mask: 0, keys: new Map() }), 'VFOB');
  });

  it('an error instead of a dump is Hamlib’s error; a line that is no dump is out of step', () => {
    assert.deepEqual(dump('RPRT -11'), { kind: 'error', code: HamlibError.ENAVAIL });
    assert.equal(dump('RPRT 0').kind, 'garbled');
    assert.equal(dump('SSH-2.0-OpenSSH').kind, 'garbled');
    assert.equal(dump('1\n1\n0\n150000 1500000000 0x1ff').kind, 'garbled');
  });
});
