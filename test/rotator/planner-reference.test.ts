import assert from 'node:assert/strict';
import { test } from 'node:test';
import { planPass, pointFor, type LookAngles, type RotatorLimits } from '../../src/rotator/planner.js';
import { skyPasses, STATIONS, type SkyPass } from './planner-sky.js';

// The planner against a brute-force reference: every pass of the bundled catalogue over 48 h from
// three stations, under every limit set (north and south stops, 360/450 azimuth, 90/180 elevation,
// flip auto/never). The reference samples each pass every second and tries every way round by
// brute force (each flip choice, each swing direction, each turn of the cable) to say whether a
// continuous in-limits path exists; the planner's commands, sampled every second, must then stay
// inside the limits, never jump (no unwinding, no 180° swing at the zenith) and point where the
// satellite is (outside a keyhole window).

const CONFIGS: RotatorLimits[] = [];
for (const az_stop of ['north', 'south'] as const)
  for (const az_max_deg of [360, 450])
    for (const el_max_deg of [90, 180])
      for (const flip of ['auto', 'never'] as const) CONFIGS.push({ az_min_deg: 0, az_max_deg, el_min_deg: 0, el_max_deg, az_stop, flip });

/** Largest azimuth or elevation step between commands one second apart that is motion, not a swing (a 79° LEO pass needs ~8°/s). */
const MAX_STEP_DEG_PER_S = 25;
const HIGH_EL_DEG = 80;

interface Sampled {
  t: Float64Array;
  az: Float64Array;
  el: Float64Array;
  step_s: number;
  peak: number;
}

function sample(p: SkyPass): Sampled {
  const step_s = p.los_ms - p.aos_ms > 2 * 3600_000 ? 10 : 1;
  const n = Math.floor((p.los_ms - p.aos_ms) / (step_s * 1000)) + 2;
  const t = new Float64Array(n);
  const az = new Float64Array(n);
  const el = new Float64Array(n);
  let peak = 0;
  for (let i = 0; i < n; i++) {
    t[i] = Math.min(p.los_ms, p.aos_ms + i * step_s * 1000);
    const a = p.look(t[i]);
    az[i] = a.az_deg;
    el[i] = a.el_deg;
    if (el[i] > el[peak]) peak = i;
  }
  return { t, az, el, step_s, peak };
}

/** The controller range, written out here from the settings' meaning (not taken from the planner). */
function rangeOf(l: RotatorLimits): { lo: number; hi: number; baseLo: number; baseHi: number } {
  const span = l.az_max_deg - l.az_min_deg;
  return l.az_stop === 'north' ? { lo: 0, hi: span, baseLo: 0, baseHi: 360 } : { lo: -span / 2, hi: span / 2, baseLo: -180, baseHi: 180 };
}

type Way = 'plain' | 'flipped' | 'split';
type Verdict = 'yes' | 'no' | 'borderline';

/** The 1-s planner samples its pass more coarsely: a path this close to a stop is borderline (either verdict is right). */
const MARGIN_DEG = 1;
/** The keyhole is skipped above 70°; the planner's window opens at its last sample below 70°, so down to 60° is borderline. */
const WINDOW_EL_DEG = 70;
const LOOSE_WINDOW_EL_DEG = 60;

/**
 * Brute force: does any flip choice (among `ways`), swing direction and turn of the cable give a
 * continuous path inside the limits? On a high pass the part above 70° is skipped (the command
 * there runs steadily between its ends, never outside them) and its far side tried both ways round.
 */
function referenceFeasible(s: Sampled, l: RotatorLimits, ways: Way[] = ['plain', 'flipped', 'split']): Verdict {
  if (fits(s, l, ways, WINDOW_EL_DEG, MARGIN_DEG)) return 'yes';
  return fits(s, l, ways, LOOSE_WINDOW_EL_DEG, -MARGIN_DEG) ? 'borderline' : 'no';
}

