import { DEG, L_COS_PSI, L_DSIN_EL, L_SIN_EL, LOOK_SIZE, lookFromEci, TimeFrame, type ObserverFrame } from './frames.js';
import { eciAngularRate, type Propagator } from './propagator.js';

// Pass search for one satellite over [from, to): not a blind grid.
//
// Coarse scan. Far from visibility the step is the time the satellite needs, at its fastest,
// to close the angular gap to the horizon: the angle ψ at the Earth's centre between the
// observer's zenith and the satellite can change no faster than (perigee angular rate + Earth
// rotation), and the satellite is below the horizon while ψ > acos(d / r_max). That bound makes
// big far steps safe. Near the horizon the step is a fixed arc of orbital motion (8°, ≈2 min in
// LEO) so each step holds at most one elevation extremum; sin(el) and its exact time derivative
// (from the velocity) at both ends of a step reveal every rise, set and hidden peak inside it.
//
// Refinement: Brent's method on sin(el) for AOS/LOS (2 ms) and on d sin(el)/dt for the peak
// (0.5 ms, which pins max elevation well inside 0.001° even for overhead passes).

export interface PassSink {
  add(sat: number, aos_ms: number, tca_ms: number, los_ms: number, max_el_deg: number): void;
}

export interface SearchLimits {
  /** How far back to look for the true AOS of a pass under way at the window start. */
  maxLookbackMs: number;
  /** How far past the window end to follow a pass to its true LOS. */
  maxLookaheadMs: number;
}

export const DEFAULT_LIMITS: SearchLimits = { maxLookbackMs: 24 * 3600_000, maxLookaheadMs: 24 * 3600_000 };

export type SearchOutcome = 'ok' | 'propagation_failed';

const NEAR_ARC_RAD = 8 * (Math.PI / 180);
const MIN_STEP_MS = 10_000;
const MAX_NEAR_STEP_MS = 1_200_000;
const MAX_STEP_MS = 6 * 3600_000;
const TOL_EDGE_MS = 2;
const TOL_PEAK_MS = 0.5;
const FAIL = -1;
const NONE = 0;
const FOUND = 1;

export class PassFinder {
  /** SGP4 evaluations so far (bench and tests read it). */
  evaluations = 0;
  private readonly st = new Float64Array(6);
  private readonly lk = new Float64Array(LOOK_SIZE);
  private readonly tf = new TimeFrame();
  // Running best peak of the current pass.
  private bestF = -2;
  private bestT = Number.NaN;
  private aosT = Number.NaN;

  constructor(
    readonly prop: Propagator,
    readonly obs: ObserverFrame,
    readonly limits: SearchLimits = DEFAULT_LIMITS,
  ) {}

  /** Propagate and look at t; false when SGP4 fails. Results in this.lk / this.st. */
  private evalAt(i: number, t: number): boolean {
    this.evaluations++;
    if (!this.prop.propagate(i, t, this.st)) return false;
    lookFromEci(this.obs, this.tf.set(t, false), this.st, this.lk, false);
    return true;
  }

  private nearStep(): number {
    const ms = NEAR_ARC_RAD / eciAngularRate(this.st) * 1000;
    return ms < MIN_STEP_MS ? MIN_STEP_MS : ms > MAX_NEAR_STEP_MS ? MAX_NEAR_STEP_MS : ms;
  }

