import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { loadLand110m, outlinePath } from '../../ui/build/world-outline.mjs';

// The build-time world outline (Natural Earth 1:110m land from world-atlas), decoded and simplified.

/** Absolute vertices of each ring of the emitted relative path (m/l/z, implicit repeats). */
function rings(d: string): Array<Array<[number, number]>> {
  const out: Array<Array<[number, number]>> = [];
  let x = 0;
  let y = 0;
  let start: [number, number] = [0, 0];
  let cur: Array<[number, number]> = [];
  for (const [, cmd, args] of d.matchAll(/([mlz])([^mlz]*)/g)) {
    if (cmd === 'z') {
      out.push(cur);
      [x, y] = start;
      continue;
    }
    const nums = args.match(/-?(\d+\.?\d*|\.\d+)/g)!.map(Number);
    for (let i = 0; i < nums.length; i += 2) {
      x += nums[i];
      y += nums[i + 1];
      if (cmd === 'm' && i === 0) {
        start = [x, y];
        cur = [];
      }
      cur.push([x, y]);
    }
  }
  return out;
}

function inside(ring: Array<[number, number]>, [px, py]: [number, number]): boolean {
  let c = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

const onLand = (rs: ReturnType<typeof rings>, lat: number, lon: number) => rs.some((r) => inside(r, [lon + 180, 90 - lat]));

describe('world outline', () => {
  const { d, rings: count, points } = outlinePath(loadLand110m());
  const rs = rings(d);

  it('is small enough for a page budget and keeps the continents', () => {
    const gz = gzipSync(d).length;
    console.log(`world outline: ${count} rings, ${points} points, ${(d.length / 1024).toFixed(1)} KiB, ${(gz / 1024).toFixed(1)} KiB gzip`);
    assert.ok(gz < 8 * 1024, `${gz} B gzip`);
    assert.ok(count > 50 && count < 200, String(count));
    assert.equal(rs.length, count);
    for (const r of rs) for (const [x, y] of r) assert.ok(x >= -0.05 && x <= 360.05 && y >= -0.05 && y <= 180.05, `${x},${y}`);
  });

  it('puts land and sea where they are', () => {
    for (const [lat, lon, name] of [
      [23, 13, 'Sahara'],
      [-25, 134, 'Australia'],
      [45, -100, 'North America'],
      [-10, -55, 'Brazil'],
      [60, 90, 'Siberia'],
      [52, -1.5, 'England'],
    ] as const) assert.ok(onLand(rs, lat, lon), `${name} is land`);
    for (const [lat, lon, name] of [
      [30, -40, 'mid-Atlantic'],
      [0, -150, 'Pacific'],
      [-30, 80, 'Indian Ocean'],
      [40, 5, 'Mediterranean'],
    ] as const) assert.ok(!onLand(rs, lat, lon), `${name} is sea`);
  });
});
