import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { retryAfterMs } from '../../src/util/retry-after.js';

// The one Retry-After parser the catalog fetch and the logbook push share.
describe('Retry-After', () => {
  const now = Date.parse('2025-03-01T12:00:00Z');

  it('delta-seconds are a wait in ms, surrounding blanks ignored', () => {
    assert.equal(retryAfterMs('120', now), 120_000);
    assert.equal(retryAfterMs(' 30 ', now), 30_000);
    assert.equal(retryAfterMs('0', now), 0);
  });

  it('an HTTP-date is the time until then', () => {
    assert.equal(retryAfterMs('Sat, 01 Mar 2025 12:01:30 GMT', now), 90_000);
  });

  it('a date already past is no wait (never negative)', () => {
    assert.equal(retryAfterMs('Sat, 01 Mar 2025 11:00:00 GMT', now), 0);
  });

  it('absent, empty or garbage is null: the caller falls back to its own backoff', () => {
    for (const v of [null, undefined, '', '   ', 'soon', 'in a minute']) assert.equal(retryAfterMs(v, now), null, JSON.stringify(v));
  });

  it('a long wait is returned as sent: capping is the caller\'s (the push queue caps at an hour)', () => {
    assert.equal(retryAfterMs('86400', now), 86_400_000);
  });
});
