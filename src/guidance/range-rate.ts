import { iso } from '../util/clock.js';
import { phaseTargetMs } from './phase.js';
import { flatRates, type PhaseRates } from './recommendation.js';
import { PHASES } from './schemas.js';

// Rule 4, pure: the track-path sample nearest each phase's target time; without a pass or a path,
// the current live track; without that, zero.

export type RangeRateSource = 'path' | 'live' | 'none';

/** Target time of each phase (PHASES order): the midpoint of its progress band. */
export function phaseTargets(aos_ms: number, los_ms: number): number[] {
  return PHASES.map((p) => phaseTargetMs(p, aos_ms, los_ms));
}

type PathSample = { t_ms: number; range_rate_km_s: number };

/** The range rate of the path sample nearest each target; null when the path is empty. */
export function nearestRates(path: readonly PathSample[], targets: readonly number[]): number[] | null {
  if (!path.length) return null;
  return targets.map((t) => {
    let best = path[0];
    for (const p of path) if (Math.abs(p.t_ms - t) < Math.abs(best.t_ms - t)) best = p;
    return best.range_rate_km_s;
  });
}

/** The same as PhaseRates, with the target times. */
export function ratesFromPath(path: readonly PathSample[], targets: readonly number[]): PhaseRates | null {
  const rr = nearestRates(path, targets);
  return rr && phaseRatesAt(rr, targets);
}

/** The rates read at each phase's target time (a path's samples, or the pass rates file's entry). */
export function phaseRatesAt(range_rate_km_s: readonly number[], targets: readonly number[]): PhaseRates {
  return { range_rate_km_s, target: targets.map((t) => iso(Math.round(t))) };
}

/** The fallback chain: path rates, else the live track's rate for every phase, else zero. */
export function chooseRates(fromPath: PhaseRates | null, live_range_rate_km_s: number | null): { rates: PhaseRates; source: RangeRateSource } {
  if (fromPath) return { rates: fromPath, source: 'path' };
  if (live_range_rate_km_s !== null && Number.isFinite(live_range_rate_km_s)) return { rates: flatRates(live_range_rate_km_s), source: 'live' };
  return { rates: flatRates(0), source: 'none' };
}
