import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { arcDeg, destination, footprintHalfAngle, footprintLines, footprintRadiusKm, trackLines } from '../../ui/lib/geo.js';

describe('ui/lib/geo: ground track and footprint', () => {
  it('breaks a track where it crosses the antimeridian', () => {
    const lines = trackLines([
      { lat: 0, lon: 170 },
      { lat: 5, lon: 178 },
      { lat: 10, lon: -174 },
      { lat: 15, lon: -166 },
    ]);
    assert.deepEqual(lines, ['350,90 358,85', '6,80 14,75']);
  });

  it('the ISS footprint is about 2,200 km in radius (20° of arc at 420 km)', () => {
    const a = footprintHalfAngle(420);
    assert.ok(Math.abs(a - 20.3) < 0.2, String(a));
    assert.equal(footprintHalfAngle(-5), 0);
    assert.ok(Math.abs(footprintRadiusKm(420) - 2257) < 20, String(footprintRadiusKm(420)));
  });

  it('every footprint point lies that arc from the station, across the antimeridian and near a pole', () => {
    for (const station of [
      { lat: 51.48, lon: 0 },
      { lat: -17, lon: 178 },
      { lat: 80, lon: 20 },
    ]) {
      const a = footprintHalfAngle(800);
      for (let b = 0; b < 360; b += 15) assert.ok(Math.abs(arcDeg(station, destination(station, a, b)) - a) < 1e-6);
      const lines = footprintLines(station, footprintRadiusKm(800));
      for (const l of lines) for (const xy of l.split(' ')) {
        const [x, y] = xy.split(',').map(Number);
        assert.ok(x >= 0 && x <= 360 && y >= 0 && y <= 180, xy);
      }
      assert.ok(lines.length >= 1 && lines.length <= 3);
    }
    assert.equal(footprintLines({ lat: -17, lon: 178 }, footprintRadiusKm(800)).length, 2, 'split at the antimeridian');
  });

  it('destination heads north, east and south as bearings say', () => {
    const p = { lat: 0, lon: 0 };
    assert.ok(Math.abs(destination(p, 10, 0).lat - 10) < 1e-9);
    assert.ok(Math.abs(destination(p, 10, 90).lon - 10) < 1e-9);
    assert.ok(Math.abs(destination(p, 10, 180).lat + 10) < 1e-9);
  });
});
