// Catalog budgets: parse + validate the full active catalog; peak RSS of a refresh.
// The RSS figure comes from a fresh child process (the bench's `refresh` child, child-bundle.ts),
// so what the other suites allocated does not count.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CatalogService } from '../src/catalog/catalog-service.js';
import { parseCatalogText } from '../src/catalog/parse.js';
import { CatalogRefresh } from '../src/catalog/refresh-service.js';
import { SnapshotService } from '../src/catalog/snapshots.js';
import { CatalogSourcesSchema, defaultCatalogSources } from '../src/catalog/sources.js';
import { loadConfig } from '../src/config.js';
import { JsonStore } from '../src/store/json-store.js';
import { FixedClock } from '../src/util/clock.js';
import { setLogLevel } from '../src/util/logger.js';
import { describeRuntime, runChild } from './child-bundle.js';
import { ownPeakRssMiB } from './peak-rss.js';
import { fullOnly, medianMs, section, type Line, type Suite } from './harness.js';
import { activeTlePath, AMATEUR_TLE, STATIONS_TLE } from './data.js';

const NOW = Date.parse('2026-07-24T12:00:00Z'); // data date of active.tle

/** Child: serve the files over HTTP on 127.0.0.1, run one real refresh, print peak RSS. */
async function child(files: string[]): Promise<void> {
  setLogLevel('silent');
  const bodies = files.map((f) => readFileSync(f));
  const server = createServer((req, res) => {
    const i = Number((req.url ?? '/0').slice(1));
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(bodies[i]);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const dir = mkdtempSync(join(tmpdir(), 'bench-refresh-'));
  const clock = new FixedClock(NOW);
  const sources = files.map((_, i) => `http://127.0.0.1:${port}/${i}`);
  const config = { ...loadConfig({}), dataDir: dir, catalogSources: sources };
  const catalogSources = new JsonStore({ dir, name: 'catalog-sources', schema: CatalogSourcesSchema, defaults: defaultCatalogSources });
  const catalog = new CatalogService({ dataDir: dir, clock });
  const before = ownPeakRssMiB();
  const refresh = new CatalogRefresh({ config, clock, stores: { catalogSources }, catalog, snapshots: new SnapshotService(dir, clock, catalog), isOffline: () => false });
  const r = await refresh.refresh('bench');
  server.close();
  rmSync(dir, { recursive: true, force: true });
  process.stdout.write(JSON.stringify({ ok: r.ok, count: r.count, beforeMiB: before, peakMiB: ownPeakRssMiB(), error: r.error }) + '\n');
}

async function refreshRss(files: string[]): Promise<{ peakMiB: number; count: number; note: string }> {
  const out = await runChild<{ ok: boolean; count: number; beforeMiB: number; peakMiB: number; error?: string }>('catalog', 'refresh', files);
  if (!out.ok) throw new Error(`refresh in the child failed: ${out.error}`);
  return { peakMiB: out.peakMiB, count: out.count, note: `${out.count} objects; peak RSS before the refresh ${out.beforeMiB.toFixed(0)} MiB (VmHWM); ${describeRuntime()}, bundled` };
}

export const catalogSuite: Suite = {
  name: 'catalog: parse, validate, refresh',
  children: { refresh: child },
  async run() {
    const active = activeTlePath();
    const text = readFileSync(active, 'utf8');
    let count = 0;
    const lines: Line[] = [];
    const ms = await medianMs('parse + validate active.tle', () => {
      count = parseCatalogText(text, { nowMs: NOW }).records.length;
    }, { time: 3000, iterations: 8, quickIterations: 1 });
    lines.push({ name: 'parse + validate the active catalog (TLE, SGP4 init + decay check)', value: ms, unit: 'ms', budget: 300, note: `${count} valid of 16,126` });
    lines.push(
      ...(await section('parse + validate the active catalog (OMM JSON)', async () => {
        fullOnly('the same catalog as OMM JSON (the TLE figure above covers the parse)');
        // The same objects as CelesTrak OMM JSON (the primary format): valibot shape check + the same checks.
        const json = JSON.stringify(parseCatalogText(text, { nowMs: NOW }).records);
        const jsonMs = await medianMs('parse + validate active as OMM JSON', () => {
          count = parseCatalogText(json, { nowMs: NOW }).records.length;
        }, { time: 3000, iterations: 8 });
        return [{ name: 'parse + validate the active catalog (OMM JSON)', value: jsonMs, unit: 'ms', budget: 300, note: `${count} valid, ${(json.length / 1024 / 1024).toFixed(1)} MiB of JSON` }];
      })),
    );
    const groups = await refreshRss([AMATEUR_TLE, STATIONS_TLE]);
    lines.push({ name: 'peak RSS during a refresh: amateur + stations groups', value: groups.peakMiB, unit: 'MiB', budget: 120, note: groups.note });
    lines.push(
      ...(await section('peak RSS during a refresh: the whole active catalog', async () => {
        fullOnly('a refresh of the whole 16k catalog (the groups refresh above is what the appliance runs)');
        const all = await refreshRss([active]);
        return [{ name: 'peak RSS during a refresh: the whole active catalog', value: all.peakMiB, unit: 'MiB', budget: 120, note: all.note }];
      })),
    );
    return lines;
  },
};
