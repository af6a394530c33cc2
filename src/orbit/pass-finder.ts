import { DEG, EARTH_ROTATION_RAD_S, L_COS_PSI, L_DSIN_EL, L_SIN_EL, LOOK_SIZE, lookFromEci, TimeFrame, VX, VY, VZ, X, Y, Z, type ObserverFrame } from './frames.js';
import { eciAngularRate, type Propagator } from './propagator.js';

// Pass search for one satellite over [from, to): not a blind grid.
//
// Coarse scan. Far from visibility the step is the longer of two safe spans. (1) The angle ψ at
// the Earth's centre between the observer's zenith and the satellite can change no faster than
// (perigee angular rate + Earth rotation), and the satellite is below the horizon while
// ψ > acos(d / r_max): the gap closed at that rate. (2) The satellite stays in its orbit plane, so
// it is at least the zenith's angle to that plane away from the zenith; that angle changes only
// with the Earth's rotation (and the plane's slow drift): most orbits whose ground track runs far
// from the station are passed over in one step. Near the horizon the step is a fixed arc of
// orbital motion (24°, ≈6 min in LEO), far shorter than the half orbit between a low-Earth
// satellite's elevation peak and its trough, so each step holds at most one extremum; sin(el) and
// its exact time derivative (from the velocity) at both ends of a step reveal every rise, set and
// hidden peak inside it.
//
// Refinement: AOS/LOS by Newton's method on sin(el) with its exact derivative, from the root of
// the cubic Hermite through the step's ends (2 ms); the peak by the secant method on
// d sin(el)/dt from the Hermite's turn (0.5 ms, which pins max elevation well inside 0.001° even
// for overhead passes). Whether a peak between two samples below the horizon rises above it needs
// the peak only to a second. Checked against the brute-force reference (test/orbit), and against
// the Brent-refined search of the 8° scan it replaced on the whole 16k active catalogue from five
// places: the same 432k passes with half the SGP4 calls (docs/decisions/orbit.md).

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

/**
 * The plane bound. The zenith turns about the Earth's axis at EARTH_ROTATION_RAD_S·cos(lat), so its
 * angle to a fixed plane changes no faster; the plane itself drifts by nodal regression (J2: under
 * 2e-6 rad/s even for the lowest orbits; lunisolar terms far less), bounded here at twice that. The
 * osculating plane wobbles with J2's short-period terms (~1e-3 rad): the margin is 0.5°.
 */
