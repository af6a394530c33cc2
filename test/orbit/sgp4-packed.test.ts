import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkForDecay, json2satrec, sgp4, twoline2satrec, type SatRec } from 'satellite.js';
import { bundledElements } from '../../src/catalog/bundled.js';
import { tleToElements } from '../../src/catalog/tle.js';
import type { OmmElements } from '../../src/catalog/types.js';
import { SGP4_DECAYED, SGP4_OK, SGP4_WORDS, packSatrec, sgp4Packed } from '../../src/orbit/sgp4-packed.js';

// The packed propagation against satellite.js's own sgp4 on the same initialised record: the
// state must be the same to the last bit, the error codes the same, and the community decay
// check where satellite.js's propagate would apply it. Orbits chosen from CelesTrak's active
// catalogue (2026-07) for each branch of the model: near-Earth full and simplified (perigee below
// 220 km), deep space without resonance, with the 24 h and the 12 h resonances, at low
// inclination (Lyddane's branch in the lunar-solar periodics) and in both operation modes.
const ORBITS: { name: string; l1: string; l2: string }[] = [
  { name: 'LES-5 (24 h resonance, 2.7°)', l1: '1 02866U 67066E   26204.85303178 -.00000061  00000+0  00000+0 0  9992', l2: '2 02866   2.7059  95.2868 0051365 214.3735  73.3431  1.09425332131432' },
  { name: 'UFO 4 (geosynchronous, 9.7°)', l1: '1 23467U 95003A   26204.71768774 -.00000023  00000+0  00000+0 0  9994', l2: '2 23467   9.6828  12.9784 0002887 101.1141 258.0441  1.00269861115310' },
  { name: 'TDRS 3 (24 h resonance, 12.6°)', l1: '1 19548U 88091B   26204.74516122 -.00000297  00000+0  00000+0 0  9992', l2: '2 19548  12.5757 340.7576 0037679 355.3816 184.6279  1.00278659125756' },
  { name: 'LAGEOS 1 (deep space, no resonance)', l1: '1 08820U 76039A   26204.79328880  .00000014  00000+0  00000+0 0  9995', l2: '2 08820 109.8056 191.8607 0044660 294.4080 240.4701  6.38664751915478' },
  { name: 'O3B FM5 (deep space, equatorial)', l1: '1 39188U 13031A   26204.61994711 -.00000024  00000+0  00000+0 0  9994', l2: '2 39188   0.0939 332.6577 0002771 134.3367 253.0339  5.00115728238860' },
  { name: 'AO-10 (12 h resonance, e = 0.60)', l1: '1 14129U 83058B   26203.81462469  .00000116  00000+0  00000+0 0  9990', l2: '2 14129  25.9436 213.6999 5998947 125.4549 306.1498  2.05869117296229' },
  { name: 'MERIDIAN 7 (Molniya)', l1: '1 40296U 14069A   26204.07732898  .00000301  00000+0  00000+0 0  9991', l2: '2 40296  63.4510 211.8232 6635248 270.3256  19.8851  2.00598635 85957' },
  { name: 'PODSAT (simplified drag, e = 0.35)', l1: '1 43229U 18023B   26204.57454576  .00056454 -10787-5  47101-3 0  9990', l2: '2 43229  26.8561  31.7432 3453429 267.8960  53.0313  8.62509679195910' },
  { name: 'STARLINK-1143 (re-entering)', l1: '1 45179U 20012B   26204.99644370  .06462553  12407-4  50415-3 0  9994', l2: '2 45179  53.0158   1.0785 0010547 298.2021  61.7960 16.39225123357538' },
  { name: 'STARLINK-35353 (B* 0.18)', l1: '1 65669U 25211T   26204.83335647  .04487269  00000+0  18209+0 0  9994', l2: '2 65669  97.2828 245.9201 0001482  66.4014 324.5872 15.20469783  5774' },
];

/** What satellite.js answers at tsince, as our function's code plus the state it returned. */
function reference(rec: SatRec, tsince: number): { code: number; state: number[] | null } {
  const pv = sgp4(rec, tsince);
  if (!pv) return { code: rec.error as number, state: null };
  const p = pv.position;
  const v = pv.velocity;
  return { code: checkForDecay(rec) ? SGP4_DECAYED : SGP4_OK, state: [p.x, p.y, p.z, v.x, v.y, v.z] };
}

