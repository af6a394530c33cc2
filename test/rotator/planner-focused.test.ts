import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PassTracker, planPass, pointFor, type LookAngles, type LookAt, type RotatorLimits, type TrackingOptions } from '../../src/rotator/planner.js';

// Focused cases with a straight-line pass over a flat sky (no orbit engine): the satellite flies at
// height H along a line whose closest point to the station is `miss_km` away in direction
// `side_deg`, crossing the sky in `duration_s`.

const AOS = Date.parse('2026-08-22T12:00:00Z');
const H_KM = 500;

function straightPass(heading_deg: number, miss_km: number, duration_s: number): { look: LookAt; aos_ms: number; los_ms: number; tca_ms: number } {
  const r = Math.PI / 180;
  const half = duration_s / 2;
  const v = 2000 / duration_s; // crosses ±1000 km
  const hx = Math.sin(heading_deg * r);
  const hy = Math.cos(heading_deg * r);
  // Closest point to the station, to the left of the heading.
  const cx = -miss_km * hy;
  const cy = miss_km * hx;
  const tca_ms = AOS + half * 1000;
  const look: LookAt = (t_ms) => {
    const s = (t_ms - tca_ms) / 1000;
    const x = cx + v * s * hx;
    const y = cy + v * s * hy;
    const az = (Math.atan2(x, y) / r + 360) % 360;
    return { az_deg: az, el_deg: Math.atan2(H_KM, Math.hypot(x, y)) / r };
  };
  return { look, aos_ms: AOS, los_ms: AOS + duration_s * 1000, tca_ms };
}

const limits = (o: Partial<RotatorLimits>): RotatorLimits => ({ az_min_deg: 0, az_max_deg: 360, el_min_deg: 0, el_max_deg: 90, az_stop: 'north', flip: 'never', ...o });

/** Commands every second through the pass under the plan. */
function commands(p: ReturnType<typeof straightPass>, l: RotatorLimits): { plan: ReturnType<typeof planPass>; cmds: LookAngles[] } {
  const plan = planPass({ sat_id: 'x', ...p }, l);
  const cmds: LookAngles[] = [];
  for (let t = p.aos_ms; t <= p.los_ms; t += 1000) cmds.push(pointFor(plan, l, p.look(t), t));
  return { plan, cmds };
}

const maxStep = (cmds: LookAngles[], k: 'az_deg' | 'el_deg') => Math.max(...cmds.slice(1).map((c, i) => Math.abs(c[k] - cmds[i][k])));

test('a pass crossing the north stop: over the top with flip, on the overlap with 450°, one planned unwind otherwise', () => {
  // Heading east, passing north of the station: azimuth ~300 → 0 → ~60, max elevation ~45°.
  const p = straightPass(90, 500, 600);
  assert.ok(p.look(p.aos_ms).az_deg > 270 && p.look(p.los_ms).az_deg < 90);

  const flip = commands(p, limits({ el_max_deg: 180, flip: 'auto' }));
  assert.equal(flip.plan.flip, true);
  assert.ok(flip.cmds.every((c) => c.az_deg > 90 && c.az_deg < 270 && c.el_deg >= 90), 'the whole pass over the top, clear of the stop');
  assert.ok(maxStep(flip.cmds, 'az_deg') < 5);

  const overlap = commands(p, limits({ az_max_deg: 450 }));
  assert.equal(overlap.plan.flip, false);
  assert.equal(overlap.plan.az_wrap, 'overlap');
  assert.ok(overlap.cmds.every((c) => c.az_deg > 270 && c.az_deg <= 450), 'starts on the first turn, ends on the overlap');
  assert.ok(maxStep(overlap.cmds, 'az_deg') < 5, 'no unwinding');

  const south = commands(p, limits({ az_stop: 'south' }));
  assert.equal(south.plan.unwind, false);
  assert.ok(south.cmds.every((c) => c.az_deg >= -90 && c.az_deg <= 90), 'north is mid-range with the stop at south');

  const stuck = commands(p, limits({}));
  assert.equal(stuck.plan.unwind, true);
  assert.ok(stuck.cmds.every((c) => c.az_deg >= 0 && c.az_deg <= 360));
  const unwinds = stuck.cmds.slice(1).filter((c, i) => Math.abs(c.az_deg - stuck.cmds[i].az_deg) > 90).length;
  assert.equal(unwinds, 1, 'one unwind at the crossing, never back and forth');
});

