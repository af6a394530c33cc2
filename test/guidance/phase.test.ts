import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NO_PASS_PHASE, passPhase, passProgress, phaseLabel, phaseOfProgress, phaseTargetMs } from '../../src/guidance/phase.js';
import { chooseRates, phaseTargets, ratesFromPath } from '../../src/guidance/range-rate.js';

// A 100 000 ms pass starting at t = 1 000 000: progress p is at 1 000 000 + p × 100 000.
const AOS = 1_000_000;
const LOS = 1_100_000;
const at = (pct: number) => AOS + pct * 1000;

describe('pass phase (spec part 3)', () => {
  const boundaries: [number, string][] = [
    [-50, 'aos'], // before AOS: progress negative
    [0, 'aos'],
    [19.99, 'aos'], // 19 990 / 100 000 = 0.1999 < 0.2
    [20, 'early'], // exactly 0.2 is not below 20%
    [39.99, 'early'],
    [40, 'mid'],
    [59.99, 'mid'],
    [60, 'late'],
    [79.99, 'late'],
    [80, 'los'],
    [99.99, 'los'],
    [100, 'los'],
    [250, 'los'], // after LOS
  ];
  for (const [pct, phase] of boundaries) {
    it(`${pct}% → ${phase}`, () => assert.equal(passPhase(at(pct), AOS, LOS).phase, phase));
  }

  it('progress is the fraction of the window', () => {
    assert.equal(passProgress(at(19.99), AOS, LOS), 0.1999);
    assert.equal(passProgress(at(40), AOS, LOS), 0.4);
    assert.equal(phaseOfProgress(0.19999999), 'aos');
    assert.equal(phaseOfProgress(0.8), 'los');
  });

  it('a zero-length window is all aos before and los from its instant', () => {
    assert.equal(passPhase(AOS - 1, AOS, AOS).phase, 'aos');
    assert.equal(passPhase(AOS, AOS, AOS).phase, 'los');
  });

  it('label: AOS cue before AOS, Tune now while under way, Reference after LOS', () => {
    assert.equal(phaseLabel(AOS - 1, AOS, LOS), 'AOS cue');
    assert.equal(phaseLabel(AOS, AOS, LOS), 'Tune now');
    assert.equal(phaseLabel(LOS - 1, AOS, LOS), 'Tune now');
    assert.equal(phaseLabel(LOS, AOS, LOS), 'Reference');
    assert.deepEqual(passPhase(at(-10), AOS, LOS), { phase: 'aos', label: 'AOS cue' });
    assert.deepEqual(passPhase(at(85), AOS, LOS), { phase: 'los', label: 'Tune now' });
  });

  it('without a pass: phase aos, label Reference', () => assert.deepEqual(NO_PASS_PHASE, { phase: 'aos', label: 'Reference' }));

  it('target time of each phase is its band midpoint', () => {
    // 10/30/50/70/90% of 100 000 ms
    assert.deepEqual(phaseTargets(AOS, LOS), [1_010_000, 1_030_000, 1_050_000, 1_070_000, 1_090_000]);
    assert.equal(phaseTargetMs('mid', AOS, LOS), 1_050_000);
  });
});

describe('range rate source (rule 4)', () => {
  const targets = phaseTargets(AOS, LOS);
  // a path every 15 s from AOS: 1 000 000, 1 015 000, … 1 090 000 (rates -6, -5, … +1)
  const path = Array.from({ length: 7 }, (_, i) => ({ t_ms: AOS + i * 15_000, range_rate_km_s: -6 + i }));

  it('takes the path sample nearest each target', () => {
    const r = ratesFromPath(path, targets)!;
    // 1 010 000 → nearest 1 015 000 (-5); 1 030 000 → 1 030 000 (-4); 1 050 000 → 1 045 000 (-3; 5 s vs 10 s);
    // 1 070 000 → 1 075 000 (-1; 5 s vs 10 s); 1 090 000 → 1 090 000 (0)
    assert.deepEqual(r.range_rate_km_s, [-5, -4, -3, -1, 0]);
    assert.deepEqual(r.target, [
      '1970-01-01T00:16:50.000Z',
      '1970-01-01T00:17:10.000Z',
      '1970-01-01T00:17:30.000Z',
      '1970-01-01T00:17:50.000Z',
      '1970-01-01T00:18:10.000Z',
    ]);
  });

  it('path: source path, whatever the live track says', () => {
    const c = chooseRates(ratesFromPath(path, targets), 7.5);
    assert.equal(c.source, 'path');
    assert.deepEqual(c.rates.range_rate_km_s, [-5, -4, -3, -1, 0]);
  });

  it('no path (empty): the live track for every phase', () => {
    assert.equal(ratesFromPath([], targets), null);
    const c = chooseRates(ratesFromPath([], targets), -3.25);
    assert.equal(c.source, 'live');
    assert.deepEqual(c.rates.range_rate_km_s, [-3.25, -3.25, -3.25, -3.25, -3.25]);
    assert.deepEqual(c.rates.target, [null, null, null, null, null]);
  });

  it('no pass and no live track: zero range rate', () => {
    const c = chooseRates(null, null);
    assert.equal(c.source, 'none');
    assert.deepEqual(c.rates.range_rate_km_s, [0, 0, 0, 0, 0]);
    assert.equal(chooseRates(null, Number.NaN).source, 'none');
  });
});
