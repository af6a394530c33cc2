import { useActions } from '../useActions';
import { usePoll } from '../usePoll';
import type { RotatorState } from '../../lib/rotator';

// The rotator panel's one source of truth: GET /api/v1/rotator/state (it answers a resting
// state without loading the rotator while it is disabled) and the actions under /api/v1/rotator,
// each answering the whole state.

/** The antenna moves a few degrees a second: 1 s shows it turn without flooding the appliance. */
export const ROTATOR_POLL_MS = 1000;

export function useRotator() {
  const poll = usePoll<RotatorState>('/api/v1/rotator/state', ROTATOR_POLL_MS, undefined, { topic: 'rotator' });
  const { busy, outcome, act, forget } = useActions('/api/v1/rotator', () => poll.refresh());
  return { poll, state: poll.data, busy, outcome, act, forget };
}

export type Rotator = ReturnType<typeof useRotator>;
