import type { DeveloperOverrides } from '../../../src/station/developer-overrides';

// Which scene the kiosk shows, pure: a pass of the tracked set under way pins the live-pass
// scene; otherwise the rotating scenes take turns, each for its dwell, skipping those with
// nothing to show; developer overrides (when enabled) replace the choice.

export type Scene = 'upcoming' | 'pass' | 'iss' | 'radio' | 'aprs';
export type RotatingScene = 'upcoming' | 'iss' | 'radio';

/** Every timing of the kiosk in one table (ms). */
export const TIMING = {
  dwell: { upcoming: 20_000, iss: 20_000, radio: 15_000 } as Record<RotatingScene, number>,
  snapshotPoll: 5_000,
  systemPoll: 10_000,
  overridesPoll: 30_000,
  passesPoll: 60_000,
  issPathPoll: 120_000,
};

export const ROTATION: readonly RotatingScene[] = ['upcoming', 'iss', 'radio'];

export const SCENE_LABEL: Record<Scene, string> = { upcoming: 'Next passes', pass: 'Pass', iss: 'ISS', radio: 'Radio', aprs: 'APRS' };

/** force_scene values → scenes: `lite` is the lite page's focus-pass view, i.e. the pass scene. */
export const FORCED_SCENE: Record<NonNullable<DeveloperOverrides['force_scene']>, Scene> = {
  overview: 'upcoming',
  pass: 'pass',
  iss_video: 'iss',
  radio: 'radio',
  aprs: 'aprs',
  lite: 'pass',
};

/** simulate_pass_phase → where "now" sits inside the pass (the middle of each fifth). */
export const PHASE_FRACTION: Record<NonNullable<DeveloperOverrides['simulate_pass_phase']>, number> = {
  aos: 0.1,
  early: 0.3,
  mid: 0.5,
  late: 0.7,
  los: 0.9,
};

export interface Timed {
  sat_id: string;
  aos: string;
  los: string;
}

/** The pass under way at `now` (the earliest AOS, so it holds until its LOS), or null. */
export function livePass<P extends Timed>(passes: readonly P[] | undefined, now: number): P | null {
  return passes?.find((p) => Date.parse(p.aos) <= now && now < Date.parse(p.los)) ?? null;
}

export interface RotationState {
  scene: RotatingScene;
  /** When the scene came up (ms): the progress bar runs from here for its dwell. */
  since: number;
}

/**
 * The rotating scene at `now`. Keeps the current one for its dwell, then moves to the next
 * available one in ROTATION order; a scene that lost its content is left at once. While
 * `paused` (a pinned or forced scene) the clock restarts, so the rotation resumes with a full dwell.
 */
export function rotate(prev: RotationState | null, available: readonly RotatingScene[], now: number, paused: boolean): RotationState {
  const first = available[0] ?? 'upcoming';
  if (!prev) return { scene: first, since: now };
  if (paused) return prev.since === now ? prev : { scene: prev.scene, since: now };
  const here = available.includes(prev.scene);
  if (here && now - prev.since < TIMING.dwell[prev.scene]) return prev;
  const from = ROTATION.indexOf(prev.scene);
  for (let i = 1; i <= ROTATION.length; i++) {
    const next = ROTATION[(from + i) % ROTATION.length];
    if (available.includes(next)) return { scene: next, since: now };
  }
  return { scene: first, since: now };
}
