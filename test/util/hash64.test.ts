import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Hash64, randomUuidShape } from '../../src/util/hash64.js';

describe('Hash64 (names that change with their input, without node:crypto)', () => {
  const hex = (...parts: string[]) => parts.reduce((h, p) => h.update(p), new Hash64()).hex();

  it('is 16 hex digits, the same for the same text however it is fed', () => {
    assert.match(hex('25544|2026-11-29T00:00:00|15.5'), /^[0-9a-f]{16}$/);
    assert.equal(hex('abc', 'def'), hex('abcdef'));
    assert.equal(hex(''), hex());
  });

  it('changes with one changed, added or moved character, and no two of 200k distinct lines collide', () => {
    const base = '25544|2026-11-29T10:15:00.000|15.50103472|0.0006703|51.6416|247.4627';
    const seen = new Set([hex(base)]);
    for (let i = 0; i < base.length; i++) {
      for (const c of ['0', '9', '.', 'x']) {
        const changed = base.slice(0, i) + c + base.slice(i + 1);
        if (changed !== base) assert.notEqual(hex(changed), hex(base), `position ${i} -> ${c}`);
      }
    }
    assert.notEqual(hex(base + '\n'), hex(base));
    assert.notEqual(hex('ab'), hex('ba'));
    for (let i = 0; i < 200_000; i++) seen.add(hex(`${i}|${base}`));
    assert.equal(seen.size, 200_001);
  });

  it('spreads its bits: each output bit flips for about half of one-character changes', () => {
    const flips = new Array(64).fill(0);
    const bits = (h: string) => BigInt('0x' + h);
    const n = 4000;
    for (let i = 0; i < n; i++) {
      const d = bits(hex(`line ${i}`)) ^ bits(hex(`line ${i + 1}`));
      for (let b = 0; b < 64; b++) if ((d >> BigInt(b)) & 1n) flips[b]++;
    }
    for (const [b, f] of flips.entries()) assert.ok(f > n * 0.4 && f < n * 0.6, `bit ${b} flipped ${f} of ${n}`);
  });

  it('randomUuidShape: a version-4 UUID\'s shape, new each time', () => {
    const ids = new Set(Array.from({ length: 1000 }, randomUuidShape));
    assert.equal(ids.size, 1000);
    for (const id of ids) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
