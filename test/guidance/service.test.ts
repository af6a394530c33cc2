import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GuidanceService } from '../../src/guidance/guidance-service.js';
import type { PassEvent } from '../../src/orbit/types.js';
import { setLogLevel, setLogSink } from '../../src/util/logger.js';
import { startServer, type TestServer } from '../helpers/server.js';

// The service on the app's real catalog and orbit engine.
describe('GuidanceService', () => {
  let s: TestServer;
  let now: number;
  before(async () => {
    s = await startServer({ now: '2026-08-22T12:00:00Z' });
    now = s.clock.now();
  });
  after(() => s.stop());

  it('phase follows the progress of a real pass, boundaries included', () => {
    const g = s.app.services.guidance;
    const pass = s.app.services.orbit.currentOrNextPass('rs-44', now)!;
    const span = pass.los_ms - pass.aos_ms;
    // whole ms: exactly at a boundary rounds up into the band, just below rounds down, so float error cannot blur them
    const boundary = new Set([0.2, 0.4, 0.6, 0.8, 1]);
    const at = (f: number) => g.recommend('rs-44', pass.aos_ms + (boundary.has(f) ? Math.ceil(f * span) : Math.floor(f * span)), { pass })!;
    const cases: [number, string, string][] = [
      [-0.5, 'aos', 'AOS cue'],
      [0.1999, 'aos', 'Tune now'],
      [0.2, 'early', 'Tune now'],
      [0.3999, 'early', 'Tune now'],
      [0.4, 'mid', 'Tune now'],
      [0.5999, 'mid', 'Tune now'],
      [0.6, 'late', 'Tune now'],
      [0.7999, 'late', 'Tune now'],
      [0.8, 'los', 'Tune now'],
      [1, 'los', 'Reference'],
    ];
    for (const [f, phase, label] of cases) {
      const r = at(f);
      assert.deepEqual([r.recommendation!.phase, r.recommendation!.label], [phase, label], `progress ${f}`);
      assert.equal(r.matrix!.active_phase, phase);
      // the recommendation is the active row, and the rows do not depend on now (cached per pass)
      const row = r.matrix!.rows.find((x) => x.phase === phase)!;
      assert.equal(r.recommendation!.downlink_mhz, row.downlink_mhz);
      assert.deepEqual(r.matrix!.rows, at(0.5).matrix!.rows);
    }
  });

  it('embed() is the route model without pass and track', () => {
    const g = s.app.services.guidance;
    const full = g.recommend('fo-29', now)!;
    assert.deepEqual(g.embed('fo-29', now), { frequencyRecommendation: full.recommendation, frequencyMatrix: full.matrix });
    assert.deepEqual(g.embed('fo-29', now, full.pass), { frequencyRecommendation: full.recommendation, frequencyMatrix: full.matrix });
    assert.deepEqual(g.embed('fo-29', now, full.pass, 0).frequencyMatrix!.selected_column_index, 0);
  });

  it('no pass (pass: null): live track rate for every phase, label Reference', () => {
    const g = s.app.services.guidance;
    const r = g.recommend('so-50', now, { pass: null })!;
    assert.equal(r.pass, null);
    assert.equal(r.track.range_rate_source, 'live');
    assert.equal(r.track.range_rate_km_s, s.app.services.orbit.sample('so-50', now)!.range_rate_km_s);
    assert.deepEqual([r.recommendation!.phase, r.recommendation!.label], ['aos', 'Reference']);
    assert.deepEqual(g.embed('so-50', now, null).frequencyRecommendation, r.recommendation);
  });

  it('no path (a zero-length window yields no samples): falls back to the live track', () => {
    const g = s.app.services.guidance;
    const real = s.app.services.orbit.currentOrNextPass('ao-91', now)!;
    const degenerate: PassEvent = { ...real, los_ms: real.aos_ms, tca_ms: real.aos_ms, los: real.aos, tca: real.aos };
    const r = g.recommend('ao-91', real.aos_ms, { pass: degenerate })!;
    assert.equal(r.track.range_rate_source, 'live');
    assert.equal(r.track.range_rate_km_s, s.app.services.orbit.sample('ao-91', real.aos_ms)!.range_rate_km_s);
  });

  it('unknown satellite: recommend null, embed all-null', () => {
    const g = s.app.services.guidance;
    assert.equal(g.recommend('no-such-sat', now), null);
    assert.deepEqual(g.embed('no-such-sat', now), { frequencyRecommendation: null, frequencyMatrix: null });
  });

  it('a bad profile entry is skipped with a logged reason; the good ones load', () => {
    const lines: string[] = [];
    setLogSink((l) => lines.push(l));
    setLogLevel('warn');
    try {
      const good = { norad_id: 25544, name: 'ISS', mode: 'fm', correction_side: 'uhf_only', columns: [{ uplink_hz: 145_990_000, downlink_hz: 437_800_000, label: 'FM' }], uplink_step_hz: 5000, downlink_step_hz: 5000, uplink_mode: 'FM', downlink_mode: 'FM' };
      const g = new GuidanceService({
        catalog: s.app.services.catalog,
        orbit: s.app.services.orbit,
        profileFile: { version: 1, profiles: [good, { ...good, norad_id: 27607, mode: 'linear' }] },
      });
      assert.equal(g.profile('iss')!.norad_id, 25544);
      assert.equal(g.profile('so-50'), null);
      assert.equal(lines.length, 1);
      assert.match(lines[0], /WARN .*\[guidance\] profile entry 1 \(norad 27607\) skipped: .*inverting/);
    } finally {
      setLogLevel('silent');
      setLogSink((l) => process.stdout.write(l + '\n'));
    }
  });
});