test('an overhead pass: no 180° swing at the zenith; without flip the azimuth turns steadily ahead of time, with flip it holds', () => {
  const p = straightPass(0, 2, 600); // due north, 2 km off the zenith: max elevation ~89.8°
  const rawSwing = Math.abs(p.look(p.tca_ms - 3000).az_deg - p.look(p.tca_ms + 3000).az_deg);
  assert.ok(rawSwing > 150, `the satellite's own azimuth swings ${rawSwing}° in 6 s`);

  const plain = commands(p, limits({}));
  assert.equal(plain.plan.flip, false);
  assert.ok(plain.plan.keyhole, 'a keyhole window');
  assert.ok(maxStep(plain.cmds, 'az_deg') <= 6, `az step ${maxStep(plain.cmds, 'az_deg')}°/s: within a 6°/s rotator`);
  // Anticipation: at TCA the rotator is already half way round.
  const atTca = pointFor(plain.plan, limits({}), p.look(p.tca_ms), p.tca_ms);
  const inAz = plain.plan.keyhole!.az_in_deg;
  const outAz = plain.plan.keyhole!.az_out_deg;
  assert.ok(Math.abs(atTca.az_deg - (inAz + outAz) / 2) < 10, `az at TCA ${atTca.az_deg} between ${inAz} and ${outAz}`);

  const l = limits({ el_max_deg: 180, flip: 'auto' });
  const over = commands(p, l);
  assert.equal(over.plan.flip, true);
  const azs = over.cmds.map((c) => c.az_deg);
  assert.ok(Math.max(...azs) - Math.min(...azs) < 10, 'the azimuth holds through the pass');
  assert.ok(over.cmds[0].el_deg < 30 && over.cmds.at(-1)!.el_deg > 150, 'the elevation sweeps over the top');
});

const OPTS: TrackingOptions = { lead_s: 1, deadband_deg: 2, update_interval_ms: 1000, preposition_s: 120, park: { az_deg: 0, el_deg: 0 } };

test('tracker: preposition within preposition_s before AOS, lead, park at LOS, then done', () => {
  const p = straightPass(45, 300, 600);
  const l = limits({ az_max_deg: 450 });
  const plan = planPass({ sat_id: 'x', ...p }, l);
  const tr = new PassTracker(plan, l, p.look, OPTS);
  assert.equal(tr.tick(AOS - 121_000, null), null, 'nothing before the preposition time');
  const pre = tr.tick(AOS - 119_000, null)!;
  assert.equal(pre.phase, 'preposition');
  assert.equal(pre.el_deg, 0);
  assert.ok(Math.abs(pre.az_deg - p.look(AOS).az_deg) < 1e-9, 'the AOS azimuth');
  assert.equal(tr.tick(AOS - 60_000, { az_deg: pre.az_deg, el_deg: 0 }), null, 'already there: nothing to send');

  // Tracking: the target is where the satellite will be lead_s ahead.
  let pos: LookAngles = { az_deg: pre.az_deg, el_deg: 0 };
  let first = null;
  for (let t = AOS; t < AOS + 30_000 && !first; t += 100) first = tr.tick(t, pos);
  assert.ok(first && first.phase === 'tracking');
  pos = first;
  // Park after LOS, then one 'done', then nothing.
  let park = null;
  for (let t = p.los_ms + 1; t < p.los_ms + 5000 && !park; t += 100) park = tr.tick(t, pos);
  assert.ok(park && park.phase === 'parking' && park.az_deg % 360 === 0 && park.el_deg === 0, JSON.stringify(park));
  assert.equal(tr.tick(p.los_ms + 3000, { az_deg: 100, el_deg: 30 }), null, 'still on its way to park');
  const done = tr.tick(p.los_ms + 60_000, { az_deg: park.az_deg, el_deg: 0 });
  assert.equal(done?.phase, 'done');
  assert.equal(tr.tick(p.los_ms + 61_000, null), null);
  assert.ok(tr.done);
});

test('tracker: the target leads the satellite by lead_s', () => {
  const p = straightPass(45, 300, 600);
  const l = limits({ az_max_deg: 450 });
  const plan = planPass({ sat_id: 'x', ...p }, l);
  const tr = new PassTracker(plan, l, p.look, { ...OPTS, lead_s: 5, deadband_deg: 0.01 });
  const t = AOS + 200_000;
  const cmd = tr.tick(t, { az_deg: 0, el_deg: 0 })!;
  const ahead = pointFor(plan, l, p.look(t + 5000), t + 5000);
  assert.deepEqual({ az_deg: cmd.az_deg, el_deg: cmd.el_deg }, ahead);
});

test('tracker: no target inside the deadband, at most one per update_interval_ms, no park when park is null', () => {
  const p = straightPass(45, 300, 600);
  const l = limits({ az_max_deg: 450 });
  const plan = planPass({ sat_id: 'x', ...p }, l);
  for (const [deadband_deg, update_interval_ms] of [[2, 1000], [4, 3000], [0.1, 500]]) {
    const tr = new PassTracker(plan, l, p.look, { ...OPTS, deadband_deg, update_interval_ms, park: null });
    let pos: LookAngles | null = null;
    const sends: number[] = [];
    let doneSeen = 0;
    for (let t = AOS; t <= p.los_ms + 2000; t += 50) {
      const c = tr.tick(t, pos);
      if (!c) continue;
      if (c.phase === 'done') {
        doneSeen++;
        continue;
      }
      if (pos) {
        const err = Math.max(Math.abs(c.az_deg - pos.az_deg), Math.abs(c.el_deg - pos.el_deg));
        assert.ok(err > deadband_deg, `sent a target ${err}° off with a ${deadband_deg}° deadband`);
      }
      sends.push(t);
      pos = { az_deg: c.az_deg, el_deg: c.el_deg }; // an instant rotator
    }
    for (let i = 1; i < sends.length; i++) assert.ok(sends[i] - sends[i - 1] >= update_interval_ms);
    assert.ok(sends.length > 3, `${sends.length} targets`);
    assert.equal(doneSeen, 1);
  }
});