/** Compares at minutes from −2 days to +14 days (an odd step, so no time is a whole revolution). */
function compare(label: string, make: () => SatRec): { ok: number; failed: number } {
  const rec = make();
  assert.equal(rec.error, 0, `${label}: initialises`);
  const slab = new Float64Array(3 * SGP4_WORDS).fill(Number.NaN);
  packSatrec(rec, slab, SGP4_WORDS); // the middle record: neighbours' words must not be read
  const out = new Float64Array(8).fill(Number.NaN);
  const counts = { ok: 0, failed: 0 };
  for (let t = -2880; t <= 20160; t += 97.3) {
    const want = reference(make(), t); // a fresh record: satellite.js writes into its own
    const code = sgp4Packed(slab, SGP4_WORDS, t, out, 1);
    assert.equal(code, want.code, `${label} t=${t}: code`);
    if (want.state) {
      for (let k = 0; k < 6; k++) assert.ok(Object.is(out[1 + k], want.state[k]), `${label} t=${t} [${k}]: ${out[1 + k]} vs ${want.state[k]}`);
      assert.ok(Number.isNaN(out[0]) && Number.isNaN(out[7]), `${label}: writes only its six words`);
    }
    if (code === SGP4_OK) counts.ok++;
    else counts.failed++;
  }
  return counts;
}

test('packed SGP4 matches satellite.js to the bit on every branch of the model, both operation modes', () => {
  for (const o of ORBITS) {
    compare(o.name, () => twoline2satrec(o.l1, o.l2));
    const el = tleToElements({ name: o.name, line1: o.l1, line2: o.l2 }) as OmmElements;
    compare(`${o.name}, AFSPC mode`, () => json2satrec(el as never, 'a'));
  }
});

test('the branches are the ones named: resonances, simplified drag, decay and errors are exercised', () => {
  const recs = ORBITS.map((o) => twoline2satrec(o.l1, o.l2));
  const kinds = new Set(recs.map((r) => `${r.method}${r.method === 'd' ? r.irez : r.isimp}${r.inclo < 0.2 ? 'low' : ''}`));
  for (const k of ['d1low', 'd1', 'd0', 'd0low', 'd2', 'n1']) assert.ok(kinds.has(k), `an orbit of kind ${k}`);
  // The re-entering objects stop answering within the two weeks: both sides say so the same way.
  const decaying = ORBITS.filter((o) => o.name.startsWith('STARLINK'));
  for (const o of decaying) assert.ok(compare(o.name, () => twoline2satrec(o.l1, o.l2)).failed > 0, `${o.name} fails within 14 days`);
});

test('the resonance integrator resumes from its kept state to the same bits, in any order of times', () => {
  // A pass search steps forward, back across a 720 min step boundary, far back, across the epoch
  // and forward again: each time, from any kept state, the answer is satellite.js's from the epoch.
  let seed = 36;
  const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  for (const o of ORBITS.filter((x) => twoline2satrec(x.l1, x.l2).irez !== 0)) {
    const slab = new Float64Array(SGP4_WORDS);
    packSatrec(twoline2satrec(o.l1, o.l2), slab, 0);
    const out = new Float64Array(6);
    let t = -40 * 1440;
    for (let n = 0; n < 600; n++) {
      const r = rand();
      // Mostly small steps either way (a search), now and then a jump anywhere in ±120 days.
      t = r < 0.1 ? (rand() - 0.4) * 240 * 1440 : t + (r < 0.6 ? 1 : -1) * rand() * (r < 0.3 ? 1500 : 90);
      const want = reference(twoline2satrec(o.l1, o.l2), t);
      assert.equal(sgp4Packed(slab, 0, t, out), want.code, `${o.name} t=${t}: code`);
      if (want.state) for (let k = 0; k < 6; k++) assert.ok(Object.is(out[k], want.state[k]), `${o.name} t=${t} [${k}]: ${out[k]} vs ${want.state[k]}`);
    }
  }
});

test('packed SGP4 matches satellite.js over the bundled catalogue', () => {
  let n = 0;
  for (const el of bundledElements) {
    const rec = json2satrec(el as never);
    if (rec.error) continue;
    compare(String(el.OBJECT_NAME), () => json2satrec(el as never));
    n++;
  }
  assert.ok(n > 90, `${n} satellites compared`);
});
