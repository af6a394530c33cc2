import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseAddress, type Ax25Frame } from '../../src/aprs/codec/ax25.js';
import { parseTnc2, toTnc2 } from '../../src/aprs/codec/tnc2.js';
import { decideDigipeat, type DigiPolicy } from '../../src/aprs/digipeater.js';
import { DedupeWindow, dupeKey } from '../../src/aprs/dedupe.js';

function tnc2(line: string): Ax25Frame {
  const r = parseTnc2(line);
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.frame;
}
const policy = (over: Partial<DigiPolicy> = {}): DigiPolicy => ({
  myCall: parseAddress('MYCALL-1')!,
  aliases: ['WIDE1-1'],
  maxHops: 2,
  allowlist: [],
  blocklist: [],
  ...over,
});
/** What the digipeater does with a TNC2 line: the repeated line, or "ignore: …" / "drop: …". */
function digi(line: string, over: Partial<DigiPolicy> = {}): string {
  const d = decideDigipeat(tnc2(line), policy(over));
  return d.action === 'repeat' ? toTnc2(d.frame) : `${d.action}: ${d.reason}`;
}

describe('decideDigipeat: path rewrites', () => {
  const table: [string, string, string, Partial<DigiPolicy>?][] = [
    ['fill-in alias WIDE1-1 → our call', 'K1ABC>APRS,WIDE1-1,WIDE2-1:x', 'K1ABC>APRS,MYCALL-1*,WIDE2-1:x'],
    ['WIDE2-2 → trace, decrement', 'K1ABC>APRS,WIDE2-2:x', 'K1ABC>APRS,MYCALL-1*,WIDE2-1:x'],
    // H bits of both: the TNC2 star shows only the last, WIDE2 (ssid 0).
    ['WIDE2-1 → trace, WIDE2 used', 'K1ABC>APRS,WIDE2-1:x', 'K1ABC>APRS,MYCALL-1,WIDE2*:x'],
    ['second hop after a fill-in', 'K1ABC>APRS,W1XYZ*,WIDE2-1:x', 'K1ABC>APRS,W1XYZ,MYCALL-1,WIDE2*:x'],
    ['WIDE2-2 after a fill-in', 'K1ABC>APRS,W1XYZ*,WIDE2-2:x', 'K1ABC>APRS,W1XYZ,MYCALL-1*,WIDE2-1:x'],
    ['WIDE1-1 without the alias → New-N rewrite', 'K1ABC>APRS,WIDE1-1:x', 'K1ABC>APRS,MYCALL-1,WIDE1*:x', { aliases: [] }],
    ['other alias', 'K1ABC>APRS,RELAY:x', 'K1ABC>APRS,MYCALL-1*:x', { aliases: ['RELAY', 'WIDE1-1'] }],
    ['routed to us by name', 'K1ABC>APRS,MYCALL-1,W1XYZ:x', 'K1ABC>APRS,MYCALL-1*,W1XYZ:x'],
    ['alias is exact: WIDE1-2 is not WIDE1-1', 'K1ABC>APRS,WIDE1-2:x', 'drop: too_many_hops'],
    ['bare alias means SSID 0', 'K1ABC>APRS,RELAY-1:x', 'ignore: next hop is RELAY-1', { aliases: ['RELAY'] }],
    ['no path', 'K1ABC>APRS:x', 'ignore: no digipeater path'],
    ['exhausted', 'K1ABC>APRS,W1XYZ,WIDE2*:x', 'ignore: path exhausted'],
    ['next hop someone else', 'K1ABC>APRS,W1XYZ,WIDE2-1:x', 'ignore: next hop is W1XYZ'],
    ['unused WIDE2-0 is no request', 'K1ABC>APRS,WIDE2:x', 'ignore: next hop is WIDE2'],
    ['old-style WIDE is no request', 'K1ABC>APRS,WIDE:x', 'ignore: next hop is WIDE'],
    ['own packet', 'MYCALL-1>APRS,WIDE1-1:x', 'ignore: own packet'],
    ['other SSID of our call is someone else', 'MYCALL-9>APRS,WIDE1-1:x', 'MYCALL-9>APRS,MYCALL-1*:x'],
    ['loop: we repeated it already', 'K1ABC>APRS,MYCALL-1,WIDE2*,WIDE1-1:x', 'drop: loop'],
    ['loop via WIDEn-N', 'K1ABC>APRS,MYCALL-1*,WIDE2-1:x', 'drop: loop'],
    ['too many hops requested', 'K1ABC>APRS,WIDE3-3:x', 'drop: too_many_hops'],
    ['WIDE7-7 with max 7 is fine', 'K1ABC>APRS,WIDE7-7:x', 'K1ABC>APRS,MYCALL-1*,WIDE7-6:x', { maxHops: 7 }],
    ['bogus N > n', 'K1ABC>APRS,WIDE2-5:x', 'drop: too_many_hops', { maxHops: 7 }],
    ['WIDE8-1 is not WIDEn', 'K1ABC>APRS,WIDE8-1:x', 'ignore: next hop is WIDE8-1', { maxHops: 7 }],
    ['allowlist by base call: every SSID', 'K1ABC-9>APRS,WIDE1-1:x', 'K1ABC-9>APRS,MYCALL-1*:x', { allowlist: ['K1ABC'] }],
    ['allowlist by call-ssid', 'K1ABC-9>APRS,WIDE1-1:x', 'drop: not_allowlisted', { allowlist: ['K1ABC-7', 'W1XYZ'] }],
    ['allowlist, lower case entry', 'K1ABC-7>APRS,WIDE1-1:x', 'K1ABC-7>APRS,MYCALL-1*:x', { allowlist: ['k1abc-7'] }],
    ['not ours: no allowlist drop', 'N0ONE>APRS,W1XYZ:x', 'ignore: next hop is W1XYZ', { allowlist: ['K1ABC'] }],
    ['blocklist anywhere in the path', 'K1ABC>APRS,WIDE1-1,NOGATE:x', 'drop: blocked_path', { blocklist: ['NOGATE'] }],
    ['blocklist matches a used digi, any SSID', 'K1ABC>APRS,W1XYZ-3*,WIDE2-1:x', 'drop: blocked_path', { blocklist: ['W1XYZ'] }],
    ['blocklist call-ssid is exact', 'K1ABC>APRS,W1XYZ-3*,WIDE2-1:x', 'K1ABC>APRS,W1XYZ-3,MYCALL-1,WIDE2*:x', { blocklist: ['W1XYZ-2', 'RFONLY'] }],
  ];
  for (const [name, input, want, over] of table) {
    it(name, () => assert.equal(digi(input, over), want));
  }

  it('marks H bits exactly', () => {
    const d = decideDigipeat(tnc2('K1ABC>APRS,WIDE2-1:x'), policy());
    assert.equal(d.action, 'repeat');
    if (d.action !== 'repeat') return;
    assert.deepEqual(d.frame.path, [
      { call: 'MYCALL', ssid: 1, repeated: true },
      { call: 'WIDE2', ssid: 0, repeated: true },
    ]);
    assert.equal(d.via, 'WIDE2-1');
  });

  it('reports what it serviced and leaves the input frame alone', () => {
    const f = tnc2('K1ABC>APRS,WIDE1-1,WIDE2-2:x');
    const before = toTnc2(f);
    const d = decideDigipeat(f, policy());
    assert.equal(d.action === 'repeat' && d.via, 'WIDE1-1');
    assert.equal(toTnc2(f), before);
  });

  it('8-digipeater limit: decrements without inserting our call', () => {
    const full = 'K1ABC>APRS,D1*,D2*,D3*,D4*,D5*,D6*,D7*,WIDE2-2:x';
    assert.equal(digi(full), 'K1ABC>APRS,D1,D2,D3,D4,D5,D6,D7*,WIDE2-1:x');
    assert.equal(digi('K1ABC>APRS,D1,D2,D3,D4,D5,D6,D7*,WIDE2-1:x'), 'K1ABC>APRS,D1,D2,D3,D4,D5,D6,D7,WIDE2*:x');
    // Seven digis: room for exactly one more.
    assert.equal(digi('K1ABC>APRS,D1,D2,D3,D4,D5,D6*,WIDE2-2:x'), 'K1ABC>APRS,D1,D2,D3,D4,D5,D6,MYCALL-1*,WIDE2-1:x');
    // An alias at position 8 is replaced in place.
    assert.equal(digi('K1ABC>APRS,D1,D2,D3,D4,D5,D6,D7*,WIDE1-1:x'), 'K1ABC>APRS,D1,D2,D3,D4,D5,D6,D7,MYCALL-1*:x');
  });

  it('repeated output is itself a valid frame that the next digi services correctly', () => {
    let f = tnc2('K1ABC>APRS,WIDE1-1,WIDE2-2:x');
    const calls = ['DIGA', 'DIGB', 'DIGC', 'DIGD'];
    const log: string[] = [];
    for (const c of calls) {
      const d = decideDigipeat(f, policy({ myCall: parseAddress(c)! }));
      log.push(d.action === 'repeat' ? toTnc2(d.frame) : `${d.action}: ${d.reason}`);
      if (d.action === 'repeat') f = d.frame;
    }
    assert.deepEqual(log, [
      'K1ABC>APRS,DIGA*,WIDE2-2:x',
      'K1ABC>APRS,DIGA,DIGB*,WIDE2-1:x',
      'K1ABC>APRS,DIGA,DIGB,DIGC,WIDE2*:x',
      'ignore: path exhausted',
    ]);
  });
});

