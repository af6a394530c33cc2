import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextPassBySat } from '../../ui/lib/pass.js';

// The tracked strip's order on /lite: passes under way, then by AOS, then satellites without one.

const T0 = Date.parse('2026-08-22T12:00:00Z');
const at = (min: number) => new Date(T0 + min * 60_000).toISOString();
const pass = (sat_id: string, aosMin: number, losMin: number) => ({ sat_id, aos: at(aosMin), los: at(losMin) });

describe('nextPassBySat', () => {
  it('gives every satellite its first pass not yet ended, under way first, no pass last in tracked order', () => {
    const passes = [pass('ao-91', -30, -20), pass('so-50', -5, 5), pass('iss', 20, 30), pass('ao-91', 40, 52), pass('iss', 110, 120)];
    const rows = nextPassBySat(['iss', 'rs-44', 'ao-91', 'so-50', 'fo-29'], passes, T0);
    assert.deepEqual(
      rows.map((r) => [r.sat_id, r.pass?.aos ?? null]),
      [
        ['so-50', at(-5)],
        ['iss', at(20)],
        ['ao-91', at(40)],
        ['rs-44', null],
        ['fo-29', null],
      ],
    );
  });
});
