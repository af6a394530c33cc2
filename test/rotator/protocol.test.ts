import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as gs232 from '../../src/rotator/protocol/gs232.js';
import * as easycomm from '../../src/rotator/protocol/easycomm2.js';
import * as rot2prog from '../../src/rotator/protocol/rot2prog.js';
import * as rotctl from '../../src/rotator/protocol/rotctl-line.js';
import { LineReader } from '../../src/links/line-reader.js';
import type { Encoded } from '../../src/rotator/protocol/encoded.js';

// The codecs without I/O: the exact bytes of each command (from the manuals and Hamlib's
// backends; hamlib-crosscheck.test.ts proves them against Hamlib's own rotctl), reply parsing,
// and garbage that must come back as a value, never an exception.

const text = (e: Encoded) => {
  assert.equal(e.kind, 'bytes');
  return Buffer.from((e as { bytes: Uint8Array }).bytes).toString('latin1');
};
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('GS-232A / GS-232B codec', () => {
  it('encodes W, C2 and S with the variant’s endings', () => {
    assert.equal(text(gs232.encodeGoto('gs232a', 123.4, 45.5)), 'W123 046\r');
    assert.equal(text(gs232.encodeGoto('gs232b', 5, 0)), 'W005 000\r\r');
    assert.equal(text(gs232.encodeGoto('gs232a', 450, 180)), 'W450 180\r');
    assert.equal(Buffer.from(gs232.encodeReadPosition('gs232b')).toString(), 'C2\r');
    assert.equal(Buffer.from(gs232.encodeStop('gs232a')).toString(), 'S\r');
    assert.equal(Buffer.from(gs232.encodeStop('gs232b')).toString(), 'S\r\r');
  });
  it('refuses what W cannot carry, naming the field', () => {
    assert.deepEqual(gs232.encodeGoto('gs232a', -1, 10).kind, 'unencodable');
    const e = gs232.encodeGoto('gs232b', 100, 181);
    assert.equal(e.kind === 'unencodable' && e.field, 'el_deg');
    const n = gs232.encodeGoto('gs232a', Number.NaN, 0);
    assert.equal(n.kind === 'unencodable' && n.field, 'az_deg');
  });
  it('parses each variant’s C2 reply, and only its own', () => {
    assert.deepEqual(gs232.parseReply('gs232a', '+0123+0045'), { kind: 'position', az_deg: 123, el_deg: 45 });
    assert.deepEqual(gs232.parseReply('gs232b', 'AZ=359  EL=180'), { kind: 'position', az_deg: 359, el_deg: 180 });
    assert.deepEqual(gs232.parseReply('gs232b', 'AZ=010'), { kind: 'position', az_deg: 10, el_deg: null });
    assert.equal(gs232.parseReply('gs232a', 'AZ=359  EL=180').kind, 'garbled');
    assert.equal(gs232.parseReply('gs232b', '+0123+0045').kind, 'garbled');
    assert.deepEqual(gs232.parseReply('gs232b', '?>'), { kind: 'rejected' });
    for (const junk of ['', '\uFFFD\uFFFD', '+0abc+0def', 'AZ=1234 EL=1']) assert.equal(gs232.parseReply('gs232a', junk).kind === 'position', false);
  });
});

describe('EasyComm II codec', () => {
  it('encodes goto, queries and stop as Hamlib does', () => {
    assert.equal(text(easycomm.encodeGoto(123, 45)), 'AZ123.0 EL45.0\n');
    assert.equal(text(easycomm.encodeGoto(0.04, 89.96)), 'AZ0.0 EL90.0\n');
    assert.equal(Buffer.from(easycomm.encodeQueryAz()).toString(), 'AZ\n');
    assert.equal(Buffer.from(easycomm.encodeQueryEl()).toString(), 'EL\n');
    assert.equal(Buffer.from(easycomm.encodeStop()).toString(), 'SA SE \n');
    assert.equal(easycomm.encodeGoto(361, 0).kind, 'unencodable');
  });
  it('parses one value or both, garbage as garbled', () => {
    assert.deepEqual(easycomm.parseReply('AZ123.4'), { kind: 'position', az_deg: 123.4, el_deg: null });
    assert.deepEqual(easycomm.parseReply('EL5'), { kind: 'position', az_deg: null, el_deg: 5 });
    assert.deepEqual(easycomm.parseReply('AZ10.0 EL20.5'), { kind: 'position', az_deg: 10, el_deg: 20.5 });
    for (const junk of ['', 'AZ', 'AZx', 'VE1.0', '\uFFFD']) assert.equal(easycomm.parseReply(junk).kind, 'garbled');
  });
});

