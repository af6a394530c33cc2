import { readFileSync } from 'node:fs';
import { brotliDecompressSync } from 'node:zlib';
import { bundledElements } from '../src/catalog/bundled.js';
import { curatedCorrections } from '../src/guidance/transmitters/bundled.js';
import { buildProfiles } from '../src/guidance/transmitters/build-profiles.js';
import { parseTransmitters } from '../src/guidance/transmitters/record.js';
import { benchDataFile } from './env.js';
import { medianMs, settleHeap, type BudgetLine, type Suite } from './harness.js';

// Issue 27 budgets: rebuilding profiles (parse + select) from the full SatNOGS active dump
// (2,910 records, 2026-08-08) ≤ 50 ms; the profile set held in memory +1 MiB at most.

export const profilesSuite: Suite = {
  name: 'guidance: profiles from transmitter data',
  async run(): Promise<BudgetLine[]> {
    const raw: unknown = JSON.parse(brotliDecompressSync(readFileSync(benchDataFile('satnogs-transmitters-active.json.br'))).toString('utf8'));
    const catalog = { byNorad: new Map(bundledElements.map((e) => [e.NORAD_CAT_ID, { name: e.OBJECT_NAME }])) };
    let count = 0;
    const ms = await medianMs('rebuild from 2,910 records', () => {
      count = buildProfiles(parseTransmitters(raw).records, catalog, curatedCorrections()).profiles.length;
    });
    await settleHeap();
    const before = process.memoryUsage().heapUsed;
    const held = buildProfiles(parseTransmitters(raw).records, catalog, curatedCorrections()).profiles;
    await settleHeap();
    const deltaMiB = (process.memoryUsage().heapUsed - before) / 1024 ** 2;
    void held.length;
    return [
      { name: `rebuild profiles from the full dump (${count} profiles)`, value: ms, unit: 'ms', budget: 50 },
      { name: 'profile set heap delta', value: deltaMiB, unit: 'MiB', budget: 1, note: 'the built set held, heap after full collections' },
    ];
  },
};