function fits(s: Sampled, l: RotatorLimits, ways: Way[], windowEl: number, margin: number): boolean {
  const r = rangeOf(l);
  const high = s.el[s.peak] >= HIGH_EL_DEG;
  let a = s.peak;
  let b = s.peak;
  if (high) {
    while (a > 0 && s.el[a - 1] >= windowEl) a--;
    while (b < s.el.length - 1 && s.el[b + 1] >= windowEl) b++;
  }
  const flips: Array<(i: number) => boolean> = [];
  if (ways.includes('plain')) flips.push(() => false);
  if (l.flip === 'auto' && l.el_max_deg >= 180) {
    if (ways.includes('flipped') && !high) flips.push(() => true);
    if (ways.includes('split') && high) flips.push((i) => i >= s.peak, (i) => i < s.peak);
  }
  for (const flipped of flips) {
    const path: number[] = [];
    const after: boolean[] = [];
    let prev = Number.NaN;
    for (let i = 0; i < s.az.length; i++) {
      if (high && i >= a && i <= b) continue;
      const raw = s.az[i] + (flipped(i) ? 180 : 0);
      prev = path.length === 0 ? raw : raw + 360 * Math.round((prev - raw) / 360);
      path.push(prev);
      after.push(i > b);
    }
    for (const turn of high ? [0, 360, -360] : [0]) {
      let lo = Infinity;
      let hi = -Infinity;
      for (let i = 0; i < path.length; i++) {
        const v = path[i] + (after[i] ? turn : 0);
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
      for (let k = -3; k <= 3; k++) if (lo + 360 * k >= r.lo + margin && hi + 360 * k <= r.hi - margin) return true;
    }
  }
  return false;
}

/** Where a controller command physically points (over the top above 90° elevation). */
function physical(c: LookAngles): LookAngles {
  return c.el_deg > 90 ? { az_deg: c.az_deg + 180, el_deg: 180 - c.el_deg } : c;
}

function separationDeg(a: LookAngles, b: LookAngles): number {
  const r = Math.PI / 180;
  const c = Math.sin(a.el_deg * r) * Math.sin(b.el_deg * r) + Math.cos(a.el_deg * r) * Math.cos(b.el_deg * r) * Math.cos((a.az_deg - b.az_deg) * r);
  return Math.acos(Math.min(1, Math.max(-1, c))) / r;
}

function checkPass(p: SkyPass, s: Sampled, l: RotatorLimits, tally: Record<string, number>): void {
  const r = rangeOf(l);
  const plan = planPass(p, l);
  const verdict = referenceFeasible(s, l);
  const feasible = verdict === 'yes';
  const what = `${p.sat_id} AOS ${new Date(p.aos_ms).toISOString()} max ${p.max_el_deg.toFixed(1)}° ${JSON.stringify(l)}`;
  assert.ok(!plan.flip || (l.flip === 'auto' && l.el_max_deg > 90), `flip without a flip rotator: ${what}`);
  let swings = 0;
  let beyondBase = false; // some command clearly past the first turn
  let nearBase = false; // some command past, or within the sampling margin of, the first turn's end
  let prev: LookAngles | null = null;
  const k = plan.keyhole;
  for (let i = 0; i < s.t.length; i++) {
    const c = pointFor(plan, l, { az_deg: s.az[i], el_deg: s.el[i] }, s.t[i]);
    if (!(c.az_deg >= r.lo && c.az_deg <= r.hi && c.el_deg >= l.el_min_deg && c.el_deg <= l.el_max_deg)) {
      assert.fail(`command ${JSON.stringify(c)} outside the limits at ${new Date(s.t[i]).toISOString()}: ${what}`);
    }
    if (c.az_deg < r.baseLo - MARGIN_DEG || c.az_deg > r.baseHi + MARGIN_DEG) beyondBase = true;
    if (c.az_deg < r.baseLo + MARGIN_DEG || c.az_deg > r.baseHi - MARGIN_DEG) nearBase = true;
    if (prev && (Math.abs(c.az_deg - prev.az_deg) > MAX_STEP_DEG_PER_S * s.step_s || Math.abs(c.el_deg - prev.el_deg) > MAX_STEP_DEG_PER_S * s.step_s)) swings++;
    prev = c;
    const inKeyhole = k !== null && s.t[i] > k.start_ms && s.t[i] < k.end_ms;
    if (feasible && !inKeyhole) {
      const sat = { az_deg: s.az[i], el_deg: Math.max(l.el_min_deg, s.el[i]) };
      const off = separationDeg(physical(c), sat);
      if (off > 0.01) assert.fail(`points ${off.toFixed(3)}° off the satellite at ${new Date(s.t[i]).toISOString()}: ${what}`);
    }
  }
  if (feasible) {
    if (beyondBase) assert.equal(plan.az_wrap, 'overlap', `az_wrap vs the commands: ${what}`);
    if (!nearBase) assert.equal(plan.az_wrap, 'none', `az_wrap vs the commands: ${what}`);
    assert.equal(swings, 0, `a continuous path exists but the commands jump ${swings}×: ${what}`);
    assert.equal(plan.unwind, false, what);
    if (p.max_el_deg < HIGH_EL_DEG && plan.flip) {
      // A flip for a low pass only when plain pointing cannot do it.
      assert.notEqual(referenceFeasible(s, l, ['plain']), 'yes', `flipped a pass plain pointing handles: ${what}`);
    }
    if (referenceFeasible(s, l, ['split']) === 'yes') assert.ok(plan.flip, `an overhead pass not taken over the top: ${what}`);
  } else if (verdict === 'no') {
    assert.ok(plan.unwind, `no continuous path, yet not planned as one unwind: ${what}`);
    assert.ok(swings <= 1, `more than one unwind (${swings}): ${what}`);
    tally.unwinds++;
  } else tally.borderline++;
  if (plan.flip) tally.flips++;
  if (plan.az_wrap === 'overlap') tally.overlaps++;
  if (k) tally.keyholes++;
}

for (const [station, where] of Object.entries(STATIONS)) {
  test(`planner vs brute-force reference: every bundled pass over 48 h from ${station}, 16 limit sets`, () => {
    const passes = skyPasses(where);
    assert.ok(passes.length > 500, `passes found: ${passes.length}`);
    const tally = { passes: passes.length, borderline: 0, unwinds: 0, flips: 0, overlaps: 0, keyholes: 0 };
    for (const p of passes) {
      const s = sample(p);
      for (const l of CONFIGS) checkPass(p, s, l, tally);
    }
    // The sky really exercised the planner's choices (not only easy passes).
    assert.ok(tally.unwinds > 0 && tally.flips > 0 && tally.overlaps > 0 && tally.keyholes > 0, JSON.stringify(tally));
    console.log(station, JSON.stringify(tally));
  });
}
