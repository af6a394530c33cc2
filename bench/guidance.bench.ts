import { rmSync } from 'node:fs';
import { App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { GuidanceService } from '../src/guidance/guidance-service.js';
import { FixedClock } from '../src/util/clock.js';
import { tmpDataDir } from '../test/helpers/server.js';
import { medianMs, type BudgetLine, type Suite } from './harness.js';

// Frequency guidance budget (issue 4): recommendation + matrix for one satellite with a cached
// pass under 50 µs. Measured on the real app (bundled catalog, pass table ready), the clock
// stepping 1 s per call so the phase and label are recomputed every time.

const N = 1000;

export const guidanceSuite: Suite = {
  name: 'guidance: recommendation and matrix',
  async run(): Promise<BudgetLine[]> {
    const dataDir = tmpDataDir('bench-guidance-');
    const clock = new FixedClock(Date.parse('2026-08-22T12:00:00Z'));
    const app = new App({ config: { ...loadConfig({}, 4 * 1024 ** 3), port: 0, host: '127.0.0.1', dataDir }, clock });
    await app.start();
    const s = app.services;
    await s.orbit.table.ready();
    const g = s.guidance;
    const t0 = clock.now();
    // Prime the per-pass cache once (what the first request after a new pass pays).
    if (!g.recommend('rs-44', t0)?.matrix || !g.recommend('iss', t0)?.recommendation) throw new Error('no guidance to bench');
    const pass = s.orbit.currentOrNextPass('rs-44', t0)!;
    let k = 0;
    let sink = 0;
    const linearMs = await medianMs(`recommend rs-44 x${N}`, () => {
      for (let i = 0; i < N; i++) sink += g.recommend('rs-44', t0 + (k++ % 600) * 1000)!.matrix!.rows.length;
    });
    const embedMs = await medianMs(`embed rs-44 given its pass x${N}`, () => {
      for (let i = 0; i < N; i++) sink += g.embed('rs-44', t0 + (k++ % 600) * 1000, pass).frequencyMatrix!.rows.length;
    });
    const fmMs = await medianMs(`recommend iss x${N}`, () => {
      for (let i = 0; i < N; i++) sink += g.recommend('iss', t0 + (k++ % 600) * 1000)!.recommendation!.downlink_hz > 0 ? 1 : 0;
    });

    // Cache miss: a fresh service guiding every profiled pass of the next 24 h once (five path samples each).
    const fresh = new GuidanceService({ catalog: s.catalog, orbit: s.orbit });
    const ids = fresh.allProfiles().map((p) => p.sat_id);
    const passes = s.orbit.passes({ from_ms: t0, hours: 24, min_max_el_deg: 0, sat_ids: ids, include_ongoing: true });
    const start = performance.now();
    for (const p of passes) sink += fresh.embed(p.sat_id, t0, p).frequencyRecommendation ? 1 : 0;
    const missUs = passes.length ? ((performance.now() - start) * 1000) / passes.length : 0;

    await app.stop();
    rmSync(dataDir, { recursive: true, force: true });
    void sink;
    const perCallUs = (ms: number) => (ms * 1000) / N;
    return [
      { name: 'recommendation + matrix, linear (rs-44), cached pass, via currentOrNextPass', value: perCallUs(linearMs), unit: 'µs', budget: 50 },
      { name: 'recommendation + matrix, linear (rs-44), pass given (/passes item)', value: perCallUs(embedMs), unit: 'µs', budget: 50 },
      { name: 'recommendation, fm (iss), cached pass', value: perCallUs(fmMs), unit: 'µs', budget: 50 },
      { name: `first guidance for a pass (cache miss, ${passes.length} passes)`, value: missUs, unit: 'µs', budget: 250, note: 'one path call, 5 samples' },
    ];
  },
};
