import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { passClock, positionAt } from '../../ui/lib/pass.js';
import { countdown, age, clock, day, zoneLabel } from '../../ui/lib/time.js';
import { staleness } from '../../ui/lib/stale.js';
import { compass, shortName } from '../../ui/lib/format.js';

const pass = { aos: '2026-08-22T12:10:00Z', los: '2026-08-22T12:20:00Z' };
const t = (iso: string) => Date.parse(iso);

describe('ui/lib: pass clock, path interpolation, times, staleness', () => {
  it('counts to AOS before the pass, to LOS during it, and marks AOS within 10 minutes', () => {
    assert.deepEqual(passClock(pass, t('2026-08-22T11:50:00Z')), { stage: 'before', label: 'AOS in', remainingMs: 20 * 60_000, tone: 'idle' });
    assert.equal(passClock(pass, t('2026-08-22T12:00:00Z')).tone, 'warn');
    assert.deepEqual(passClock(pass, t('2026-08-22T12:15:00Z')), { stage: 'during', label: 'LOS in', remainingMs: 5 * 60_000, tone: 'ok' });
    assert.equal(passClock(pass, t('2026-08-22T12:20:00Z')).stage, 'after');
  });

  it('interpolates along the path, the short way across north, and not outside it', () => {
    const path = [
      { timestamp: '2026-08-22T12:10:00Z', az_deg: 350, el_deg: 0, range_km: 2000 },
      { timestamp: '2026-08-22T12:11:00Z', az_deg: 10, el_deg: 10, range_km: 1000 },
    ];
    const mid = positionAt(path, t('2026-08-22T12:10:30Z'))!;
    assert.ok(Math.abs(mid.az_deg - 0) < 1e-9 || Math.abs(mid.az_deg - 360) < 1e-9, String(mid.az_deg));
    assert.equal(mid.el_deg, 5);
    assert.equal(mid.range_km, 1500);
    assert.equal(positionAt(path, t('2026-08-22T12:09:59Z')), null);
    assert.equal(positionAt(path, t('2026-08-22T12:11:01Z')), null);
  });

  it('formats countdowns, ages and zone times', () => {
    assert.equal(countdown(252_000), '04:12');
    assert.equal(countdown(3_852_000), '1:04:12');
    assert.equal(countdown(-5), '00:00');
    assert.equal(countdown(26 * 3_600_000), '1 d 02 h');
    assert.equal(age(13 * 3_600_000), '13 h');
    assert.equal(age(90_000), '1 min');
    assert.equal(clock('2026-08-22T12:05:00Z', { name: 'Europe/Berlin' }), '14:05');
    assert.equal(clock('2026-08-22T12:05:09Z', { name: 'UTC' }, true), '12:05:09');
    assert.equal(zoneLabel({ name: 'UTC' }), 'UTC');
    // A zone the runtime does not know falls back to the offset the server sent.
    assert.equal(clock('2026-08-22T12:05:00Z', { name: 'Nowhere/Land', offsetMinutes: 90 }), '13:35');
    assert.equal(zoneLabel({ name: 'Nowhere/Land', offsetMinutes: 90 }), 'UTC+1:30');
    // With the server's offset no Intl is used (the first frame on a slow CPU); same answer.
    assert.equal(clock('2026-08-22T12:05:00Z', { name: 'Europe/Berlin', offsetMinutes: 120 }), '14:05');
    assert.equal(zoneLabel({ name: 'Europe/Berlin', offsetMinutes: 120 }), 'UTC+2');
    assert.equal(day('2026-08-22T23:30:00Z', { name: 'Europe/Berlin', offsetMinutes: 120 }), 'Sun 23 Aug');
    assert.equal(day('2026-08-22T23:30:00Z', { name: 'Europe/Berlin' }), 'Sun 23 Aug');
  });

  it('warns from 12 h and marks reference only from 24 h', () => {
    const now = t('2026-08-23T12:00:00Z');
    assert.equal(staleness(now - 60_000, now, false), 'fresh');
    assert.equal(staleness(now - 60_000, now, true), 'late');
    assert.equal(staleness(now - 12 * 3_600_000, now, false), 'stale');
    assert.equal(staleness(now - 24 * 3_600_000, now, true), 'reference');
  });

  it('names compass points and short satellite names', () => {
    assert.equal(compass(231), 'SW');
    assert.equal(compass(359), 'N');
    assert.equal(shortName('OSCAR 7 (AO-7)'), 'AO-7');
    assert.equal(shortName('ISS (ZARYA)'), 'ISS');
    assert.equal(shortName('JAS-2 (FO-29)'), 'FO-29');
    assert.equal(shortName('BEESAT-1'), 'BEESAT-1');
  });
});
