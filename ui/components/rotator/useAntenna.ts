import { usePoll } from '../usePoll';
import { antennaMarks, type RotatorState } from '../../lib/rotator';
import { ROTATOR_POLL_MS } from './useRotator';

/**
 * The antenna and its target for a sky plot, read from /api/v1/rotator/state only while `on`
 * (the rotator is enabled and a sky plot shows): a station without a rotator polls nothing.
 */
export function useAntenna(on: boolean) {
  const st = usePoll<RotatorState>(on ? '/api/v1/rotator/state' : null, ROTATOR_POLL_MS, undefined, { topic: 'rotator' });
  return antennaMarks(on ? st.data?.runtime : null);
}
