import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fromLocator, toLocator } from '../../src/station/maidenhead.js';

// Reference points: ARRL's grid examples and the well-known locators of observatories.
describe('Maidenhead locators', () => {
  it('encodes known places', () => {
    assert.equal(toLocator(52.2053, 0.1218), 'JO02be'); // Cambridge, UK
    assert.equal(toLocator(41.714775, -72.727260), 'FN31pr'); // ARRL HQ, Newington CT
    assert.equal(toLocator(-33.8688, 151.2093), 'QF56od'); // Sydney
    assert.equal(toLocator(41.714775, -72.727260, 4), 'FN31');
    assert.equal(toLocator(41.714775, -72.727260, 8), 'FN31pr21');
  });

  it('handles the edges: the antimeridian wraps, the poles stay inside the grid', () => {
    assert.equal(toLocator(0, 180), toLocator(0, -180));
    assert.equal(toLocator(0, -180), 'AJ00aa');
    assert.equal(toLocator(90, 179.9999).slice(0, 4), 'RR99');
    assert.equal(toLocator(-90, -180), 'AA00aa');
    assert.throws(() => toLocator(Number.NaN, 0), RangeError);
  });

  it('decodes to the centre of the square, any case, 4/6/8 characters', () => {
    assert.deepEqual(fromLocator('jo02bf'), { lat: 52.229167, lon: 0.125, locator: 'JO02bf' });
    assert.deepEqual(fromLocator('FN31'), { lat: 41.5, lon: -73, locator: 'FN31' });
    const c8 = fromLocator('FN31pr21');
    assert.ok(c8 && Math.abs(c8.lat - 41.7146) < 0.003 && Math.abs(c8.lon - -72.7271) < 0.005);
  });

  it('round-trips: the centre of a square encodes back to the same square', () => {
    for (const loc of ['AA00aa', 'JO02bf', 'RR99xx', 'IO91wm', 'PM95vq', 'GG66ab']) {
      const c = fromLocator(loc);
      assert.ok(c, loc);
      assert.equal(toLocator(c.lat, c.lon), loc);
    }
  });

  it('rejects what is not a locator', () => {
    for (const bad of ['', 'JO0', 'SZ00', 'JO02y', 'JO02yz', 'JO02bf5', 'JO02bf5x', 'J002bf', ' ', 'JO02bfaa']) {
      assert.equal(fromLocator(bad), null, bad);
    }
  });
});