describe('Rot2Prog codec', () => {
  it('encodes status, stop and set frames byte for byte', () => {
    assert.equal(hex(rot2prog.encodeStatus()), '57' + '00'.repeat(10) + '1f20');
    assert.equal(hex(rot2prog.encodeStop()), '57' + '00'.repeat(10) + '0f20');
    // spid.txt's example: 123.5° az, 45° el at 0.5°/pulse: 2·483.5 = 0967, 2·405 = 0810.
    assert.equal(hex((rot2prog.encodeSet(123.5, 45, { ph: 2, pv: 2 }) as { bytes: Uint8Array }).bytes), '57303936370230383130022f20');
    assert.equal(hex((rot2prog.encodeSet(-180, 0, { ph: 1, pv: 1 }) as { bytes: Uint8Array }).bytes), '57303138300130333630012f20');
    assert.equal(rot2prog.encodeSet(541, 0, { ph: 1, pv: 1 }).kind, 'unencodable');
    assert.equal(rot2prog.encodeSet(10, 0, { ph: 3, pv: 3 }).kind, 'unencodable');
  });
  it('decodes a 12-byte reply through a stream split anywhere, skipping junk', () => {
    // 483.5 → 4 8 3 5 (az 123.5), 405.0 → 4 0 5 0 (el 45)
    const reply = [0x57, 4, 8, 3, 5, 2, 4, 0, 5, 0, 2, 0x20];
    const got: rot2prog.Rot2ProgStatus[] = [];
    const p = new rot2prog.Rot2ProgParser((s) => got.push(s));
    const stream = [0xff, 0x57, 0x57, 1, ...reply, 0x00, ...reply];
    for (const b of stream) p.push(Uint8Array.of(b));
    assert.equal(got.length, 2);
    assert.deepEqual(got[0], { az_deg: 123.5, el_deg: 45, resolution: { ph: 2, pv: 2 } });
    assert.ok(p.stats.discardedBytes >= 4);
    assert.equal(rot2prog.decodeReply([0x57, 4, 8, 3, 5, 2, 4, 0, 5, 0, 2, 0x21]), null);
    assert.equal(rot2prog.decodeReply([0x57, 4, 18, 3, 5, 2, 4, 0, 5, 0, 2, 0x20]), null);
  });
  it('never throws on random bytes', () => {
    const p = new rot2prog.Rot2ProgParser(() => {});
    let seed = 7;
    for (let i = 0; i < 20000; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      p.push(Uint8Array.of(seed & 0xff));
    }
    assert.ok(p.stats.discardedBytes > 0);
  });
});

describe('rotctld line protocol', () => {
  it('encodes the commands Hamlib’s NET rotctl sends', () => {
    assert.equal(text(rotctl.encodeSetPosition(123, 45.5)), 'P 123.000000 45.500000\n');
    assert.equal(Buffer.from(rotctl.encodeGetPosition()).toString(), 'p\n');
    assert.equal(Buffer.from(rotctl.encodeStop()).toString(), 'S\n');
    assert.equal(Buffer.from(rotctl.encodePark()).toString(), 'K\n');
    assert.equal(Buffer.from(rotctl.encodeDumpState()).toString(), '\\dump_state\n');
    assert.equal(rotctl.encodeSetPosition(Number.POSITIVE_INFINITY, 0).kind, 'unencodable');
  });
  it('classifies reply lines and names Hamlib errors', () => {
    assert.deepEqual(rotctl.classifyLine('RPRT 0'), { kind: 'rprt', code: 0 });
    assert.deepEqual(rotctl.classifyLine('RPRT -1'), { kind: 'rprt', code: -1 });
    assert.deepEqual(rotctl.classifyLine('12.80'), { kind: 'number', value: 12.8 });
    assert.deepEqual(rotctl.classifyLine('-0.5'), { kind: 'number', value: -0.5 });
    assert.equal(rotctl.classifyLine('Command not found').kind, 'text');
    assert.match(rotctl.rprtMessage(-1), /invalid parameter/);
    assert.match(rotctl.rprtMessage(-5), /timed out/);
  });
  it('reads a protocol 1 dump to its limits', () => {
    const r = new rotctl.DumpStateReader();
    const lines = ['1', '1', 'min_az=-180.000000', 'max_az=450.000000', 'min_el=0.000000', 'max_el=90.000000', 'south_zero=0', 'rot_type=AzEl'];
    for (const l of lines) assert.equal(r.feed(l), 'more');
    assert.equal(r.feed('done'), 'done');
    assert.deepEqual(r.limits(), { min_az_deg: -180, max_az_deg: 450, min_el_deg: 0, max_el_deg: 90, south_zero: false });
    assert.equal(new rotctl.DumpStateReader().feed('RPRT -4'), 'garbled');
    const old = new rotctl.DumpStateReader();
    old.feed('0');
    assert.equal(old.feed('601'), 'done');
    assert.equal(old.limits(), null);
  });
});

describe('line reader', () => {
  it('splits on CR, LF and CR LF, skips empty lines, drops overlong ones', () => {
    const lines: string[] = [];
    const r = new LineReader((l) => lines.push(l), 8);
    for (const b of Buffer.from('AZ=1\r\n\r\nEL\rabcdefghijkl\nok\n')) r.push(Uint8Array.of(b));
    assert.deepEqual(lines, ['AZ=1', 'EL', 'ok']);
    assert.ok(r.stats.discardedBytes >= 9);
    r.push(Uint8Array.of(0xaa, 0x01, 0x0a));
    assert.equal(lines.at(-1), '\uFFFD\uFFFD');
  });
});
