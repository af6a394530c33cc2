import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { antennaMarks, rotatorLine, skyPointing, type RotatorSummary } from '../../ui/lib/rotator.js';

// What the pages make of the rotator's controller coordinates (issue 25), without a browser.

const summary = (o: Partial<RotatorSummary> = {}): RotatorSummary => ({
  enabled: true,
  connected: true,
  control_mode: 'manual',
  az_deg: 370,
  el_deg: 20,
  target_az_deg: 30,
  target_el_deg: 25,
  moving: true,
  active_sat_id: null,
  focused: false,
  last_error: null,
  ...o,
});

describe('rotator pointing on a sky plot', () => {
  it('an overlap azimuth is its compass direction; south-stop negatives wrap', () => {
    assert.deepEqual(skyPointing(370, 20), { az_deg: 10, el_deg: 20 });
    assert.deepEqual(skyPointing(-90, 5), { az_deg: 270, el_deg: 5 });
  });
  it('over the top (elevation above 90) points at the opposite azimuth', () => {
    assert.deepEqual(skyPointing(10, 120), { az_deg: 190, el_deg: 60 });
    assert.deepEqual(skyPointing(300, 180), { az_deg: 120, el_deg: 0 });
  });
  it('nothing is drawn before the first read-back or while no controller answers', () => {
    assert.equal(skyPointing(null, 10), null);
    assert.deepEqual(antennaMarks(summary({ connected: false })), { antenna: null, target: null });
    assert.deepEqual(antennaMarks(summary()), { antenna: { az_deg: 10, el_deg: 20 }, target: { az_deg: 30, el_deg: 25 } });
  });
});

describe('the /lite rotator one-liner', () => {
  it('no line while disabled; the error first; position, target while moving, mode', () => {
    assert.equal(rotatorLine(summary({ enabled: false })), null);
    assert.equal(rotatorLine(undefined), null);
    assert.deepEqual(rotatorLine(summary({ last_error: 'the controller did not answer' })), { text: 'rotator: the controller did not answer', tone: 'bad', short: 'rotator error' });
    assert.deepEqual(rotatorLine(summary({ connected: false })), { text: 'rotator: not connected', tone: 'idle', short: 'no rotator' });
    assert.deepEqual(rotatorLine(summary()), { text: 'rotator: 370°/20° → 30°/25° · manual', tone: 'ok', short: 'rot 370°/20°' });
    assert.deepEqual(rotatorLine(summary({ control_mode: 'tracking', active_sat_id: 'iss', focused: true, moving: false })), { text: 'rotator: 370°/20° · tracking iss', tone: 'ok', short: 'rot 370°/20°' });
    assert.equal(rotatorLine(summary({ control_mode: 'stopped', moving: false }))!.tone, 'warn');
  });
});
