// Robustness bounds (issue 10): what a hostile source and the whole 16k catalogue cost the running
// server. One child process runs the real App (esbuild bundle, the unit's node flags: 96 MiB heap)
// with an event-loop delay monitor, fetches the sources from a process of its own on 127.0.0.1 and
// calls its own HTTP API with a client that discards the bodies, so the loop figures are the
// server's work. The quick profile runs the hostile source only.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { FixedClock } from '../src/util/clock.js';
import { setLogLevel } from '../src/util/logger.js';
import { tinyObjects } from '../test/catalog/fixtures/hostile.js';
import { spawnPortChild } from '../test/helpers/port-child.js';
import { describeRuntime, runChild } from './child-bundle.js';
import { ownPeakRssMiB } from './peak-rss.js';
import { activeTlePath } from './data.js';
import { profile, type BudgetLine, type Line, type Suite } from './harness.js';

const NOW = Date.parse('2026-07-24T12:00:00Z'); // data date of active.tle
const MIB = 1024 * 1024;

interface Phase {
  ms: number;
  loopMaxMs: number;
  /** The loop thread's own CPU between two turns of a 1 ms timer, at most (null: no schedstat). */
  loopCpuMaxMs: number | null;
  peakRssMiB: number;
  note: string;
}

function call(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; bytes: number; json: any }> {
  return new Promise((resolve, reject) => {
    const req = request(base + path, { method, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
      let bytes = 0;
      const keep: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        if (bytes < 64 * 1024) keep.push(c); // small answers are read, big ones only counted
      });
      res.on('end', () => {
        let json: any = null;
        try {
          json = JSON.parse(Buffer.concat(keep).toString());
        } catch {
          /* a big answer: counted only */
        }
        resolve({ status: res.statusCode ?? 0, bytes, json });
      });
    });
    req.on('error', reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

/**
 * The most CPU time the event-loop thread spent between two turns of a 1 ms timer (Linux
 * schedstat of the main thread); null where there is none.
 */
function loopCpuProbe(): { reset(): void; maxMs(): number; stop(): void } | null {
  const file = `/proc/${process.pid}/task/${process.pid}/schedstat`;
  if (!existsSync(file)) return null;
  const cpuNs = () => Number(readFileSync(file, 'utf8').split(' ')[0]);
  let last = cpuNs();
  let max = 0;
  const timer = setInterval(() => {
    const now = cpuNs();
    max = Math.max(max, now - last);
    last = now;
  }, 1);
  return {
    reset: () => {
      max = 0;
      last = cpuNs();
    },
    maxMs: () => max / 1e6,
    stop: () => clearInterval(timer),
  };
}

/**
 * The sources, in a process of their own (the bench started again as `--child robustness source`):
 * their bodies (the 15 MiB hostile one, the 2.6 MB catalogue) and the socket buffers sending them
 * are not the server's memory, and its peak RSS (VmHWM) counted them while they shared a process.
 * Prints {"port": n}, serves until its stdin closes.
 */
async function sourceChild(activeTle: string): Promise<void> {
  const bodies: Record<string, Buffer> = { '/tiny-objects': Buffer.from(tinyObjects(15 * MIB)), '/active.tle': readFileSync(activeTle) };
  const sources = createServer((req, res) => res.end(bodies[req.url ?? ''] ?? ''));
  await new Promise<void>((r) => sources.listen(0, '127.0.0.1', r));
  process.stdout.write(`${JSON.stringify({ port: (sources.address() as AddressInfo).port })}\n`);
  process.stdin.resume();
  await new Promise((r) => process.stdin.once('close', r));
  sources.close();
}

/** Starts sourceChild from this same bench script; its base URL and how to end it. */
async function startSources(activeTle: string): Promise<{ base: string; stop: () => void }> {
  const { port, child, stop } = await spawnPortChild([process.argv[1], '--child', 'robustness', 'source', activeTle]);
  // A source is a server elsewhere, not work of the station's CPU: it gives way to the server here.
  try {
    setPriority(child.pid!, 19);
  } catch {
    /* not allowed: it competes as it is */
  }
  return { base: `http://127.0.0.1:${port}`, stop };
}

async function child(activeTle: string, hostileOnly: boolean): Promise<void> {
  setLogLevel('silent');
  const sources = await startSources(activeTle);
  const srcBase = sources.base;
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-robust-'));
  const clock = new FixedClock(NOW);
  const app = new App({ config: { ...loadConfig({}), port: 0, host: '127.0.0.1', dataDir }, clock });
  const base = `http://127.0.0.1:${await app.start()}`;
  await call(base, 'POST', '/api/v1/datasets/sources', { status_url: '' });
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const cpu = loopCpuProbe();
  const phase = async (work: () => Promise<string>): Promise<Phase> => {
    loop.reset();
    cpu?.reset();
    const t0 = performance.now();
    const note = await work();
    return { ms: performance.now() - t0, loopMaxMs: loop.max / 1e6, loopCpuMaxMs: cpu?.maxMs() ?? null, peakRssMiB: ownPeakRssMiB(), note };
  };
  const refreshFrom = async (path: string) => {
    await call(base, 'POST', '/api/v1/datasets/sources', { sources: [srcBase + path] });
    clock.advance(3 * 3_600_000); // outside the last fetch's politeness window
    const r = await call(base, 'POST', '/api/v1/datasets/refresh', {});
    const rep = r.json?.meta?.reports?.[0];
    return `${rep?.status}: ${String(rep?.message).slice(0, 70)}`;
  };
  const out: Record<string, Phase> = {};
  out.hostile = await phase(() => refreshFrom('/tiny-objects'));
  if (!hostileOnly) {
    out.refresh = await phase(() => refreshFrom('/active.tle'));
    out.passesCold = await phase(async () => {
      const r = await call(base, 'GET', '/api/v1/passes?hours=48&include_all_sats=true');
      return `${r.status}, ${(r.bytes / 1024).toFixed(0)} KiB (table computed meanwhile)`;
    });
    out.passesWarm = await phase(async () => {
      const r = await call(base, 'GET', '/api/v1/passes?hours=48&include_all_sats=true&limit=2000');
      return `${r.status}, ${(r.bytes / 1024).toFixed(0)} KiB`;
    });
    out.live = await phase(async () => {
      clock.advance(1000);
      const r = await call(base, 'GET', '/api/v1/live');
      return `${r.status}, ${(r.bytes / MIB).toFixed(1)} MiB, ${app.services.catalog.current().satellites.length} satellites`;
    });
  }
  loop.disable();
  cpu?.stop();
  await app.stop();
  sources.stop();
  rmSync(dataDir, { recursive: true, force: true });
  process.stdout.write(JSON.stringify(out) + '\n');
}

export const robustnessSuite: Suite = {
  name: 'robustness: hostile source, 16k catalogue through the API',
  children: { api: ([tle, mode]) => child(tle, mode === 'hostile-only'), source: ([tle]) => sourceChild(tle) },
  async run() {
    const quick = profile.quick;
    const r = await runChild<Record<string, Phase>>('robustness', 'api', [activeTlePath(), quick ? 'hostile-only' : 'all']);
    const rt = describeRuntime();
    // The loop thread's own CPU beside the wall-time block: on a shared machine the wall figure
    // also counts time the process was kept off the CPU; the CPU figure is the server's work alone.
    const cpuNote = (p: Phase) => (p.loopCpuMaxMs === null ? '' : `loop thread CPU ≤ ${p.loopCpuMaxMs.toFixed(1)} ms between turns; `);
    const loopLine = (name: string, p: Phase): BudgetLine => ({ name: `longest event-loop block: ${name}`, value: p.loopMaxMs, unit: 'ms', budget: 20, note: `${(p.ms / 1000).toFixed(2)} s; ${cpuNote(p)}${p.note}` });
    const hostile: Line[] = [
      { name: 'peak RSS after a refresh from a 15 MiB hostile source (tiny JSON objects)', value: r.hostile.peakRssMiB, unit: 'MiB', budget: 120, note: `${rt}; ${r.hostile.note}` },
      loopLine('that hostile refresh', r.hostile),
    ];
    if (quick) return [...hostile, { name: 'the whole active catalogue (16k) through the API: refresh, /passes, /live', skipped: '--quick leaves out the 16k catalogue (its table alone is ~15 s here)' }];
    return [
      ...hostile,
      loopLine('refresh to the whole active catalogue (16k)', r.refresh),
      { name: '… peak RSS of the process so far', value: r.refresh.peakRssMiB, unit: 'MiB', budget: 160, note: 'MemoryMax is 192 MiB; the sources are served from a process of their own' },
      loopLine('/passes 48 h, every satellite, cold (waits for the 16k table)', r.passesCold),
      loopLine('/passes 48 h, every satellite, limit 2000, warm', r.passesWarm),
      loopLine('/live, whole 16k catalogue', r.live),
      // The server process's own peak (VmHWM, not maxRSS: that one inherits the bench parent's RSS).
      { name: 'peak RSS of the whole run (hostile source, 16k refresh, table, /passes, /live)', value: r.live.peakRssMiB, unit: 'MiB', budget: 150, note: `this process's own high-water mark (VmHWM); room under MemoryMax 192 MiB of deploy/satstation.service` },
    ];
  },
};
