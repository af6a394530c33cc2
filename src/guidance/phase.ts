import type { Phase, PhaseLabel } from './schemas.js';

// Pass phase classification (spec part 3) and where inside each phase band the range rate is read.

/** Upper bounds of the progress bands: below 20% aos, below 40% early, below 60% mid, below 80% late, else los. */
const BAND_UPPER = [0.2, 0.4, 0.6, 0.8] as const;
const BAND_PHASES: readonly Phase[] = ['aos', 'early', 'mid', 'late', 'los'];

/**
 * Where the range rate is read for each phase: the midpoint of its progress band (10/30/50/70/90%),
 * so each row of the matrix stands for its whole band and the recommendation changes only at a boundary.
 */
export const PHASE_TARGET_FRACTION: Readonly<Record<Phase, number>> = { aos: 0.1, early: 0.3, mid: 0.5, late: 0.7, los: 0.9 };

/** Fraction of the pass done at now_ms (negative before AOS, ≥ 1 after LOS; 1 for a zero-length window). */
export function passProgress(now_ms: number, aos_ms: number, los_ms: number): number {
  const span = los_ms - aos_ms;
  if (!(span > 0)) return now_ms < aos_ms ? -1 : 1;
  return (now_ms - aos_ms) / span;
}

export function phaseOfProgress(progress: number): Phase {
  for (let i = 0; i < BAND_UPPER.length; i++) if (progress < BAND_UPPER[i]) return BAND_PHASES[i];
  return 'los';
}

/** `AOS cue` before AOS, `Tune now` during the pass, `Reference` after LOS or without a pass. */
export function phaseLabel(now_ms: number, aos_ms: number, los_ms: number): PhaseLabel {
  if (now_ms < aos_ms) return 'AOS cue';
  if (now_ms < los_ms) return 'Tune now';
  return 'Reference';
}

export function phaseTargetMs(phase: Phase, aos_ms: number, los_ms: number): number {
  return aos_ms + PHASE_TARGET_FRACTION[phase] * (los_ms - aos_ms);
}

export interface PhaseInfo {
  phase: Phase;
  label: PhaseLabel;
}

/** Phase without a pass: nothing to place the time in, so `aos` (the next event is an AOS) labelled `Reference`. */
export const NO_PASS_PHASE: PhaseInfo = { phase: 'aos', label: 'Reference' };

export function passPhase(now_ms: number, aos_ms: number, los_ms: number): PhaseInfo {
  return { phase: phaseOfProgress(passProgress(now_ms, aos_ms, los_ms)), label: phaseLabel(now_ms, aos_ms, los_ms) };
}
