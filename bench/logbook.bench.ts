import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { medianMs, profile, type BudgetLine, type Suite } from './harness.js';
import { App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { adifChunks } from '../src/logbook/adif.js';
import { satQso } from '../test/logbook/fixtures.js';
import { startFakeCloudlog } from '../test/logbook/fake-cloudlog.js';
import { tmpDataDir } from '../test/helpers/server.js';

// Logbook budgets (issue 28): logging a QSO ≤ 5 ms at the API with the QSO in the file when
// answered; the push queue costs nothing while idle (no timer, no request); the ADIF export of
// 10,000 QSOs streams in ≤ 300 ms with bounded memory. The export is a generator of chunks the HTTP layer writes one at a time, so what the
// process holds at once is one chunk, not the file: the figure is the largest chunk beside the
// whole file's size.

const N = 10_000;
const KiB = 1024;

/** POST /api/v1/logbook/qso over HTTP to the real server (push on, to a Cloudlog stand-in), then the queue left idle. */
async function apiLines(): Promise<BudgetLine[]> {
  const dataDir = tmpDataDir('bench-logbook-');
  const fake = await startFakeCloudlog({ key: 'benchkey', stationProfileId: '1' });
  const app = new App({ config: { ...loadConfig({}, 4 * 1024 ** 3), port: 0, host: '127.0.0.1', dataDir } });
  const base = `http://127.0.0.1:${await app.start()}`;
  const post = async (path: string, body: unknown) => {
    const r = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (r.status !== 200) throw new Error(`${path}: ${r.status} ${await r.text()}`);
    return r.json();
  };
  try {
    await post('/api/v1/settings/logbook', { station_callsign: 'DL1ABC', cloudlog_enabled: true, cloudlog_url: fake.base, cloudlog_api_key: 'benchkey', cloudlog_station_profile_id: '1' });
    await post('/api/v1/logbook/qso', { call: 'W1AW', sat_id: 'iss' }); // loads the logbook
    let n = 0;
    const logMs = await medianMs('POST /api/v1/logbook/qso', async () => {
      const i = n++;
      await post('/api/v1/logbook/qso', { call: `W${i % 10}${String.fromCharCode(65 + ((i / 676) | 0) % 26, 65 + ((i / 26) | 0) % 26, 65 + (i % 26))}`, sat_id: 'iss', their_grid: 'FN31pr', comment: `QSO ${i}` });
    }, { iterations: 200, time: 1000 });
    const lines = readFileSync(join(dataDir, 'logbook.jsonl'), 'utf8').split('\n').filter((l) => l.includes('"t":"qso"')).length;
    if (lines < n + 1) throw new Error(`only ${lines} of ${n + 1} QSOs in the file`);
    // Idle: everything pushed, then a second of nothing.
    const book = await app.services.logbook.engine();
    const end = Date.now() + 30_000;
    while (book.status().pending > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    await book.queue.idle();
    const requests = fake.requests.length;
    await new Promise((r) => setTimeout(r, 1000));
    const idleRequests = fake.requests.length - requests;
    return [
      { name: 'logging a QSO at the API, answered once in the file (median)', value: logMs, unit: 'ms', budget: 5, note: `${n} QSOs, push to Cloudlog on` },
      { name: 'push queue idle: timers armed', value: book.queue.timerArmed ? 1 : 0, unit: 'timers', budget: 0, note: `${book.status().records} QSOs pushed` },
      { name: 'push queue idle: requests in 1 s', value: idleRequests, unit: 'requests', budget: 0 },
    ];
  } finally {
    await app.stop();
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const logbookSuite: Suite = {
  name: 'logbook: API logging, idle push queue, ADIF export',
  async run(): Promise<BudgetLine[]> {
    const api = await apiLines();
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
      ...api,
      { name: `ADIF export of ${N} QSOs, streamed in chunks`, value: ms, unit: 'ms', budget: 300, note: `${(total / KiB / KiB).toFixed(1)} MiB of ADIF` },
      { name: 'largest chunk held at once during the export', value: largest / KiB, unit: 'KiB', budget: 256, note: `whole file ${(total / KiB).toFixed(0)} KiB` },
    ];
  },
};
