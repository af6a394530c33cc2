import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RIG_MODES } from '../../src/radio/schemas.js';
import { HAMLIB_MODES, hamlibModeOf, stationModeOf } from '../../src/hamlib/station-modes.js';
import { parseMode } from '../../src/ham/hamlib/vocab.js';

// The Hamlib servers set and report the radio's own modes: one list (the radio's RIG_MODES), of
// which hamlib/ only chooses the spelling.
describe('station modes in Hamlib', () => {
  it('every radio mode has a Hamlib name, and that name comes back as the radio mode', () => {
    for (const m of RIG_MODES) {
      const h = hamlibModeOf(m);
      assert.equal(parseMode(h), h, `${m} -> ${h}: a name Hamlib itself prints`);
      assert.equal(stationModeOf(h), m, `${h} back to ${m}`);
    }
  });

  it('\\get_modes and \\dump_state offer exactly the radio modes, each once', () => {
    assert.deepEqual(HAMLIB_MODES, RIG_MODES.map(hamlibModeOf));
    assert.equal(new Set(HAMLIB_MODES).size, RIG_MODES.length);
  });

  it("takes the aliases Hamlib parses (USB-D for PKTUSB) and refuses a mode the station does not set", () => {
    assert.equal(stationModeOf('USB-D'), 'USB-D');
    assert.equal(stationModeOf('CWR'), 'CW-R');
    assert.equal(stationModeOf('D-STAR'), 'DV');
    assert.equal(stationModeOf('WFM'), null);
    assert.equal(stationModeOf('NOPE'), null);
  });

  it('a readback outside the list is passed on as read (the rig in WFM)', () => {
    assert.equal(hamlibModeOf('WFM'), 'WFM');
  });
});