  /**
   * Passes of satellite i with AOS in [from, to), plus the one under way at `from` (true AOS
   * found up to maxLookbackMs back). A pass running past `to` is followed to its true LOS.
   * A satellite that stays up for the whole lookback or lookahead has no AOS or LOS there and
   * yields no pass for that stretch. On an SGP4 failure part way the passes already completed
   * are kept and the search stops.
   */
  search(i: number, from: number, to: number, sink: PassSink): SearchOutcome {
    const lk = this.lk;
    if (!this.prop.rec(i)) return 'propagation_failed';
    const psiH = Math.acos(Math.min(1, this.obs.horizonD / this.prop.rMaxKm[i]));
    const ratePerMs = this.prop.rateMax[i] / 1000;
    if (!this.evalAt(i, from)) return 'propagation_failed';
    let pT = from;
    let pF = lk[L_SIN_EL];
    let pD = lk[L_DSIN_EL];
    let pNear = this.nearStep();
    let pG = Math.acos(lk[L_COS_PSI]) - psiH;
    let inPass = false;
    let upWithoutAos = false;
    if (pF >= 0) {
      const r = this.backToAos(i, from, pF, pD, pNear);
      if (r === FAIL) return 'propagation_failed';
      if (r === FOUND) inPass = true;
      else upWithoutAos = true;
    }
    const end = to;
    const lastLos = to + this.limits.maxLookaheadMs;
    for (;;) {
      if (!inPass && pT >= end) break;
      if (pT >= lastLos) break; // never set within the lookahead: no LOS, no pass
      let dt = pNear;
      const free = !inPass && !upWithoutAos;
      if (free && pG > 0) {
        const safe = pG / ratePerMs;
        if (safe > dt) dt = safe;
      }
      if (dt > MAX_STEP_MS) dt = MAX_STEP_MS;
      let nT = pT + dt;
      if (free && nT > end) nT = end;
      if (!this.evalAt(i, nT)) return 'propagation_failed';
      const nF = lk[L_SIN_EL];
      const nD = lk[L_DSIN_EL];
      const nNear = this.nearStep();
      const nG = Math.acos(lk[L_COS_PSI]) - psiH;
      if (upWithoutAos) {
        if (nF < 0) upWithoutAos = false; // it set; its AOS was never seen
      } else if (!inPass) {
        if (nF >= 0) {
          const a = this.root(i, pT, pF, nT, nF, L_SIN_EL, TOL_EDGE_MS);
          if (a !== a) return 'propagation_failed';
          this.startPass(a);
          if (pD > 0 && nD < 0 && !this.peakIn(i, pT, pD, nT, nD)) return 'propagation_failed';
          this.sampleCandidate(nT, nF);
          inPass = true;
        } else if (pD > 0 && nD < 0 && !(pG > 0 && nT - pT <= pG / ratePerMs)) {
          // A peak hides between two below-horizon samples: a short pass may lie inside.
          const m = this.root(i, pT, pD, nT, nD, L_DSIN_EL, TOL_PEAK_MS);
          if (m !== m || !this.evalAt(i, m)) return 'propagation_failed';
          const mF = lk[L_SIN_EL];
          if (mF > 0) {
            const a = this.root(i, pT, pF, m, mF, L_SIN_EL, TOL_EDGE_MS);
            const l = this.root(i, m, mF, nT, nF, L_SIN_EL, TOL_EDGE_MS);
            if (a !== a || l !== l) return 'propagation_failed';
            if (a < end) sink.add(i, a, m, l, Math.asin(mF) * DEG);
          }
        }
      } else {
        if (pD > 0 && nD < 0 && !this.peakIn(i, pT, pD, nT, nD)) return 'propagation_failed';
        if (nF < 0) {
          const l = this.root(i, pT, pF, nT, nF, L_SIN_EL, TOL_EDGE_MS);
          if (l !== l) return 'propagation_failed';
          this.emit(i, l, end, sink);
          inPass = false;
        } else if (pD < 0 && nD > 0) {
          // A dip between two above-horizon samples: it may set and rise again inside.
          const m = this.root(i, pT, pD, nT, nD, L_DSIN_EL, TOL_PEAK_MS);
          if (m !== m || !this.evalAt(i, m)) return 'propagation_failed';
          const mF = lk[L_SIN_EL];
          if (mF < 0) {
            const l = this.root(i, pT, pF, m, mF, L_SIN_EL, TOL_EDGE_MS);
            const a = this.root(i, m, mF, nT, nF, L_SIN_EL, TOL_EDGE_MS);
            if (a !== a || l !== l) return 'propagation_failed';
            this.emit(i, l, end, sink);
            this.startPass(a);
          }
          this.sampleCandidate(nT, nF);
        } else {
          this.sampleCandidate(nT, nF);
        }
      }
      pT = nT;
      pF = nF;
      pD = nD;
      pNear = nNear;
      pG = nG;
    }
    return 'ok';
  }

  private startPass(aos: number): void {
    this.aosT = aos;
    this.bestF = -2;
    this.bestT = Number.NaN;
  }

  private sampleCandidate(t: number, f: number): void {
    if (f > this.bestF) {
      this.bestF = f;
      this.bestT = t;
    }
  }