const PLANE_DRIFT_RAD_S = 4e-6;
const PLANE_MARGIN_RAD = 0.5 * (Math.PI / 180);
const NEAR_ARC_RAD = 24 * (Math.PI / 180);
const MIN_STEP_MS = 10_000;
const MAX_NEAR_STEP_MS = 1_200_000;
const MAX_STEP_MS = 6 * 3600_000;
const TOL_EDGE_MS = 2;
const TOL_PEAK_MS = 0.5;
/** Enough to tell whether a peak between two samples below the horizon rises above it (or a dip sets). */
const TOL_LOOK_MS = 1000;
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

  /**
   * How far (rad) the observer's zenith lies outside the band of the orbit plane the visibility
   * cone allows: the satellite (in its plane) is at least |β| from the zenith, β the zenith's angle
   * to the plane (from r × v at the last evaluation), less PLANE_MARGIN_RAD. ≤ 0: a rise is possible.
   */
  private planeGap(psiH: number): number {
    const st = this.st;
    const hx = st[Y] * st[VZ] - st[Z] * st[VY];
    const hy = st[Z] * st[VX] - st[X] * st[VZ];
    const hz = st[X] * st[VY] - st[Y] * st[VX];
    // The plane's normal in Earth-fixed axes (the rotation lookFromEci applies to r).
    const c = this.tf.cosT;
    const sn = this.tf.sinT;
    const o = this.obs;
    const dot = (c * hx + sn * hy) * o.ux + (-sn * hx + c * hy) * o.uy + hz * o.uz;
    const sinBeta = Math.abs(dot) / Math.sqrt(hx * hx + hy * hy + hz * hz);
    return Math.asin(Math.min(1, sinBeta)) - psiH - PLANE_MARGIN_RAD;
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
    if (!this.prop.usable(i)) return 'propagation_failed';
    const psiH = Math.acos(Math.min(1, this.obs.horizonD / this.prop.rMaxKm[i]));
    const ratePerMs = this.prop.rateMax[i] / 1000;
    const o = this.obs;
    const planeRatePerMs = (EARTH_ROTATION_RAD_S * Math.sqrt(o.ux * o.ux + o.uy * o.uy) + PLANE_DRIFT_RAD_S) / 1000;
    if (!this.evalAt(i, from)) return 'propagation_failed';
    let pT = from;
    let pF = lk[L_SIN_EL];
    let pD = lk[L_DSIN_EL];
    let pNear = this.nearStep();
    let pG = Math.acos(lk[L_COS_PSI]) - psiH;
    let pX = this.planeGap(psiH);
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
      // Either bound rules out a rise for its span; the larger wins.
      if (free && pG > 0 && pG / ratePerMs > dt) dt = pG / ratePerMs;
      if (free && pX > 0 && pX / planeRatePerMs > dt) dt = pX / planeRatePerMs;
      if (dt > MAX_STEP_MS) dt = MAX_STEP_MS;
      let nT = pT + dt;
      if (free && nT > end) nT = end;
      if (!this.evalAt(i, nT)) return 'propagation_failed';
      const nF = lk[L_SIN_EL];
      const nD = lk[L_DSIN_EL];
      const nNear = this.nearStep();
      const nG = Math.acos(lk[L_COS_PSI]) - psiH;
      const nX = this.planeGap(psiH);
      if (upWithoutAos) {
        if (nF < 0) upWithoutAos = false; // it set; its AOS was never seen
      } else if (!inPass) {
        if (nF >= 0) {
          const a = this.edge(i, pT, pF, pD, nT, nF, nD);
          if (a !== a) return 'propagation_failed';
          this.startPass(a);
          if (pD > 0 && nD < 0 && !this.peakIn(i, pT, pF, pD, nT, nF, nD)) return 'propagation_failed';
          this.sampleCandidate(nT, nF);
          inPass = true;
        } else if (pD > 0 && nD < 0 && !(pG > 0 && nT - pT <= pG / ratePerMs) && !(pX > 0 && nT - pT <= pX / planeRatePerMs)) {
          // A peak hides between two below-horizon samples: a short pass may lie inside. Whether it
          // rises needs the peak only roughly (TOL_LOOK_MS); a pass found has its peak pinned.
          let m = this.turn(i, pT, pF, pD, nT, nF, nD, TOL_LOOK_MS);
          if (m !== m || !this.evalAt(i, m)) return 'propagation_failed';
          let mF = lk[L_SIN_EL];
          if (mF > 0) {
            m = this.turn(i, pT, pF, pD, nT, nF, nD, TOL_PEAK_MS);
            if (m !== m || !this.evalAt(i, m)) return 'propagation_failed';
            mF = lk[L_SIN_EL];
            const mD = lk[L_DSIN_EL];
            const a = this.edge(i, pT, pF, pD, m, mF, mD);
            const l = this.edge(i, m, mF, mD, nT, nF, nD);
            if (a !== a || l !== l) return 'propagation_failed';
            if (a < end) sink.add(i, a, m, l, Math.asin(mF) * DEG);
          }
        }
      } else {
        if (pD > 0 && nD < 0 && !this.peakIn(i, pT, pF, pD, nT, nF, nD)) return 'propagation_failed';
        if (nF < 0) {
          const l = this.edge(i, pT, pF, pD, nT, nF, nD);
          if (l !== l) return 'propagation_failed';
          this.emit(i, l, end, sink);
          inPass = false;
        } else if (pD < 0 && nD > 0) {
          // A dip between two above-horizon samples: it may set and rise again inside.
          const m = this.turn(i, pT, pF, pD, nT, nF, nD, TOL_LOOK_MS);
          if (m !== m || !this.evalAt(i, m)) return 'propagation_failed';
          const mF = lk[L_SIN_EL];
          const mD = lk[L_DSIN_EL];
          if (mF < 0) {
            const l = this.edge(i, pT, pF, pD, m, mF, mD);
            const a = this.edge(i, m, mF, mD, nT, nF, nD);
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
      pX = nX;
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
  private peakIn(i: number, a: number, fa: number, da: number, b: number, fb: number, db: number): boolean {
    const m = this.turn(i, a, fa, da, b, fb, db, TOL_PEAK_MS);
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
      if (aD > 0 && bD < 0 && !this.peakIn(i, aT, aF, aD, bT, bF, bD)) return FAIL;
      if (aF < 0) {
        const a = this.edge(i, aT, aF, aD, bT, bF, bD);
        if (a !== a) return FAIL;
        this.aosT = a;
        return FOUND;
      }
      if (aD < 0 && bD > 0) {
        const m = this.turn(i, aT, aF, aD, bT, bF, bD, TOL_LOOK_MS);
        if (m !== m || !this.evalAt(i, m)) return FAIL;
        const mF = lk[L_SIN_EL];
        if (mF < 0) {
          const a = this.edge(i, m, mF, lk[L_DSIN_EL], bT, bF, bD);
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
   * AOS or LOS: the sign change of sin(el) in [a0, b0], given sin(el) and its exact time
   * derivative (1/s) at both ends (0 where unknown: the derivative of sin(el) is 0 at a peak or a
   * dip). The first guess is the root of the cubic Hermite through both ends; then Newton's method
   * on SGP4 with the derivative every evaluation gives anyway, kept inside the bracket (a step
   * that leaves it bisects). Quadratic convergence: two or three evaluations to 2 ms where Brent's
   * method without the derivative took six to ten. Offsets from a0 keep full precision. NaN on
   * SGP4 failure.
   */
  private edge(i: number, a0: number, fa: number, da: number, b0: number, fb: number, db: number): number {
    if (fb === 0) return b0;
    if (fa === 0) return a0;
    let lo = 0;
    let hi = b0 - a0;
    const loNeg = fa < 0;
    let x = hermiteRoot(fa, (da * hi) / 1000, fb, (db * hi) / 1000) * hi;
    for (let iter = 0; iter < 60; iter++) {
      if (!this.evalAt(i, a0 + x)) return Number.NaN;
      const f = this.lk[L_SIN_EL];
      if (f === 0) return a0 + x;
      if (f < 0 === loNeg) lo = x;
      else hi = x;
      const d = this.lk[L_DSIN_EL] / 1000;
      const newton = x - f / d;
      const next = d !== 0 && newton > lo && newton < hi ? newton : 0.5 * (lo + hi);
      if (Math.abs(next - x) <= TOL_EDGE_MS * 0.5 || hi - lo <= TOL_EDGE_MS) return a0 + next;
      x = next;
    }
    return a0 + x;
  }

  /**
   * A peak or a dip: where d sin(el)/dt changes sign in (a0, b0), given sin(el) and its derivative
   * (1/s) at both ends. The first guess is the turn of the cubic Hermite through both ends; then
   * the secant method on the derivative (the last two evaluations), kept inside the bracket (a
   * step that leaves it bisects), until a step is under tol/2 or the bracket under tol. Offsets
   * from a0 keep full precision. NaN on SGP4 failure.
   */
  private turn(i: number, a0: number, fa: number, da: number, b0: number, fb: number, db: number, tol: number): number {
    let lo = 0;
    let hi = b0 - a0;
    const loUp = da > 0;
    const h = hi / 1000;
    // p(s) on [0, 1]; its derivative c1 + 2 c2 s + 3 c3 s² turns where the pass peaks (or dips).
    const c1 = da * h;
    const d1 = db * h;
    let x = polyRoot01(c1, 2 * hermiteC2(fa, c1, fb, d1), 3 * hermiteC3(fa, c1, fb, d1), 0) * hi;
    // The secant's other point: the bracket end nearer the guess.
    let px = x - lo < hi - x ? lo : hi;
    let pd = px === lo ? da : db;
    for (let iter = 0; iter < 60; iter++) {
      if (!this.evalAt(i, a0 + x)) return Number.NaN;
      const d = this.lk[L_DSIN_EL];
      if (d === 0) return a0 + x;
      if (d > 0 === loUp) lo = x;
      else hi = x;
      const sec = d !== pd ? x - (d * (x - px)) / (d - pd) : Number.NaN;
      const next = sec > lo && sec < hi ? sec : 0.5 * (lo + hi);
      if (Math.abs(next - x) <= tol * 0.5 || hi - lo <= tol) return a0 + next;
      px = x;
      pd = d;
      x = next;
    }
    return a0 + x;
  }
}

/**
 * The root in (0, 1) of the cubic Hermite with values f0, f1 and derivatives d0, d1 (per unit of
 * the interval) at 0 and 1, f0 and f1 of opposite signs. Only a first guess (no SGP4).
 */
function hermiteRoot(f0: number, d0: number, f1: number, d1: number): number {
  return polyRoot01(f0, d0, hermiteC2(f0, d0, f1, d1), hermiteC3(f0, d0, f1, d1));
}

/** The cubic Hermite f0 + d0 s + c2 s² + c3 s³ on [0, 1] with values f0, f1 and derivatives d0, d1 at its ends: c2. */
const hermiteC2 = (f0: number, d0: number, f1: number, d1: number): number => -3 * f0 - 2 * d0 + 3 * f1 - d1;
/** … and c3. */
const hermiteC3 = (f0: number, d0: number, f1: number, d1: number): number => 2 * f0 + d0 - 2 * f1 + d1;

/**
 * A root in (0, 1) of c0 + c1 s + c2 s² + c3 s³, whose values at 0 and 1 have opposite signs:
 * eight Newton steps from the secant's root, bisecting when a step leaves the bracket.
 */
function polyRoot01(c0: number, c1: number, c2: number, c3: number): number {
  let lo = 0;
  let hi = 1;
  const loNeg = c0 < 0;
  const p1 = c0 + c1 + c2 + c3;
  let s = c0 / (c0 - p1);
  if (!(s > 0 && s < 1)) s = 0.5;
  for (let k = 0; k < 8; k++) {
    const p = c0 + s * (c1 + s * (c2 + s * c3));
    if (p < 0 === loNeg) lo = s;
    else hi = s;
    const dp = c1 + s * (2 * c2 + s * 3 * c3);
    const n = s - p / dp;
    s = dp !== 0 && n > lo && n < hi ? n : 0.5 * (lo + hi);
  }
  return s;
}
