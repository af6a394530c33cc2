import assert from 'node:assert/strict';
import { test } from 'node:test';
import { iso } from '../../src/util/clock.js';
import { mulberry32 } from '../helpers/prng.js';

// iso() formats by hand what Date#toISOString formats; the builtin is the reference for every
// instant, fast path and fallback alike.
const ref = (ms: number) => new Date(ms).toISOString();

test('iso writes what toISOString writes: random instants over 1970-9999, and alternating days', () => {
  const rnd = mulberry32(36);
  const max = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
  for (let i = 0; i < 200_000; i++) {
    const ms = Math.floor(rnd() * (max + 1));
    assert.equal(iso(ms), ref(ms));
  }
  // Two days in turn, as a snapshot's passes and path do: the day kept is swapped every time.
  const a = Date.UTC(2026, 10, 30, 23, 59, 59, 999);
  for (let i = 0; i < 1000; i++) {
    const ms = a + (i % 2 ? 1 + i * 7 : -i * 13);
    assert.equal(iso(ms), ref(ms));
  }
});

test('iso at the calendar edges: leap days, centuries, month and year ends, the epoch, the last four-digit year', () => {
  const edges = [
    0,
    -0,
    Date.UTC(1972, 1, 29),
    Date.UTC(2000, 1, 29, 12),
    Date.UTC(2000, 2, 1) - 1,
    Date.UTC(2024, 1, 29, 23, 59, 59, 999),
    Date.UTC(2100, 1, 28, 23, 59, 59, 999),
    Date.UTC(2100, 2, 1),
    Date.UTC(2026, 11, 31, 23, 59, 59, 999),
    Date.UTC(2027, 0, 1),
    Date.UTC(9999, 11, 31, 23, 59, 59, 999),
  ];
  for (const ms of edges) assert.equal(iso(ms), ref(ms), String(ms));
  for (let d = Date.UTC(2023, 0, 1); d < Date.UTC(2029, 0, 1); d += 86_400_000) {
    assert.equal(iso(d), ref(d));
    assert.equal(iso(d - 1), ref(d - 1));
  }
});

test('iso outside the fast range answers as the builtin does: before 1970, past 9999, fractions, invalid', () => {
  for (const ms of [-1, -86_400_001, Date.UTC(1969, 11, 31, 23, 59, 59, 999), Date.UTC(10000, 0, 1), 8.64e15, -8.64e15, 1.5, 1_700_000_000_000.75, -0.5]) {
    assert.equal(iso(ms), ref(ms), String(ms));
  }
  for (const bad of [Number.NaN, Infinity, -Infinity, 8.64e15 + 1]) assert.throws(() => iso(bad), RangeError);
});
