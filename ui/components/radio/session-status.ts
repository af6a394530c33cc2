import type { CONTROL_STATES, SCREEN_STATES } from '../../../src/radio/types';

// The session's two states as one line an operator reads at a glance. The API keeps
// screen_state (what the rotator screen shows) and control_state (who holds the rig) apart,
// and they often say the same thing ("released" / "released", "test" / "test_applied"):
// shown side by side they read "released released". One text instead: the control state in
// words, with the screen state in front only when the control words do not already say it.
// Whether the rig is connected is the page header's fact, not the session's: not repeated here.

type Screen = (typeof SCREEN_STATES)[number];
type Control = (typeof CONTROL_STATES)[number];

const CONTROL_TEXT: Record<Control, string> = {
  not_connected: '',
  connected_idle: '',
  test_applied: 'test applied',
  armed_waiting_aos: 'armed, waiting for AOS',
  tracking_active: 'tracking active',
  released: 'released',
  ended: 'ended',
};

const wordsOf = (t: string): string[] => t.toLowerCase().match(/[a-z]+/g) ?? [];

export function sessionStatusText(screen: Screen, control: Control): string {
  const detail = CONTROL_TEXT[control];
  if (!detail) return screen;
  return wordsOf(detail).includes(screen) ? detail : `${screen} · ${detail}`;
}
