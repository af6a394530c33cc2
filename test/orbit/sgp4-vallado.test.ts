import assert from 'node:assert/strict';
import { test } from 'node:test';
import { twoline2satrec } from 'satellite.js';
import { tleToElements } from '../../src/catalog/tle.js';
import type { OmmElements } from '../../src/catalog/types.js';
import { Propagator } from '../../src/orbit/propagator.js';

// Vallado, Crawford, Hujsak & Kelso, "Revisiting Spacetrack Report #3" (AIAA 2006-6753):
// SGP4-VER.TLE cases and the reference output tcppver.out (minutes since epoch, TEME position
// km, velocity km/s). The values below are copied from tcppver.out.
const CASES: { name: string; l1: string; l2: string; rows: number[][] }[] = [
  {
    name: '00005 (near-Earth, e = 0.186)',
    l1: '1 00005U 58002B   00179.78495062  .00000023  00000-0  28098-4 0  4753',
    l2: '2 00005  34.2682 348.7242 1859667 331.7664  19.3264 10.82419157413667',
    rows: [
      [0, 7022.46529266, -1400.08296755, 0.03995155, 1.893841015, 6.405893759, 4.53480725],
      [360, -7154.03120202, -3783.17682504, -3536.19412294, 4.741887409, -4.151817765, -2.093935425],
      [720, -7134.59340119, 6531.68641334, 3260.27186483, -4.113793027, -2.911922039, -2.557327851],
      [1440, -938.55923943, -6268.18748831, -4294.02924751, 7.536105209, -0.427127707, 0.98987808],
      [2880, -8650.73082219, -1914.93811525, -3007.03603443, 3.067165127, -4.828384068, -2.515322836],
      [4320, -9060.47373569, 4658.70952502, 813.68673153, -2.232832783, -4.11045349, -3.157345433],
    ],
  },
  {
    name: '06251 (near-Earth, drag)',
    l1: '1 06251U 62025E   06176.82412014  .00008885  00000-0  12808-3 0  3985',
    l2: '2 06251  58.0579  54.0425 0030035 139.1568 221.1854 15.56387291  6774',
    rows: [
      [0, 3988.31022699, 5498.96657235, 0.90055879, -3.290032738, 2.35765282, 6.496623475],
      [120, -3935.69800083, 409.10980837, 5471.33577327, -3.374784183, -6.635211043, -1.942056221],
      [1440, -2777.14682335, -5663.16031708, -2462.54889123, 4.915493146, 0.123328992, -5.896495091],
      [2880, 1159.27802897, 5056.60175495, 4353.49418579, -5.968060341, -2.314790406, 4.230722669],
    ],
  },
  {
    name: '08195 (deep space, 12 h resonance, Molniya)',
    l1: '1 08195U 75081A   06176.33215444  .00000099  00000-0  11873-3 0   813',
    l2: '2 08195  64.1586 279.0717 6877146 264.7651  20.2257  2.00491383225656',
    rows: [
      [0, 2349.8948335, -14785.93811562, 0.02119378, 2.721488096, -3.256811655, 4.498416672],
      [120, 15223.91713658, -17852.95881713, 25280.39558224, 1.079041732, 0.875187372, 2.485682813],
      [1440, 2890.80638268, -15446.4395230, 948.77010176, 2.65440749, -2.909344895, 4.486437362],
      [2880, 3417.20931586, -16038.79510665, 1894.74934058, 2.585515864, -2.596818146, 4.456882556],
    ],
  },
];

function check(prop: Propagator, rows: number[][], posTolKm: number, velTolKmS: number, label: string) {
  const st = new Float64Array(6);
  const epoch = prop.satrecOf(0)!.jdsatepoch;
  const epochMs = (epoch - 2440587.5) * 86_400_000;
  for (const [min, ...want] of rows) {
    assert.ok(prop.propagate(0, epochMs + min * 60_000, st), `${label} t=${min} propagates`);
    for (let k = 0; k < 3; k++) assert.ok(Math.abs(st[k] - want[k]) < posTolKm, `${label} t=${min} r[${k}] ${st[k]} vs ${want[k]}`);
    for (let k = 3; k < 6; k++) assert.ok(Math.abs(st[k] - want[k]) < velTolKmS, `${label} t=${min} v[${k - 3}] ${st[k]} vs ${want[k]}`);
  }
}

for (const c of CASES) {
  test(`SGP4 matches Vallado tcppver.out: ${c.name}`, () => {
    // 1e-5 km (1 cm) position, 1e-8 km/s velocity: the printed precision of tcppver.out.
    const prop = new Propagator([{ sat_id: 'x', name: c.name, satrec: twoline2satrec(c.l1, c.l2) }]);
    check(prop, c.rows, 1e-5, 1e-8, c.name);
  });

  test(`SGP4 through OMM elements (the catalog's form): ${c.name}`, () => {
    const el = tleToElements({ name: c.name, line1: c.l1, line2: c.l2 }) as OmmElements;
    assert.ok('EPOCH' in el);
    const prop = new Propagator([{ sat_id: 'x', name: c.name, elements: el }]);
    // OMM carries the same numbers in decimal text; the epoch keeps microseconds: mm-level agreement.
    check(prop, c.rows, 1e-3, 1e-6, `${c.name} (OMM)`);
  });
}
