import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ecfToLookAngles, eciToEcf, gstime, propagate, sunPos, shadowFraction, json2satrec } from 'satellite.js';
import {
  isSunlit, L_AZ, L_DSIN_EL, L_RANGE, L_RANGE_RATE, L_SIN_EL, LOOK_SIZE, lookFromEci, ObserverFrame, TimeFrame, julianDate,
} from '../../src/orbit/frames.js';
import { Propagator } from '../../src/orbit/propagator.js';
import { byNorad, GREENWICH, loadTle, QUITO, SYDNEY, T0 } from './helpers.js';

const amateur = loadTle('amateur.tle');
const RAD = Math.PI / 180;

function lookAt(prop: Propagator, i: number, obs: ObserverFrame, t: number) {
  const st = new Float64Array(6);
  const lk = new Float64Array(LOOK_SIZE);
  const tf = new TimeFrame().set(t, true);
  assert.ok(prop.propagate(i, t, st));
  lookFromEci(obs, tf, st, lk, true);
  return { lk, st, tf };
}

test('look angles agree with satellite.js ecfToLookAngles at several places and times', () => {
  const sats = [25544, 27607, 7530, 43700].map((n) => byNorad(amateur, n));
  const prop = new Propagator(sats);
  for (const where of [GREENWICH, SYDNEY, QUITO]) {
    const obs = new ObserverFrame(where);
    for (let i = 0; i < sats.length; i++) {
      for (let k = 0; k < 20; k++) {
        const t = T0 + k * 997_000;
        const { lk } = lookAt(prop, i, obs, t);
        const rec = json2satrec(sats[i].elements as never);
        const pv = propagate(rec, new Date(t))!;
        const ref = ecfToLookAngles({ latitude: where.lat_deg * RAD, longitude: where.lon_deg * RAD, height: where.alt_m / 1000 }, eciToEcf(pv.position, gstime(new Date(t))));
        // 1e-7 rad: both sides round the epoch to tens of microseconds differently.
        assert.ok(Math.abs(Math.asin(lk[L_SIN_EL]) - ref.elevation) < 1e-7, `elevation ${Math.asin(lk[L_SIN_EL])} vs ${ref.elevation}`);
        assert.ok(Math.abs(lk[L_RANGE] - ref.rangeSat) < 1e-3, `range ${lk[L_RANGE]} vs ${ref.rangeSat}`);
        const dAz = Math.abs(((lk[L_AZ] - ref.azimuth + 3 * Math.PI) % (2 * Math.PI)) - Math.PI);
        assert.ok(dAz < 1e-7 || Math.abs(ref.elevation) > 89.9 * RAD, `azimuth ${lk[L_AZ]} vs ${ref.azimuth}`);
      }
    }
  }
});

test('range rate and d sin(el)/dt are exact derivatives (checked against central differences)', () => {
  const prop = new Propagator([byNorad(amateur, 25544), byNorad(amateur, 24278)]);
  const obs = new ObserverFrame(GREENWICH);
  for (let i = 0; i < 2; i++) {
    for (let k = 0; k < 50; k++) {
      const t = T0 + k * 173_000;
      const h = 50; // ms
      const a = lookAt(prop, i, obs, t - h).lk;
      const b = lookAt(prop, i, obs, t + h).lk;
      const { lk } = lookAt(prop, i, obs, t);
      const rr = (b[L_RANGE] - a[L_RANGE]) / (2 * h / 1000);
      const ds = (b[L_SIN_EL] - a[L_SIN_EL]) / (2 * h / 1000);
      // SGP4's analytic velocity differs from the derivative of its own position by up to ~0.1 m/s
      // (its short-period terms are not differentiated); 0.3 m/s is 0.4 Hz of Doppler at 435 MHz.
      assert.ok(Math.abs(lk[L_RANGE_RATE] - rr) < 3e-4, `range rate ${lk[L_RANGE_RATE]} vs ${rr}`);
      assert.ok(Math.abs(lk[L_DSIN_EL] - ds) < 1e-7, `dsinel ${lk[L_DSIN_EL]} vs ${ds}`);
    }
  }
});

test('range rate includes Earth rotation: a geostationary satellite barely moves (|rr| < 5 m/s)', () => {
  const prop = new Propagator([byNorad(amateur, 43700)]); // QO-100
  const obs = new ObserverFrame(GREENWICH);
  for (let k = 0; k < 24; k++) {
    const { lk } = lookAt(prop, 0, obs, T0 + k * 3600_000);
    assert.ok(Math.abs(lk[L_RANGE_RATE]) < 0.005, `rr ${lk[L_RANGE_RATE]}`);
  }
});

test('sunlit: conical umbra model agrees with satellite.js shadowFraction (umbra = 1) and flips at the terminator', () => {
  const prop = new Propagator([byNorad(amateur, 25544)]);
  const obs = new ObserverFrame(GREENWICH);
  let lit = 0;
  let dark = 0;
  let flips = 0;
  let prev: boolean | null = null;
  for (let k = 0; k < 2 * 5580; k++) {
    const t = T0 + k * 1000;
    const { st, tf } = lookAt(prop, 0, obs, t);
    const mine = isSunlit(tf, st);
    const frac = shadowFraction(sunPos(julianDate(t)).rsun, { x: st[0], y: st[1], z: st[2] } as never);
    // shadowFraction uses the equatorial radius; ours the mean one: agree away from the edge.
    if (frac === 0) assert.equal(mine, true, `lit at ${new Date(t).toISOString()}`);
    if (frac === 1) {
      const r = Math.hypot(st[0], st[1], st[2]);
      const along = -(st[0] * tf.sx + st[1] * tf.sy + st[2] * tf.sz) / r;
      if (Math.acos(along) < Math.asin(6371 / r) - 0.01) assert.equal(mine, false, `umbra at ${new Date(t).toISOString()}`);
    }
    if (mine) lit++;
    else dark++;
    if (prev !== null && prev !== mine) flips++;
    prev = mine;
  }
  // The ISS spends roughly 35–40 % of an orbit in shadow in August: two orbits, four terminator crossings.
  assert.ok(dark / (lit + dark) > 0.25 && dark / (lit + dark) < 0.45, `dark fraction ${dark / (lit + dark)}`);
  assert.equal(flips, 4);
});

test('a satellite on the Sun side of the Earth is sunlit; one straight behind the Earth is not', () => {
  const tf = new TimeFrame().set(T0, true);
  const st = new Float64Array(6);
  st[0] = tf.sx * 7000;
  st[1] = tf.sy * 7000;
  st[2] = tf.sz * 7000;
  assert.equal(isSunlit(tf, st), true);
  st[0] = -tf.sx * 7000;
  st[1] = -tf.sy * 7000;
  st[2] = -tf.sz * 7000;
  assert.equal(isSunlit(tf, st), false);
  // Far beyond the umbra's apex (~1.38 million km) the Earth cannot hide the whole Sun.
  st[0] = -tf.sx * 2e6;
  st[1] = -tf.sy * 2e6;
  st[2] = -tf.sz * 2e6;
  assert.equal(isSunlit(tf, st), true);
});
