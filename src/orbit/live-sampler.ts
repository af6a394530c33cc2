import { iso } from '../util/clock.js';
import { DEG, isSunlit, L_AZ, L_RANGE, L_RANGE_RATE, L_SIN_EL, LOOK_SIZE, lookFromEci, type ObserverFrame, type TimeFrame } from './frames.js';
import type { Propagator } from './propagator.js';
import type { LiveSample } from './types.js';

// One satellite's look from the observer at one instant, into scratch arrays (no allocation but
// the sample returned): the orbit engine's live samples and paths, and the whole-catalogue /live
// on a worker thread (live-all-job.ts), read the sky through the same code.

export const round = (x: number, d: number) => {
  const f = 10 ** d;
  return Math.round(x * f) / f;
};

export class LiveSampler {
  /** The last state vector (TEME km, km/s) look() propagated. */
  readonly st = new Float64Array(6);
  /** The last look (frames.ts L_* layout). */
  readonly lk = new Float64Array(LOOK_SIZE);

  constructor(readonly prop: Propagator) {}

  /** Look at satellite i for the time already set in tf; false when SGP4 fails. */
  look(i: number, obs: ObserverFrame, tf: TimeFrame): boolean {
    if (!this.prop.propagate(i, tf.t_ms, this.st)) return false;
    lookFromEci(obs, tf, this.st, this.lk, true);
    return true;
  }

  sample(i: number, obs: ObserverFrame, tf: TimeFrame): LiveSample | null {
    if (!this.look(i, obs, tf)) return null;
    const lk = this.lk;
    return {
      sat_id: this.prop.ids[i],
      name: this.prop.names[i],
      timestamp: iso(tf.t_ms),
      az_deg: round(lk[L_AZ] * DEG, 4),
      el_deg: round(Math.asin(lk[L_SIN_EL]) * DEG, 4),
      range_km: round(lk[L_RANGE], 3),
      range_rate_km_s: round(lk[L_RANGE_RATE], 6),
      sunlit: isSunlit(tf, this.st),
    };
  }
}
