import { canFlip, controllerRange, type ControllerRange } from './controller-range.js';
import type { FlipMode, Keyhole, RotatorLimits } from './types.js';

// The choice made once per pass: which flip mode, which keyhole direction, which turn of the cable.
// Every candidate is a controller azimuth path over the pass samples; the one chosen stays inside
// the limits without unwinding and moves the least (a flip or the overlap only when they help).

/** A pass reaching this elevation has a zenith keyhole: its azimuth rate near TCA outruns any rotator. */
export const KEYHOLE_MAX_EL_DEG = 80;
/** Inside the keyhole (elevation above this) the azimuth is not chased: it moves steadily to the far side (or holds, over the top). */
export const KEYHOLE_WINDOW_EL_DEG = 70;

/** The pass sampled at a fixed step from AOS: compass azimuth and elevation, degrees. */
export interface PassSamples {
  t0_ms: number;
  step_ms: number;
  az: Float64Array;
  el: Float64Array;
}

export interface Choice {
  mode: FlipMode;
  switch_ms: number;
  keyhole: Keyhole | null;
  az: Float64Array;
  overlap: boolean;
  unwind: boolean;
}

interface Candidate {
  mode: FlipMode;
  switch_ms: number;
  keyhole: Keyhole | null;
  az: Float64Array;
  /** Cost besides azimuth travel: the elevation jump at a flip switch, a small preference for plain pointing. */
  extra: number;
}

const EPS = 1e-6;
const FLIP_PENALTY_DEG = 1;
const OVERLAP_PENALTY_DEG = 0.5;

export function choosePath(s: PassSamples, limits: RotatorLimits): Choice {
  const range = controllerRange(limits);
  const n = s.az.length;
  let peak = 0;
  for (let i = 1; i < n; i++) if (s.el[i] > s.el[peak]) peak = i;
  const maxEl = s.el[peak];
  const window = maxEl >= KEYHOLE_MAX_EL_DEG ? keyholeWindow(s, peak) : null;
  const cands: Candidate[] = [];
  if (window) cands.push(...keyholeCandidates(s, window, 'normal', Number.NaN, 0));
  else cands.push(plain(s, 'normal', Number.NaN, 0));
  if (canFlip(limits)) {
    if (window) {
      // Over the top from the peak on (or up to it): where the compass azimuth swings by ~180°
      // the controller azimuth holds, and the elevation jumps by 180 − 2·max el (≤ 20°) at the switch.
      const sw = s.t0_ms + peak * s.step_ms;
      const extra = 180 - 2 * Math.min(90, maxEl) + FLIP_PENALTY_DEG;
      cands.push(...keyholeCandidates(s, window, 'flip_after', sw, extra), ...keyholeCandidates(s, window, 'flip_before', sw, extra));
    } else cands.push(plain(s, 'flipped', Number.NaN, FLIP_PENALTY_DEG));
  }
  let best: Choice | null = null;
  let bestCost = Infinity;
  for (const c of cands) {
    const travel = travelOf(c.az) + c.extra;
    for (const shift of turnShifts(c.az, range)) {
      const overlap = usesOverlap(c.az, shift, range);
      const cost = travel + (overlap ? OVERLAP_PENALTY_DEG : 0);
      if (cost < bestCost) {
        bestCost = cost;
        best = { mode: c.mode, switch_ms: c.switch_ms, keyhole: shiftKeyhole(c.keyhole, shift), az: shifted(c.az, shift), overlap, unwind: false };
      }
    }
  }
  return best ?? unwound(cands[0], range);
}

/** Whether flipped pointing applies at t under a mode. */
export function flippedAt(mode: FlipMode, switch_ms: number, t_ms: number): boolean {
  return mode === 'flipped' || (mode === 'flip_after' && t_ms >= switch_ms) || (mode === 'flip_before' && t_ms < switch_ms);
}

/**
 * The compass path (flipped where the mode says) unwrapped into a continuous controller azimuth.
 * Samples strictly inside `skip` are not followed (the keyhole fills them): the unwrap steps from
 * its first sample straight to its last.
 */
function plain(s: PassSamples, mode: FlipMode, switch_ms: number, extra: number, skip?: [number, number]): Candidate {
  const az = new Float64Array(s.az.length);
  let prev = Number.NaN;
  for (let i = 0; i < az.length; i++) {
    if (skip && i > skip[0] && i < skip[1]) continue;
    const raw = s.az[i] + (flippedAt(mode, switch_ms, s.t0_ms + i * s.step_ms) ? 180 : 0);
    prev = i === 0 ? raw % 360 : raw + 360 * Math.round((prev - raw) / 360);
    az[i] = prev;
  }
  return { mode, switch_ms, keyhole: null, az, extra };
}