  /** Refines the peak inside (a, b) where d sin(el)/dt goes from + to −. */
  private peakIn(i: number, a: number, da: number, b: number, db: number): boolean {
    const m = this.root(i, a, da, b, db, L_DSIN_EL, TOL_PEAK_MS);
    if (m !== m || !this.evalAt(i, m)) return false;
    this.sampleCandidate(m, this.lk[L_SIN_EL]);
    return true;
  }

  private emit(i: number, los: number, end: number, sink: PassSink): void {
    if (this.aosT < end) sink.add(i, this.aosT, this.bestT, los, Math.asin(Math.min(1, this.bestF)) * DEG);
  }

  /** Walks back from `from` (above the horizon) to the true AOS. */
  private backToAos(i: number, from: number, fF: number, fD: number, near: number): number {
    const lk = this.lk;
    this.startPass(Number.NaN);
    this.sampleCandidate(from, fF);
    let bT = from;
    let bF = fF;
    let bD = fD;
    let bNear = near;
    while (from - bT < this.limits.maxLookbackMs) {
      const aT = bT - bNear;
      if (!this.evalAt(i, aT)) return FAIL;
      const aF = lk[L_SIN_EL];
      const aD = lk[L_DSIN_EL];
      const aNear = this.nearStep();
      if (aD > 0 && bD < 0 && !this.peakIn(i, aT, aD, bT, bD)) return FAIL;
      if (aF < 0) {
        const a = this.root(i, aT, aF, bT, bF, L_SIN_EL, TOL_EDGE_MS);
        if (a !== a) return FAIL;
        this.aosT = a;
        return FOUND;
      }
      if (aD < 0 && bD > 0) {
        const m = this.root(i, aT, aD, bT, bD, L_DSIN_EL, TOL_PEAK_MS);
        if (m !== m || !this.evalAt(i, m)) return FAIL;
        const mF = lk[L_SIN_EL];
        if (mF < 0) {
          const a = this.root(i, m, mF, bT, bF, L_SIN_EL, TOL_EDGE_MS);
          if (a !== a) return FAIL;
          this.aosT = a;
          return FOUND;
        }
      }
      this.sampleCandidate(aT, aF);
      bT = aT;
      bF = aF;
      bD = aD;
      bNear = aNear;
    }
    return NONE;
  }

  /**
   * Brent's method for a sign change of lk[k] in [a, b] (fa, fb of opposite signs or fb = 0).
   * Works in offsets from `a` so millisecond tolerances keep full precision. NaN on SGP4 failure.
   */
  private root(i: number, a0: number, fa: number, b0: number, fb: number, k: number, tol: number): number {
    let a = 0;
    let b = b0 - a0;
    let c = b;
    let fc = fb;
    let d = b - a;
    let e = d;
    for (let iter = 0; iter < 100; iter++) {
      if ((fb > 0 && fc > 0) || (fb < 0 && fc < 0)) {
        c = a;
        fc = fa;
        e = d = b - a;
      }
      if (Math.abs(fc) < Math.abs(fb)) {
        a = b;
        b = c;
        c = a;
        fa = fb;
        fb = fc;
        fc = fa;
      }
      const tol1 = 0.5 * tol;
      const xm = 0.5 * (c - b);
      if (Math.abs(xm) <= tol1 || fb === 0) return a0 + b;
      if (Math.abs(e) >= tol1 && Math.abs(fa) > Math.abs(fb)) {
        const s = fb / fa;
        let p: number;
        let q: number;
        if (a === c) {
          p = 2 * xm * s;
          q = 1 - s;
        } else {
          const qq = fa / fc;
          const r = fb / fc;
          p = s * (2 * xm * qq * (qq - r) - (b - a) * (r - 1));
          q = (qq - 1) * (r - 1) * (s - 1);
        }
        if (p > 0) q = -q;
        p = Math.abs(p);
        const min1 = 3 * xm * q - Math.abs(tol1 * q);
        const min2 = Math.abs(e * q);
        if (2 * p < (min1 < min2 ? min1 : min2)) {
          e = d;
          d = p / q;
        } else {
          d = xm;
          e = d;
        }
      } else {
        d = xm;
        e = d;
      }
      a = b;
      fa = fb;
      b += Math.abs(d) > tol1 ? d : xm > 0 ? tol1 : -tol1;
      if (!this.evalAt(i, a0 + b)) return Number.NaN;
      fb = this.lk[k];
    }
    return a0 + b;
  }
}
