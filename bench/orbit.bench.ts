import { ownPeakRssMiB } from './peak-rss.js';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import {
  BulkPropagator, createSingleThreadRuntime, EcfPositionCalculator, EcfVelocityCalculator, EciBaseCalculator, GmstCalculator,
  LookAnglesCalculator, type SatRec,
} from 'satellite.js';
import { CatalogService } from '../src/catalog/catalog-service.js';
import { splitTle, tleToElements } from '../src/catalog/tle.js';
import { L_SIN_EL, LOOK_SIZE, lookFromEci, ObserverFrame, TimeFrame } from '../src/orbit/frames.js';
import { OrbitEngine } from '../src/orbit/orbit-service.js';
import { PassFinder } from '../src/orbit/pass-finder.js';
import { PassTableService } from '../src/orbit/pass-table-service.js';
import { PassCollector, PassTable, tableKey } from '../src/orbit/pass-table.js';
import { Propagator, type OrbitInput } from '../src/orbit/propagator.js';
import { DEFAULT_LOCATION, type LocationProvider } from '../src/orbit/location-types.js';
import { FixedClock } from '../src/util/clock.js';
import { setLogLevel } from '../src/util/logger.js';
import { refPasses } from '../test/orbit/brute-force-reference.js';
import { deployedRuntime, describeRuntime, runChild, unitEnv } from './child-bundle.js';
import { fullOnly, medianMs, profile, section, type Line, type Suite } from './harness.js';
import { activeTlePath } from './data.js';
import { needProc, serverBundle, spawnCwd } from './env.js';

// Orbit engine budgets (issue 3). Figures that depend on the whole process (16k-satellite table,
// server RSS, boot) are measured in child processes so this process's heap does not count.

const T0 = Date.parse('2026-08-22T12:00:00Z');
const H = 3600_000;
const OBS = { lat_deg: DEFAULT_LOCATION.lat, lon_deg: DEFAULT_LOCATION.lon, alt_m: DEFAULT_LOCATION.alt_m };
const RAD = Math.PI / 180;

function bundledCatalog() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-orbit-'));
  const cat = new CatalogService({ dataDir: dir, clock: new FixedClock(T0) }).current();
  rmSync(dir, { recursive: true, force: true });
  return cat;
}

/** The issue's "plain satellite.js approach": 60 s grid, bisection for AOS/LOS, golden section for the peak. */
function plainTable(recs: SatRec[], from: number, to: number): number {
  let passes = 0;
  for (const rec of recs) passes += refPasses(rec, OBS.lat_deg, OBS.lon_deg, OBS.alt_m, from, to, { stepMs: 60_000, tolMs: 10 }).length;
  return passes;
}

function ourTable(prop: Propagator, from: number, to: number): PassTable {
  const finder = new PassFinder(prop, new ObserverFrame(OBS));
  const col = new PassCollector();
  for (let i = 0; i < prop.size; i++) finder.search(i, from, to, col);
  return new PassTable(tableKey('bench', OBS.lat_deg, OBS.lon_deg, OBS.alt_m, 48), prop.ids, prop.names, from, to, col.rows);
}

