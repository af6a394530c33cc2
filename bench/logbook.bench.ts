import { medianMs, profile, type BudgetLine, type Suite } from './harness.js';
import { adifChunks } from '../src/logbook/adif.js';
import { satQso } from '../test/logbook/fixtures.js';

// Logbook budgets (issue 28): the ADIF export of 10,000 QSOs streams in ≤ 300 ms with bounded
// memory. The export is a generator of chunks the HTTP layer writes one at a time, so what the
// process holds at once is one chunk, not the file: the figure is the largest chunk beside the
// whole file's size.

const N = 10_000;
const KiB = 1024;

export const logbookSuite: Suite = {
  name: 'logbook: ADIF export',
  async run(): Promise<BudgetLine[]> {
    // Varied records, as a real log has: calls, grids, comments with non-ASCII text.
    const qsos = Array.from({ length: N }, (_, i) =>
      satQso({
        id: `q${i}`,
        call: `W${i % 10}A${String.fromCharCode(65 + (i % 26))}`,
        time_on: new Date(Date.UTC(2026, 0, 1) + i * 97_000).toISOString(),
        comment: i % 3 ? `pass ${i}, 73` : `Grüße aus München, QSO ${i}`,
        freq_rx_mhz: 436.795 + (i % 50) / 1e4,
      }),
    );
    const header = { programVersion: 'bench', createdMs: Date.UTC(2026, 7, 22) };
    let largest = 0;
    let total = 0;
    const ms = await medianMs(
      `ADIF export x${N}`,
      () => {
        total = 0;
        for (const chunk of adifChunks(qsos, header)) {
          total += chunk.length;
          if (chunk.length > largest) largest = chunk.length;
        }
      },
      { iterations: profile.quick ? 3 : 10 },
    );
    return [
      { name: `ADIF export of ${N} QSOs, streamed in chunks`, value: ms, unit: 'ms', budget: 300, note: `${(total / KiB / KiB).toFixed(1)} MiB of ADIF` },
      { name: 'largest chunk held at once during the export', value: largest / KiB, unit: 'KiB', budget: 256, note: `whole file ${(total / KiB).toFixed(0)} KiB` },
    ];
  },
};
