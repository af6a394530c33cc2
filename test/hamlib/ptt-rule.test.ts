import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { networkPttBlock, type TransmitRules } from '../../src/hamlib/ptt-rule.js';

// The station's transmit rules a Hamlib network PTT obeys (beyond allow_ptt), owned by the Hamlib
// area instead of the composition root; test/hamlib/hamlib-station.test.ts drives them end to end.

const station = (o: { stopped?: boolean; locked?: boolean; identity?: { valid: boolean; reason?: string } } = {}): TransmitRules => ({
  aprs: { emergencyStopped: o.stopped ?? false, identity: () => o.identity ?? { valid: true } },
  access: { locked: () => o.locked ?? false },
});

describe('network PTT rule', () => {
  it('lets a PTT through on an open station with a valid callsign', () => {
    assert.equal(networkPttBlock(station()), null);
  });

  it('refuses, most fundamental reason first: emergency stop, then the lock, then the callsign', () => {
    const bad = { valid: false, reason: 'no callsign set' };
    assert.match(networkPttBlock(station({ stopped: true, locked: true, identity: bad }))!, /^emergency stop in force/);
    assert.match(networkPttBlock(station({ locked: true, identity: bad }))!, /^the station is locked/);
    assert.equal(networkPttBlock(station({ identity: bad })), 'station callsign not valid: no callsign set');
    assert.equal(networkPttBlock(station({ identity: { valid: false } })), 'station callsign not valid: set the callsign in the APRS settings');
  });

  it('reads the station at each PTT, not once', () => {
    let locked = false;
    const s: TransmitRules = { aprs: { emergencyStopped: false, identity: () => ({ valid: true }) }, access: { locked: () => locked } };
    assert.equal(networkPttBlock(s), null);
    locked = true;
    assert.match(networkPttBlock(s)!, /locked/);
  });
});
