import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sessionStatusText } from '../../ui/components/radio/session-status.js';
import { CONTROL_STATES, SCREEN_STATES } from '../../src/radio/types.js';

// The /radio session chip: screen_state and control_state in one text that never says a word
// twice ("released released", "test test applied" were what a new operator saw), and leaves the
// rig's connection to the page header (issue 33: "idle · rig not connected" said it again).

describe('session status text', () => {
  it('never repeats a word, for every pair of states', () => {
    for (const screen of SCREEN_STATES) {
      for (const control of CONTROL_STATES) {
        const t = sessionStatusText(screen, control);
        const words: string[] = t.toLowerCase().match(/[a-z]+/g) ?? [];
        assert.equal(new Set(words).size, words.length, `${screen}/${control}: "${t}"`);
        assert.ok(words.includes(screen), `${screen}/${control}: "${t}" names the screen state`);
        assert.doesNotMatch(t, /connected/, `${screen}/${control}: "${t}" leaves the rig's connection to the header`);
      }
    }
  });

  it('reads as the operator expects for the pairs the session moves through', () => {
    assert.equal(sessionStatusText('test', 'test_applied'), 'test applied');
    assert.equal(sessionStatusText('released', 'released'), 'released');
    assert.equal(sessionStatusText('armed', 'armed_waiting_aos'), 'armed, waiting for AOS');
    assert.equal(sessionStatusText('active', 'tracking_active'), 'tracking active');
    assert.equal(sessionStatusText('idle', 'connected_idle'), 'idle');
    assert.equal(sessionStatusText('idle', 'not_connected'), 'idle');
    assert.equal(sessionStatusText('completed', 'ended'), 'completed · ended');
  });
});