/** The samples bounding the part of a high pass above KEYHOLE_WINDOW_EL_DEG (null when too short to matter). */
function keyholeWindow(s: PassSamples, peak: number): [number, number] | null {
  const n = s.az.length;
  let a = peak;
  while (a > 0 && s.el[a - 1] >= KEYHOLE_WINDOW_EL_DEG) a--;
  let b = peak;
  while (b < n - 1 && s.el[b + 1] >= KEYHOLE_WINDOW_EL_DEG) b++;
  const i0 = Math.max(0, a - 1);
  const i1 = Math.min(n - 1, b + 1);
  return i1 - i0 < 2 ? null : [i0, i1];
}

/**
 * A high pass: inside the keyhole window the controller azimuth is not chased, it runs at a steady
 * rate from its value at entry to its value at exit (without flip: the rotator is already turning
 * toward the far side before the zenith; over the top: it barely moves). Where the turn between
 * entry and exit is large it could go either way round, and only the limits decide: two candidates.
 */
function keyholeCandidates(s: PassSamples, w: [number, number], mode: FlipMode, switch_ms: number, extra: number): Candidate[] {
  const [i0, i1] = w;
  const base = plain(s, mode, switch_ms, extra, w);
  const n = s.az.length;
  const out: Candidate[] = [];
  const swing = base.az[i1] - base.az[i0];
  for (const turn of Math.abs(swing) > 90 ? [0, -360 * Math.sign(swing)] : [0]) {
    const az = base.az.slice();
    for (let i = i1; i < n; i++) az[i] += turn;
    const inDeg = az[i0];
    const outDeg = az[i1];
    for (let i = i0 + 1; i < i1; i++) az[i] = inDeg + ((outDeg - inDeg) * (i - i0)) / (i1 - i0);
    const keyhole = { start_ms: s.t0_ms + i0 * s.step_ms, end_ms: s.t0_ms + i1 * s.step_ms, az_in_deg: inDeg, az_out_deg: outDeg };
    out.push({ mode, switch_ms, keyhole, az, extra });
  }
  return out;
}

function travelOf(az: Float64Array): number {
  let t = 0;
  for (let i = 1; i < az.length; i++) t += Math.abs(az[i] - az[i - 1]);
  return t;
}

function extent(az: Float64Array): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const a of az) {
    if (a < lo) lo = a;
    if (a > hi) hi = a;
  }
  return [lo, hi];
}

/** The multiples of 360 that put the whole path inside the controller range. */
function turnShifts(az: Float64Array, r: ControllerRange): number[] {
  const [lo, hi] = extent(az);
  const out: number[] = [];
  const last = Math.floor((r.hi - hi + EPS) / 360);
  for (let k = Math.ceil((r.lo - lo - EPS) / 360); k <= last; k++) out.push(360 * k);
  return out;
}

function usesOverlap(az: Float64Array, shift: number, r: ControllerRange): boolean {
  const [lo, hi] = extent(az);
  return lo + shift < r.base_lo - EPS || hi + shift > r.base_hi + EPS;
}

function shifted(az: Float64Array, shift: number): Float64Array {
  const out = new Float64Array(az.length);
  for (let i = 0; i < az.length; i++) out[i] = az[i] + shift;
  return out;
}

function shiftKeyhole(k: Keyhole | null, shift: number): Keyhole | null {
  return k && { ...k, az_in_deg: k.az_in_deg + shift, az_out_deg: k.az_out_deg + shift };
}

/**
 * No candidate fits (a pass across the stop, no flip, no overlap): start on the turn that keeps
 * the most of the pass in range, and put the rest on the other turn, so the rotator unwinds once,
 * at the crossing, and never swings back and forth. What no turn can reach is clamped.
 */
function unwound(c: Candidate, r: ControllerRange): Choice {
  const start = c.az[0] + 360 * Math.ceil((r.lo - c.az[0] - EPS) / 360);
  let bestShift = start - c.az[0];
  let bestIn = -1;
  for (const shift of [bestShift - 360, bestShift, bestShift + 360]) {
    let inside = 0;
    for (const a of c.az) if (a + shift >= r.lo - EPS && a + shift <= r.hi + EPS) inside++;
    if (inside > bestIn) {
      bestIn = inside;
      bestShift = shift;
    }
  }
  const az = shifted(c.az, bestShift);
  for (let i = 0; i < az.length; i++) {
    if (az[i] > r.hi + EPS && az[i] - 360 >= r.lo - EPS) az[i] -= 360;
    else if (az[i] < r.lo - EPS && az[i] + 360 <= r.hi + EPS) az[i] += 360;
  }
  return { mode: c.mode, switch_ms: c.switch_ms, keyhole: shiftKeyhole(c.keyhole, bestShift), az, overlap: usesOverlap(az, 0, r), unwind: true };
}