/** WASM BulkPropagator vs plain sgp4 on the same grid of satellites × dates, look angles included. */
async function wasmVsJs(prop: Propagator, recs: SatRec[]) {
  const runtime = await createSingleThreadRuntime();
  const gd = { latitude: OBS.lat_deg * RAD, longitude: OBS.lon_deg * RAD, height: OBS.alt_m / 1000 };
  const obs = new ObserverFrame(OBS);
  const st = new Float64Array(6);
  const lk = new Float64Array(LOOK_SIZE);
  const tf = new TimeFrame();
  const grid = async (sats: number[], n: number, stepMs: number) => {
    const dates = Array.from({ length: n }, (_, k) => new Date(T0 + k * stepMs));
    const satrecs = sats.map((i) => recs[i]);
    const bp = new BulkPropagator({
      runtime,
      calculators: [new EciBaseCalculator(), new GmstCalculator(), new EcfPositionCalculator(), new EcfVelocityCalculator(), new LookAnglesCalculator()],
      satRecsCount: sats.length,
      datesCount: n,
    });
    let sink = 0;
    const wasm = await medianMs('wasm grid', () => {
      bp.setSatRecs(satrecs);
      bp.setDates(dates);
      bp.run({ lookAngles: { observer: gd } });
      sink += bp.getRawOutput().lookAngles[1];
    });
    bp.dispose();
    const js = await medianMs('js grid', () => {
      for (let k = 0; k < n; k++) {
        tf.set(T0 + k * stepMs, false); // GMST once per timestamp, shared by every satellite
        for (const i of sats) if (prop.propagate(i, tf.t_ms, st)) lookFromEci(obs, tf, st, lk, true);
        sink += lk[L_SIN_EL];
      }
    });
    void sink;
    return { js, wasm };
  };
  const all = recs.map((_, i) => i);
  const table = await grid(all, 2880, 60_000);
  const path = await grid([prop.index.get('iss')!], 2000, 30_000);
  const live = await grid(all, 1, 1000);
  // runtime.dispose() would run emscripten's exit() (EXIT_RUNTIME=1) and throw ExitStatus; the bench process ends soon anyway.
  return { table, path, live };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Preloaded into the server (node --require) for its heap figures (issue 36): every GC pause from
 * the start (PerformanceObserver 'gc'), and on SIGUSR2 the heap's object count from a heap snapshot
 * (its node_count), written as JSON beside the snapshot.
 */
const HEAP_PROBE = `
const { PerformanceObserver } = require('node:perf_hooks');
const v8 = require('node:v8');
const fs = require('node:fs');
let maxMs = 0, count = 0, kind = 0;
new PerformanceObserver((l) => { for (const e of l.getEntries()) { count++; if (e.duration > maxMs) { maxMs = e.duration; kind = e.detail ? e.detail.kind : 0; } } }).observe({ entryTypes: ['gc'] });
process.on('SIGUSR2', () => {
  const dir = process.env.SATSTATION_HEAP_PROBE_DIR;
  const file = v8.writeHeapSnapshot(dir + '/heap.heapsnapshot');
  const head = fs.readFileSync(file, 'latin1').slice(0, 4096);
  const nodes = Number(/"node_count":(\\d+)/.exec(head)[1]);
  fs.rmSync(file);
  fs.writeFileSync(dir + '/heap.json', JSON.stringify({ gcMaxMs: maxMs, gcKind: kind, gcCount: count, heapObjects: nodes, heapUsedMiB: process.memoryUsage().heapUsed / 1048576 }));
});
`;

/** Starts the server bundle as deployed; resolves with the child and the ms from spawn to the first /health 200. */
async function bootServer(server: string, dataDir: string, port: number, probeDir?: string) {
  const t0 = performance.now();
  const rt = deployedRuntime();
  const probe = probeDir ? ['--require', join(probeDir, 'heap-probe.cjs')] : [];
  if (probeDir) writeFileSync(join(probeDir, 'heap-probe.cjs'), HEAP_PROBE);
  const child = spawn(process.execPath, [...rt.flags, ...probe, server], {
    cwd: spawnCwd(),
    env: unitEnv(rt, { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', SATSTATION_HEAP_PROBE_DIR: probeDir ?? '' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (b) => (out += b));
  child.stderr.on('data', (b) => (out += b));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${out}`);
    try {
      const r = await fetch(`http://127.0.0.1:${port}/health`);
      if (r.ok) break;
    } catch {
      /* not up yet */
    }
    if (performance.now() - t0 > 20_000 * profile.timeScale) throw new Error(`server did not answer: ${out}`);
    await sleep(1);
  }
  return { child, bootMs: performance.now() - t0, log: () => out };
}

function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

async function stopChild(child: ReturnType<typeof spawn>) {
  if (child.exitCode !== null) return;
  const done = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await done;
}

/** Issue 36's target for the heap's objects once the long-lived bulk lives in typed arrays: half of the ~148k measured before. */
const HEAP_OBJECTS_BUDGET = 75_000;

interface HeapFigures {
  gcMaxMs: number;
  /** PerformanceEntry detail.kind of the longest: 1 minor, 2 major, 4 incremental, 8 weak callbacks. */
  gcKind: number;
  gcCount: number;
  heapObjects: number;
  heapUsedMiB: number;
}

/**
 * Steady-state RSS of the built server with its tables (full profile: it needs 30 s of quiet),
 * then boot time with the table on disk (median of five; one boot in the quick profile).
 */
async function serverFigures() {
  const server = serverBundle();
  const quick = profile.quick;
  if (!quick) needProc();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-server-'));
  try {
    const port = await freePort();
    const probeDir = mkdtempSync(join(tmpdir(), 'bench-heap-'));
    const first = await bootServer(server, dataDir, port, quick ? undefined : probeDir);
    const base = `http://127.0.0.1:${port}`;
    await (await fetch(`${base}/api/v1/passes?include_all_sats=true&hours=48`)).text(); // waits for the table
    let rss: { steady: number; afterLoad: number } | null = null;
    let heap: HeapFigures | null = null;
    if (!quick) {
      for (let k = 0; k < 20; k++) {
        await (await fetch(`${base}/api/v1/live`)).text();
        await (await fetch(`${base}/api/v1/passes?include_all_sats=true`)).text();
        await (await fetch(`${base}/api/v1/track/path?sat_id=iss`)).text();
      }
      // Steady state: V8's memory reducer hands back the young generation grown during the table
      // computation once the process has been quiet for a while (~10–20 s), so watch for 30 s.
      const afterLoad = rssMiB(first.child.pid!);
      for (let k = 0; k < 30; k++) await sleep(1000);
      rss = { steady: rssMiB(first.child.pid!), afterLoad };
      first.child.kill('SIGUSR2');
      const file = join(probeDir, 'heap.json');
      for (let k = 0; k < 600 && !existsSync(file); k++) await sleep(100);
      heap = JSON.parse(readFileSync(file, 'utf8')) as HeapFigures;
    }
    rmSync(probeDir, { recursive: true, force: true });
    await stopChild(first.child);
    // Boot with the table on disk, the median (one boot is at the mercy of the shared CPU).
    const boots: number[] = [];
    let loaded = true;
    const n = quick ? 1 : 5;
    for (let k = 0; k < n; k++) {
      const b = await bootServer(server, dataDir, port);
      boots.push(b.bootMs);
      await sleep(quick ? 100 : 300);
      loaded &&= b.log().includes('pass cache loaded');
      await stopChild(b.child);
    }
    const bootMs = boots.sort((x, y) => x - y)[Math.floor(n / 2)];
    return { rss, heap, bootMs, boots: n, loaded };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Child: the 24 h table of the 16k-satellite active catalogue through the real service (its search on a worker thread). */
async function activeTableChild(tlePath: string): Promise<void> {
  setLogLevel('silent');
  const { sets } = splitTle(readFileSync(tlePath, 'utf8'));
  const sats: OrbitInput[] = [];
  for (const s of sets) {
    const el = tleToElements(s);
    if ('EPOCH' in el) sats.push({ sat_id: String(el.NORAD_CAT_ID), name: s.name, elements: el });
  }
  const prop = new Propagator(sats);
  const dir = mkdtempSync(join(tmpdir(), 'bench-active-'));
  const clock = new FixedClock(Date.parse('2026-07-24T12:00:00Z')); // the snapshot's epochs
  const svc = new PassTableService({ dataDir: dir, clock, horizonHours: 24, slackHours: 0, orbits: () => ({ version: 'active', prop }), observer: () => OBS });
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const t0 = performance.now();
  svc.start();
  const table = await svc.ready();
  const ms = performance.now() - t0;
  loop.disable();
  rmSync(dir, { recursive: true, force: true });
  const out = {
    satellites: prop.size,
    passes: table?.size ?? 0,
    ms,
    longestSliceMs: svc.stats.longestSliceMs,
    longestSliceCpuMs: svc.stats.longestSliceCpuMs,
    loopDelayMaxMs: loop.max / 1e6,
    maxRssMiB: ownPeakRssMiB(),
    failed: svc.stats.failedSatellites,
    onWorker: svc.stats.workerSearches === 1,
    workerFailure: svc.stats.lastWorkerFailure,
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

/** Runs activeTableChild in a fresh process, as deployed (bench/child-bundle.ts). */
function activeTableFigures() {
  return runChild<{ satellites: number; passes: number; ms: number; longestSliceMs: number; longestSliceCpuMs: number; loopDelayMaxMs: number; maxRssMiB: number; failed: number; onWorker: boolean; workerFailure: string | null }>(
    'orbit',
    'active-table',
    [activeTlePath()],
  );
}

/** The 48 h table and its plain baseline, medians in one process: the figure's two halves. */
/** The propagator's satrecs, for the plain baseline and the WASM comparison. */
const satrecsOf = (prop: Propagator): SatRec[] => Array.from({ length: prop.size }, (_, i) => prop.satrecOf(i)).filter((r): r is SatRec => r !== null);

async function tableSpeedup(prop: Propagator, recs: SatRec[], plainRuns: number): Promise<{ ours: number; plain: number | null; passes: number }> {
  let passes = 0;
  // Both halves optimised before either is timed: under the Pi-speed cage the JIT's threads share
  // the tenth of a core, and tinybench's 100 ms warm-up is a few runs of ours and none of the baseline.
  for (let k = 0; k < 5; k++) ourTable(prop, T0, T0 + 48 * H);
  if (plainRuns > 0) plainTable(recs, T0, T0 + 48 * H);
  const ours = await medianMs('48 h table (ours)', () => {
    passes = ourTable(prop, T0, T0 + 48 * H).size;
  }, { iterations: 10, quickIterations: 3, warmup: false });
  const plain = plainRuns > 0 ? await medianMs('48 h table (plain baseline)', () => plainTable(recs, T0, T0 + 48 * H), { iterations: plainRuns, quickIterations: plainRuns, time: 1, warmup: false }) : null;
  return { ours, plain, passes };
}

/** The Pi-speed run's child (bench/pi-speed.bench.ts runs it inside the cage); `quick`: one baseline run. */
async function tableSpeedupChild(mode?: string): Promise<void> {
  setLogLevel('warn');
  const prop = new Propagator(bundledCatalog().satellites);
  const r = await tableSpeedup(prop, satrecsOf(prop), mode === 'quick' ? 1 : 3);
  process.stdout.write(`${JSON.stringify(r)}\n`);
}

export const orbitSuite: Suite = {
  name: 'orbit engine: passes, live samples, server',
  children: { 'active-table': ([tle]) => activeTableChild(tle), 'table-speedup': ([mode]) => tableSpeedupChild(mode) },
  async run() {
    const cat = bundledCatalog();
    const prop = new Propagator(cat.satellites);
    const recs = satrecsOf(prop);
    const n = prop.size;
    // The baseline's speed-up is a ratio of two runs in this process (about the same on any CPU): full profile only.
    const { ours, plain, passes } = await tableSpeedup(prop, recs, profile.quick ? 0 : 3);

    const engine = new OrbitEngine({
      clock: new FixedClock(T0),
      catalog: { current: () => cat, onChange: () => () => {} },
      location: { resolved: () => DEFAULT_LOCATION, onChange: () => () => {} } satisfies LocationProvider,
      dataDir: tmpdir(),
    });
    const eight = ['iss', 'so-50', 'ao-91', 'ao-7', 'rs-44', 'io-117', 'fo-29', 'ao-27'].filter((id) => prop.index.has(id));
    let t = T0;
    const live8 = await medianMs('live, 8 satellites', () => engine.live((t += 1000), eight), { iterations: 2000, quickIterations: 200 });
    const liveAll = await medianMs('live, whole catalogue', () => engine.live((t += 1000)), { iterations: 200, quickIterations: 20 });

    // A design record (why plain sgp4 everywhere) rather than a budget the Pi must keep: full profile only.
    const cmp = profile.quick ? null : await wasmVsJs(prop, recs);
    const server = await section('server: steady-state RSS and boot (dist/server.cjs)', async () => {
      const f = await serverFigures();
      const lines: Line[] = [];
      if (f.rss) {
        lines.push({
          // Issue 24: with radio, the LAN transport and APRS loaded only when enabled (src/util/lazy-part.ts).
          name: `server steady-state RSS, everything disabled: bundled catalogue + its tables (dist/server.cjs, ${describeRuntime()})`,
          value: f.rss.steady,
          unit: 'MiB',
          budget: 52,
          note: `${f.rss.afterLoad.toFixed(1)} MiB right after the load, 30 s quiet later this; Node alone is ~40 MiB here`,
        });
      } else {
        lines.push({ name: 'server steady-state RSS, everything disabled', skipped: '--quick leaves out the 30 s of quiet it needs' });
      }
      if (f.heap) {
        // Issue 36: what every mark step walks, and the longest pause it costs; before and after
        // the long-lived bulk moves into typed arrays.
        const KIND: Record<number, string> = { 1: 'a scavenge', 2: 'a mark-compact', 4: 'an incremental marking step', 8: 'weak callbacks' };
        lines.push(
          {
            name: 'server heap objects at steady state, everything disabled (a heap snapshot\'s node count)',
            value: f.heap.heapObjects,
            unit: 'objects',
            budget: HEAP_OBJECTS_BUDGET,
            note: `heap used ${f.heap.heapUsedMiB.toFixed(1)} MiB; taken after the loads and 30 s of quiet`,
          },
          {
            name: 'longest GC pause in the server, from its start to steady state (PerformanceObserver gc)',
            value: f.heap.gcMaxMs,
            unit: 'ms',
            budget: 10,
            note: `${f.heap.gcCount} collections; the longest ${KIND[f.heap.gcKind] ?? `of kind ${f.heap.gcKind}`}`,
          },
        );
      } else {
        lines.push({ name: 'server heap objects and longest GC pause', skipped: '--quick leaves out the steady state they need' });
      }
      lines.push({
        name: 'boot to /health with a persisted pass table',
        value: f.bootMs,
        unit: 'ms',
        budget: 250, // issue 24 (was 300)
        note: `${f.boots > 1 ? `median of ${f.boots}` : 'one boot'}; ${f.loaded ? 'table loaded from disk' : 'TABLE NOT LOADED FROM DISK'}`,
      });
      return lines;
    });
    const active = await section('24 h table of the whole active catalogue (16k), searched on a worker thread, in a child', async () => {
      fullOnly('the 16k-satellite table (~6 s here, a minute or more on the Pi)');
      const a = await activeTableFigures();
      const lines: Line[] = [
        {
          name: `24 h table, active.tle (${a.satellites} sats, ${a.passes} passes), ${a.onWorker ? 'searched on a worker thread' : 'time-sliced on the loop'}`,
          value: a.ms / 1000,
          unit: 's',
          budget: 10,
          note: `${a.failed} sats skipped (SGP4 errors)${a.onWorker ? '' : `; THE WORKER DID NOT RUN: ${a.workerFailure}`}`,
        },
        {
          name: '… longest event-loop block (loop-delay monitor, whole run)',
          value: a.loopDelayMaxMs,
          unit: 'ms',
          budget: 20,
          note: a.onWorker ? 'the search off the loop; the loop builds the table from its rows' : `longest search slice ${a.longestSliceMs.toFixed(1)} ms wall, ${a.longestSliceCpuMs.toFixed(1)} ms CPU (all threads)`,
        },
        { name: `… peak RSS of that process (${describeRuntime()}, as deployed; its own, bench/peak-rss.ts)`, value: a.maxRssMiB, unit: 'MiB', budget: 150 },
      ];
      return lines;
    });

    const lines: Line[] = [
      { name: `48 h pass table, bundled amateur catalogue (${n} sats, ${passes} passes)`, value: ours, unit: 'ms', budget: 120 },
      plain
        ? {
            name: 'speed-up over the plain satellite.js baseline (60 s grid, bisection, golden section)',
            value: plain / ours,
            unit: '×',
            budget: 12, // issue 36 (was 440/120: the issue 3 budgets' ratio)
            kind: 'min',
            note: `baseline ${plain.toFixed(0)} ms in this process`,
          }
        : { name: 'speed-up over the plain satellite.js baseline', skipped: '--quick leaves out the plain satellite.js baseline (~0.6 s a run here)' },
      ...active,
      { name: 'live samples at one timestamp, 8 satellites', value: live8, unit: 'ms', budget: 0.2 },
      { name: `live samples at one timestamp, whole catalogue (${n})`, value: liveAll, unit: 'ms', budget: 30 },
      ...server,
      // WASM BulkPropagator vs plain sgp4 (+ our look angles) on the same grids. The engine adopts WASM
      // only where it is at least 1.25× faster: it costs an async init, a few MiB of WASM memory and explicit dispose().
      ...(cmp
        ? ([
            {
              name: `48 h table: WASM bulk 60 s grid alone (${n} × 2880, look angles only) ÷ our whole adaptive search`,
              value: cmp.table.wasm / ours,
              unit: '×',
              budget: 1,
              kind: 'min',
              note: `WASM grid ${cmp.table.wasm.toFixed(1)} ms, plain sgp4 grid ${cmp.table.js.toFixed(1)} ms: the adaptive JS search wins`,
            },
            { name: 'path 1 sat × 2000: WASM speed-up over plain sgp4', value: cmp.path.js / cmp.path.wasm, unit: '×', budget: 1.25, note: `JS ${cmp.path.js.toFixed(2)} ms, WASM ${cmp.path.wasm.toFixed(2)} ms: JS kept` },
            { name: `live ${n} sats × 1: WASM speed-up over plain sgp4`, value: cmp.live.js / cmp.live.wasm, unit: '×', budget: 1.25, note: `JS ${cmp.live.js.toFixed(3)} ms, WASM ${cmp.live.wasm.toFixed(3)} ms: JS kept` },
          ] satisfies Line[])
        : [{ name: 'WASM BulkPropagator vs plain sgp4 (48 h grid, 2000-point path, live)', skipped: '--quick leaves out the WASM comparisons' }]),
    ];
    return lines;
  },
};
