import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callsignProblem, identityOf, stationIdentity } from '../../src/ham/callsign.js';

describe('station identity: callsign and SSID rules', () => {
  const good = ['W1AW', 'K1ABC', 'N2XYZ', 'KA1ABC', 'AA7BQ', 'DL1ABC', 'G4ABC', 'M0ABC', '2E0ABC', '9A1AA', '4X4AB', 'VK2XYZ', 'JA1ABC', 'VE3ABC', 'F5ABC', 'PA3ABC', 'OH2BH', 'ZL1AB', 'LU1AA', 'EA4A', 'I2ABC', 'SP5ABC', '3D2AB', 'A61AB', 'w1aw'];
  for (const c of good) {
    it(`accepts ${c}`, () => assert.equal(callsignProblem(c), null));
  }

  const bad: Array<[string, RegExp]> = [
    ['', /no callsign/],
    ['N0CALL', /placeholder/],
    ['NOCALL', /placeholder/],
    ['W1', /not a callsign/], // no suffix
    ['W1ABCDE', /at most 6/], // suffix of 5
    ['DL1ABCD', /at most 6/], // 7 characters cannot go into AX.25
    ['ABC1D', /not a callsign/], // 3-character prefix
    ['11AW', /not a callsign/], // prefix without a letter
    ['1AW', /not a callsign/], // no digit after the prefix
    ['WAW', /not a callsign/], // no digit at all
    ['W1A1', /not a callsign/], // digit in the suffix
    ['W1AW/P', /at most 6|not a callsign/], // portable suffix not allowed in AX.25
    ['VE3/W1', /not a callsign/],
    ['W-1AW', /not a callsign/],
    ['W1 AW', /not a callsign/],
  ];
  for (const [c, why] of bad) {
    it(`refuses ${JSON.stringify(c)}`, () => assert.match(callsignProblem(c) ?? 'accepted', why));
  }

  it('renders callsign plus SSID; SSID 0 is the bare callsign', () => {
    assert.deepEqual(stationIdentity('dl1abc', 7), { valid: true, callsign: 'DL1ABC-7' });
    assert.deepEqual(stationIdentity('W1AW', 0), { valid: true, callsign: 'W1AW' });
    assert.equal(stationIdentity('W1AW', 15).valid, true);
  });

  it('SSID outside 0–15 or not an integer is invalid', () => {
    for (const ssid of [16, -1, 2.5, NaN]) {
      const id = stationIdentity('W1AW', ssid);
      assert.equal(id.valid, false, `ssid ${ssid}`);
      assert.match(id.reason!, /SSID/);
    }
  });

  it('an invalid callsign says why', () => {
    const id = stationIdentity('N0CALL', 9);
    assert.equal(id.valid, false);
    assert.equal(id.callsign, 'N0CALL-9');
    assert.match(id.reason!, /placeholder/);
  });

  it('identityOf computes the identity of a settings object once; changed settings are a new object, computed again', () => {
    const saved = { callsign: 'dl1abc', ssid: 7, other: 'kept' };
    const id = identityOf(saved);
    assert.deepEqual(id, stationIdentity('dl1abc', 7));
    assert.equal(identityOf(saved), id, 'the same settings give the very same identity');
    const changed = { ...saved, ssid: 16 };
    assert.equal(identityOf(changed).valid, false);
    assert.match(identityOf(changed).reason!, /SSID/);
  });
});