describe('DedupeWindow', () => {
  it('same packet via different digipeaters has the same key; other info or source differs', () => {
    const a = dupeKey(tnc2('K1ABC-9>APRS,WIDE1-1,WIDE2-1:!hi'));
    assert.equal(dupeKey(tnc2('K1ABC-9>APRS,DIGA*,WIDE2-1:!hi')), a);
    assert.equal(dupeKey(tnc2('K1ABC-9>APRS:!hi \r')), a); // trailing CR/space ignored
    assert.notEqual(dupeKey(tnc2('K1ABC-8>APRS:!hi')), a);
    assert.notEqual(dupeKey(tnc2('K1ABC-9>APRS-1:!hi')), a);
    assert.notEqual(dupeKey(tnc2('K1ABC-9>APRS:!ho')), a);
  });

  it('suppresses within the window and lets it through after, without refreshing', () => {
    const w = new DedupeWindow(30_000);
    assert.equal(w.seen('k', 0), false);
    assert.equal(w.seen('k', 10_000), true);
    assert.equal(w.seen('k', 29_999), true);
    assert.equal(w.seen('k', 30_000), false); // not refreshed by the duplicates at 10 s and 29.999 s
    assert.equal(w.seen('k', 45_000), true);
    assert.equal(w.seen('other', 45_000), false);
    assert.equal(w.size, 2);
  });

  it('sweeps expired entries as time moves on', () => {
    const w = new DedupeWindow(1000);
    for (let i = 0; i < 100; i++) w.seen(`k${i}`, i);
    assert.equal(w.size, 100);
    w.seen('late', 1050);
    assert.equal(w.size, 49 + 1); // k0..k50 expired (age ≥ 1000), k51..k99 live
    w.seen('later', 5000);
    assert.equal(w.size, 1);
  });

  it('is bounded: the oldest entry is evicted when full', () => {
    const w = new DedupeWindow(60_000, 4);
    for (let i = 0; i < 1000; i++) w.seen(`k${i}`, i);
    assert.equal(w.size, 4);
    assert.equal(w.seen('k999', 1000), true);
    assert.equal(w.seen('k0', 1000), false); // evicted long ago
  });

  it('setWindow and clear', () => {
    const w = new DedupeWindow(10_000);
    w.seen('k', 0);
    w.setWindow(1000);
    assert.equal(w.seen('k', 5000), false);
    w.clear();
    assert.equal(w.size, 0);
    assert.equal(w.seen('k', 5001), false);
  });

  it('a clock stepping back forgets rather than suppressing for long', () => {
    const w = new DedupeWindow(30_000);
    w.seen('k', 1_000_000);
    assert.equal(w.seen('k', 0), false);
  });
});
