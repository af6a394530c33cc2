// Build-time world outline for the ground-track map: Natural Earth's public-domain 1:110m land
// (as TopoJSON in the world-atlas package), decoded and simplified here, emitted as one SVG path
// in an equirectangular frame (x = lon + 180 in 0..360, y = 90 − lat in 0..180).
// Pages import it as `virtual:world-outline`; nothing of world-atlas reaches the browser.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** Douglas–Peucker tolerance in degrees: the map is at most ~1,300 px wide (≈ 3.6 px per degree). */
export const TOLERANCE_DEG = 0.35;
/** Islands smaller than this (deg², about 60 km across at the equator) are left out. */
export const MIN_RING_AREA_DEG2 = 0.3;

/** Arcs of a quantised TopoJSON topology as [lon, lat] points. */
function decodeArcs(topo) {
  const [sx, sy] = topo.transform.scale;
  const [tx, ty] = topo.transform.translate;
  return topo.arcs.map((arc) => {
    let x = 0;
    let y = 0;
    return arc.map(([dx, dy]) => {
      x += dx;
      y += dy;
      return [x * sx + tx, y * sy + ty];
    });
  });
}

/** A ring from arc indexes (~i is arc i reversed); shared end points are not repeated. */
function ring(arcs, indexes) {
  const out = [];
  for (const i of indexes) {
    const a = i < 0 ? arcs[~i].slice().reverse() : arcs[i];
    out.push(...(out.length ? a.slice(1) : a));
  }
  return out;
}

/**
 * Natural Earth closes rings that cross the antimeridian with an edge from lon 180 to −180
 * (Russia, Fiji): flat, that edge runs across the whole map. Such a ring is cut at each jump
 * into pieces that each stay on one side; closing a piece runs along the map's edge instead.
 */
function splitAtAntimeridian(points) {
  const pieces = [[points[0]]];
  for (let i = 1; i < points.length; i++) {
    if (Math.abs(points[i][0] - points[i - 1][0]) > 180) pieces.push([]);
    pieces[pieces.length - 1].push(points[i]);
  }
  if (pieces.length === 1) return pieces;
  // The ring is cyclic: its last piece continues into its first.
  const last = pieces.pop();
  pieces[0] = [...last, ...pieces[0]];
  return pieces;
}

function area(points) {
  let a = 0;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) a += (points[j][0] - points[i][0]) * (points[j][1] + points[i][1]);
  return Math.abs(a / 2);
}

function simplify(points, tol) {
  if (points.length < 4) return points;
  const keep = new Uint8Array(points.length);
  const last = points.length - 1;
  // A closed ring starts and ends on one point: split it at the point farthest from there.
  let far = 1;
  for (let i = 2; i < last; i++) if (Math.hypot(points[i][0] - points[0][0], points[i][1] - points[0][1]) > Math.hypot(points[far][0] - points[0][0], points[far][1] - points[0][1])) far = i;
  keep[0] = keep[far] = keep[last] = 1;
  const stack = [
    [0, far],
    [far, last],
  ];
  while (stack.length) {
    const [a, b] = stack.pop();
    const [ax, ay] = points[a];
    const [bx, by] = points[b];
    const len = Math.hypot(bx - ax, by - ay) || 1e-12;
    let worst = -1;
    let at = -1;
    for (let i = a + 1; i < b; i++) {
      const d = Math.abs((bx - ax) * (ay - points[i][1]) - (ax - points[i][0]) * (by - ay)) / len;
      if (d > worst) [worst, at] = [d, i];
    }
    if (worst > tol) {
      keep[at] = 1;
      stack.push([a, at], [at, b]);
    }
  }
  return points.filter((_, i) => keep[i]);
}

/** One SVG path (relative moves, 0.1° steps) of every land ring; also its ring and point counts. */
export function outlinePath(topo, tol = TOLERANCE_DEG, minArea = MIN_RING_AREA_DEG2) {
  const arcs = decodeArcs(topo);
  const q = (v) => Math.round(v * 10);
  let d = '';
  let rings = 0;
  let points = 0;
  let cx = 0;
  let cy = 0;
  for (const g of Object.values(topo.objects).flatMap((o) => o.geometries ?? [o])) {
    const polys = g.type === 'Polygon' ? [g.arcs] : g.type === 'MultiPolygon' ? g.arcs : [];
    for (const poly of polys) {
      for (const idx of poly) {
        for (const r of splitAtAntimeridian(ring(arcs, idx))) {
        if (area(r) < minArea) continue;
        const s = simplify(r, tol);
        if (s.length < 4) continue;
        rings++;
        const start = [q(s[0][0] + 180), q(90 - s[0][1])];
        s.forEach(([lon, lat], k) => {
          const x = q(lon + 180);
          const y = q(90 - lat);
          if (k === s.length - 1 && x === q(s[0][0] + 180) && y === q(90 - s[0][1])) return; // closed by z
          const dx = x - cx;
          const dy = y - cy;
          if (k > 0 && dx === 0 && dy === 0) return;
          d += (k === 0 ? 'm' : k === 1 ? 'l' : dx < 0 ? '' : ' ') + num(dx) + (dy < 0 ? '' : ' ') + num(dy);
          cx = x;
          cy = y;
          points++;
        });
        d += 'z';
        [cx, cy] = start; // after z the pen is back at the ring's start
        }
      }
    }
  }
  return { d, rings, points };
}

/** Tenths as SVG numbers: 12 → "1.2", -3 → "-.3". */
function num(t) {
  const s = (Math.abs(t) / 10).toString().replace(/^0\./, '.');
  return (t < 0 ? '-' : '') + s;
}

export function loadLand110m() {
  const require = createRequire(import.meta.url);
  return JSON.parse(readFileSync(require.resolve('world-atlas/land-110m.json'), 'utf8'));
}

/** Esbuild plugin: `import outline from 'virtual:world-outline'` gives the path string. */
export function worldOutline() {
  return {
    name: 'world-outline',
    setup(b) {
      b.onResolve({ filter: /^virtual:world-outline$/ }, () => ({ path: 'world-outline', namespace: 'world-outline' }));
      b.onLoad({ filter: /.*/, namespace: 'world-outline' }, () => {
        const { d } = outlinePath(loadLand110m());
        return { contents: `export default ${JSON.stringify(d)};`, loader: 'js' };
      });
    },
  };
}
