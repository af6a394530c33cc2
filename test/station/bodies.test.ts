import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bodiesAt, gmstDeg, julianDay, moonEquatorial, moonIlluminatedFraction, sunEquatorial, toHorizontal } from '../../src/station/bodies.js';

const near = (actual: number, expected: number, tol: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} not within ${tol} of ${expected}`);

// Reference values: Meeus, Astronomical Algorithms (2nd ed.), examples 12.a, 13.b, 25.a, 47.a.
describe('Sun and Moon positions (low-precision model)', () => {
  it('sidereal time matches Meeus 12.a/13.b', () => {
    near(gmstDeg(julianDay(Date.UTC(1987, 3, 10, 0, 0, 0))), 197.693195, 1e-4, 'GMST 1987-04-10 0h');
    near(gmstDeg(julianDay(Date.UTC(1987, 3, 10, 19, 21, 0))), 128.7378734, 1e-4, 'GMST 1987-04-10 19:21');
  });

  it('Sun within 0.01° of Meeus 25.a (1992-10-13 0h)', () => {
    const sun = sunEquatorial(2448908.5);
    near(sun.ra_deg, 198.38083, 0.01, 'RA');
    near(sun.dec_deg, -7.78507, 0.01, 'Dec');
  });

  it('Moon within the stated 0.3°/0.2° of Meeus 47.a (1992-04-12 0h)', () => {
    const moon = moonEquatorial(2448724.5);
    near(moon.ra_deg, 134.68847, 0.3, 'RA');
    near(moon.dec_deg, 13.768368, 0.2, 'Dec');
    near(moon.dist_er * 6378.14, 368409.7, 1500, 'distance km');
  });

  it('equatorial → horizontal matches Meeus 13.b (Venus from the USNO)', () => {
    const jd = julianDay(Date.UTC(1987, 3, 10, 19, 21, 0));
    const h = toHorizontal({ ra_deg: 347.3193375, dec_deg: -6.719892, dist_er: Infinity }, jd, 38 + 55 / 60 + 17 / 3600, -(77 + 3 / 60 + 56 / 3600));
    near(h.az_deg, 68.0337 + 180, 0.005, 'azimuth from north'); // Meeus counts azimuth from the south
    near(h.el_deg, 15.1249, 0.005, 'elevation');
  });

  it('Moon parallax lowers it by about its horizontal parallax near the horizon, nothing at the zenith', () => {
    const jd = 2448724.5;
    const geo = moonEquatorial(jd);
    const far = { ...geo, dist_er: Infinity };
    // Observer on the meridian of the Moon at the latitude of its declination: Moon at the zenith.
    const lonZenith = ((geo.ra_deg - gmstDeg(jd) + 540) % 360) - 180;
    near(toHorizontal(geo, jd, geo.dec_deg, lonZenith).el_deg, 90, 0.05, 'zenith');
    // 90° of longitude away the Moon sits near the horizon: topocentric is lower by ≈ π (0.99°).
    const lonLow = lonZenith + 89;
    const topo = toHorizontal(geo, jd, 0, lonLow).el_deg;
    const geoEl = toHorizontal(far, jd, 0, lonLow).el_deg;
    near(geoEl - topo, 0.99, 0.05, 'parallax at the horizon');
  });

  it('Sun at Greenwich, June solstice noon: due south, 90° − 51.48° + 23.44° high', () => {
    const b = bodiesAt(Date.parse('2026-06-21T12:00:00Z'), 51.4779, -0.0015, 46);
    near(b.sun.az_deg, 180, 1.5, 'azimuth');
    near(b.sun.el_deg, 61.96, 0.1, 'elevation');
    assert.ok(b.moon.el_deg >= -90 && b.moon.el_deg <= 90);
    assert.ok(b.moon.az_deg >= 0 && b.moon.az_deg < 360);
  });

  it('Moon illumination: full near 2026-08-28 04:18 UTC, new near 2026-08-12 17:37 UTC', () => {
    near(moonIlluminatedFraction(julianDay(Date.parse('2026-08-28T04:18:00Z'))), 1, 0.01, 'full');
    near(moonIlluminatedFraction(julianDay(Date.parse('2026-08-12T17:37:00Z'))), 0, 0.01, 'new');
  });
});
