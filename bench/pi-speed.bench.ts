// The Pi-speed run (issue 24): the deployed server bundle under a tenth of one core and the unit's
// memory limit (bench/pi-cage.ts), with the unit's node flags and environment, measured from
// outside as a phone or a browser on the LAN sees it: boot to /health with a persisted pass table,
// the lite snapshot on a cache miss and a hit, /passes over 48 h, a radio pair apply against the
// CI-V simulator, the /lite page's first frame in Chromium at 6× CPU throttling, and the longest
// event-loop block inside the server while it served all that. Only the server is capped: the
// bench, the rig simulator and the browser (a phone, on the real station) run at full speed.
//
// The budgets are the Pi's, written as such (`scaled: false`: never ×10 again on --target pi):
// issue 36's boot 1.5 s and longest loop block 100 ms; snapshot hit 20 ms p99, /passes 300 ms (the
// first after boot and the repeats) and first frame 2 s; for the rest the README's rule applied to
// the dev budgets: a pair apply 150 ms → 1.5 s, and a snapshot miss 2 ms → 20 ms to build plus the
// hit's 20 ms to serve (40 ms, issue 36's figure too).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnServer, type SpawnedServer } from '../test/helpers/spawn-server.js';
import { openPtyPair } from '../test/sims/pty-pair.js';
import { CivRigSim } from '../test/sims/civ-rig.js';
import { CdpBrowser } from './cdp-pipe.js';
import { deployedRuntime, describeRuntime, runChildAsync, unitEnv } from './child-bundle.js';
import { needCommand, needDir, needProc, serverBundle, spawnCwd, unitText } from './env.js';
import { profile, section, type BudgetLine, type Line, type Suite } from './harness.js';
import { PERIOD_US, piCage, QUOTA_US, type PiCage } from './pi-cage.js';

const TRACKED = ['iss', 'so-50', 'ao-91', 'ao-27', 'fo-29', 'ao-7', 'ao-73', 'rs-44'];
const THROTTLING = 6;
const LOOP_RESOLUTION_MS = 10;
/** The serving's parts, in order: the loop probe's windows after the boot's. */
export const SERVING_PARTS = ['the snapshots', 'the /passes', 'the radio pair', "/lite's first frames", "/lite's live minute", 'the stop'];
/** The loop gaps PI_PROF records beside the profiles (bench/pi-gaps.ts reads them). */
const GAP_MS = 60;

// Preloaded into the capped server (node --require): the event-loop delay histogram. Each SIGUSR2
// from the bench closes a window: the first once /health answers (module loading before that is
// boot, not a block of a serving loop), then one after each part of the serving, so the note can
// say where the longest block was; at exit every window's maximum goes to DIR/<pid>.json. A 10 ms timer
// resolution, not 1 ms: a 1 ms timer would itself eat a noticeable share of a tenth of a core.
// Preloads run in worker threads too (a worker's exit would write over the main thread's file):
// the main thread is the one whose id is the process's, read from /proc, not node:worker_threads,
// whose load was ~9 ms of CPU here, ~0.1 s of every measured boot at a tenth of a core that the
// server itself never spends (it reads worker_threads only when a job runs).
const LOOP_PROBE = `
const isMainThread = require('node:fs').readlinkSync('/proc/thread-self') === process.pid + '/task/' + process.pid;
if (isMainThread) {
  const h = require('node:perf_hooks').monitorEventLoopDelay({ resolution: ${LOOP_RESOLUTION_MS} });
  h.enable();
  const windows = [];
  process.on('SIGUSR2', () => { windows.push(h.max / 1e6); h.reset(); });
  process.on('exit', () => {
    try { require('node:fs').writeFileSync(process.env.SATSTATION_LOOP_PROBE_DIR + '/' + process.pid + '.json', JSON.stringify({ windows: [...windows, h.max / 1e6] })); } catch {}
  });
  // With PI_PROF: each gap over ${GAP_MS} ms between ticks of a 10 ms timer, as [start, end] on the
  // clock of the CPU profile's timestamps (µs) and the window it fell in, for bench/pi-gaps.ts.
  const gapsDir = process.env.SATSTATION_GAPS_DIR;
  if (gapsDir) {
    const gaps = [];
    let last = process.hrtime.bigint();
    setInterval(() => {
      const now = process.hrtime.bigint();
      if (now - last > ${GAP_MS}000000n) gaps.push([Number(last / 1000n), Number(now / 1000n), windows.length]);
      last = now;
    }, 10).unref();
    process.on('exit', () => { try { require('node:fs').writeFileSync(gapsDir + '/' + process.pid + '.gaps.json', JSON.stringify(gaps)); } catch {} });
  }
}
`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/**
 * Which miss the p99 is: of 80 by nearest rank it is the slowest one, so say where it fell in the
 * sequence (the first after boot runs every part of a snapshot cold) and what the next one read.
 */
function slowest(xs: number[]): string {
  const at = xs.indexOf(Math.max(...xs));
  const rest = xs.filter((_, i) => i !== at);
  const first = `the slowest ${xs[at].toFixed(0)} ms was miss ${at + 1}${at === 0 ? ' (the first request for a snapshot after boot)' : ''}`;
  return rest.length ? `${first}, the next slowest ${Math.max(...rest).toFixed(0)} ms` : first;
}
/** The p-th percentile (nearest rank) of `xs`. */
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];

async function timed(url: string, init?: RequestInit): Promise<{ ms: number; res: Response; body: string }> {
  const t0 = performance.now();
  const res = await fetch(url, init);
  const body = await res.text();
  const ms = performance.now() - t0;
  if (!res.ok) throw new Error(`${init?.method ?? 'GET'} ${url}: HTTP ${res.status} ${body.slice(0, 300)}`);
  return { ms, res, body };
}
const post = (base: string, path: string, body: unknown = {}) => timed(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

interface Place {
  dataDir: string;
  probeDir: string;
  preload: string;
}

/**
 * PI_PROF=DIR: each capped server writes a V8 CPU profile there at exit (what ran in a long loop
 * block: a tenth of a core shows what a full one hides), and its loop gaps beside it;
 * `node --import tsx bench/pi-gaps.ts DIR` prints what ran in each gap. Off in the figures: the
 * sampler and the gap timer cost quota.
 */
const profileFlags = () => (process.env.PI_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PI_PROF}`, '--cpu-prof-interval=500'] : []);

/** The server bundle as the unit runs it, inside `cage` when given; env LOG_LEVEL=info for "pass cache loaded". */
function startServer(place: Place, cage: PiCage | null, extraEnv: Record<string, string> = {}): Promise<SpawnedServer> {
  const rt = deployedRuntime();
  const node = [...rt.flags, ...(cage ? [...profileFlags(), '--require', place.preload] : []), serverBundle()];
  const { cmd, args } = cage ? cage.wrap(process.execPath, node) : { cmd: process.execPath, args: node };
  return spawnServer(cmd, args, {
    cwd: spawnCwd(),
    env: unitEnv(rt, { PORT: '0', HOST: '127.0.0.1', DATA_DIR: place.dataDir, LOG_LEVEL: 'info', SATSTATION_LOOP_PROBE_DIR: place.probeDir, SATSTATION_GAPS_DIR: (cage && process.env.PI_PROF) || '', ...extraEnv }),
    wholeEnv: true,
    timeoutMs: 120_000,
  });
}

/**
 * Uncapped, as on a station that has run before: the tracked set saved, the 48 h pass table computed
 * and persisted, the lite screen served (its snapshot, and one with a focus of its own), so the code
 * cache written at this stop holds what those paths compiled (src/boot/code-cache-writer.ts).
 */
async function prepare(place: Place): Promise<void> {
  const srv = await startServer(place, null);
  try {
    await post(srv.base, '/api/v1/settings/lite', { tracked_sat_ids: TRACKED, setup_complete: true });
    await timed(`${srv.base}/api/v1/passes?hours=48`);
    await timed(`${srv.base}/api/v1/lite/snapshot`);
    await timed(`${srv.base}/api/v1/lite/snapshot?sat_id=${TRACKED[1]}`);
  } finally {
    await srv.stop();
  }
}

/**
 * One boot with the code cache off (src/boot/code-cache-loader.ts): the first boot after an install
 * or an upgrade, which compiles every script from source. The boots after it read the cache
 * prepare()'s server wrote at its stop.
 */
async function uncachedBoot(place: Place, cage: PiCage): Promise<number> {
  const srv = await startServer(place, cage, { CODE_CACHE_DIR: 'off' });
  await srv.stop();
  return srv.bootMs;
}

/** Boots (median of three, one in --quick) with the table on disk; the last server keeps running. */
async function boots(place: Place, cage: PiCage): Promise<{ srv: SpawnedServer; bootMs: number[]; loaded: boolean }> {
  const bootMs: number[] = [];
  let loaded = true;
  const n = profile.quick ? 1 : 3;
  for (let i = 0; ; i++) {
    const srv = await startServer(place, cage);
    bootMs.push(srv.bootMs);
    // The log line comes once the table is read, which may be just after /health: wait for it.
    for (let k = 0; k < 200 && !srv.output.some((l) => l.includes('pass cache loaded')); k++) await new Promise((r) => setTimeout(r, 50));
    loaded &&= srv.output.some((l) => l.includes('pass cache loaded'));
    if (i === n - 1) return { srv, bootMs, loaded };
    await srv.stop();
  }
}

/** Lite snapshot latencies over HTTP, one client: a new focus is a miss, the same focus again within 15 s a hit. */
async function snapshot(base: string): Promise<{ miss: number[]; hit: number[] }> {
  const ids = (JSON.parse((await timed(`${base}/api/v1/satellites`)).body).items as Array<{ sat_id: string }>).map((s) => s.sat_id);
  const focus = ids.slice(0, profile.quick ? 10 : 40);
  const miss: number[] = [];
  const hit: number[] = [];
  const ask = async (id: string) => {
    const r = await timed(`${base}/api/v1/lite/snapshot?sat_id=${encodeURIComponent(id)}`);
    (r.res.headers.get('x-cache') === 'HIT' ? hit : miss).push(r.ms);
  };
  for (const id of focus) await ask(id);
  // Five in a row per focus: the cache holds fewer entries than there are foci, so a round robin
  // would only ever miss (a first ask that finds its entry evicted counts as a miss).
  for (let i = 0; i < (profile.quick ? 50 : 200); i++) await ask(focus[Math.floor(i / 5) % focus.length]);
  if (!miss.length || !hit.length) throw new Error(`snapshot: ${miss.length} misses and ${hit.length} hits (the cache did not behave as specified)`);
  return { miss, hit };
}

/**
 * /passes?hours=48 (what /radio and the kiosk ask for): the first answer after boot, which takes the
 * items the last run kept or builds their guidance and JSON, apart from the repeats, which find the items' bytes stored
 * (X-Cache HIT, src/station/pass-bytes-cache.ts) until the table, the filter or the passes change.
 */
async function passes(base: string): Promise<{ first: number; ms: number[]; hits: number; count: number }> {
  const first = await timed(`${base}/api/v1/passes?hours=48`);
  const ms: number[] = [];
  let hits = 0;
  for (let i = 0; i < (profile.quick ? 3 : 10); i++) {
    const r = await timed(`${base}/api/v1/passes?hours=48`);
    ms.push(r.ms);
    if (r.res.headers.get('x-cache') === 'HIT') hits++;
  }
  return { first: first.ms, ms, hits, count: JSON.parse(first.body).count };
}

/** POST /radio/pair end to end against the IC-705 simulator on a socat pty at 115200 baud. */
async function radioPair(base: string): Promise<number[]> {
  needCommand('socat');
  needDir('/dev/shm', 'the pty links live there');
  const pty = await openPtyPair();
  const sim = new CivRigSim({ kind: 'IC-705' });
  await sim.open(pty.rigPath);
  try {
    await post(base, '/api/v1/settings/radio', { enabled: true, serial_device: pty.ctlPath, baud_rate: 115200 });
    await post(base, '/api/v1/radio/connect');
    const pair = { uplink_hz: 145_965_000, downlink_hz: 435_640_000, uplink_mode: 'LSB', downlink_mode: 'USB' };
    await post(base, '/api/v1/radio/pair', pair); // warm: the first write also snapshots the rig
    const ms: number[] = [];
    for (let i = 0; i < (profile.quick ? 5 : 15); i++) ms.push((await post(base, '/api/v1/radio/pair', { ...pair, downlink_hz: pair.downlink_hz + ((i % 2) + 1) * 1000 })).ms);
    await post(base, '/api/v1/radio/disconnect');
    return ms;
  } finally {
    await sim.close();
    await pty.close();
  }
}

// The first useful frame as test/ui/lite-perf.test.ts defines it: focus name and countdown in the
// DOM, or the first contentful paint if that came later.
const FIRST_FRAME_PROBE = `
window.__firstFrame = 0;
new MutationObserver(() => {
  if (!window.__firstFrame && document.querySelector('[data-countdown]') && document.querySelector('[data-focus-name]')) window.__firstFrame = performance.now();
}).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
`;

/** /lite's first frame in fresh browser contexts at 6× CPU throttling; the last one's screenshot is kept. */
async function firstFrame(base: string): Promise<{ ms: number[]; png: string }> {
  const browser = CdpBrowser.launch();
  const png = join(tmpdir(), 'satstation-bench-pi-speed-lite.png');
  try {
    const ms: number[] = [];
    for (let i = 0; i < (profile.quick ? 1 : 3); i++) {
      const page = await browser.newPage(480, 320);
      await page.send('Page.addScriptToEvaluateOnNewDocument', { source: FIRST_FRAME_PROBE });
      await page.send('Emulation.setCPUThrottlingRate', { rate: THROTTLING });
      await page.send('Page.navigate', { url: `${base}/lite` });
      const deadline = performance.now() + 60_000;
      let f = { dom: 0, fcp: 0 };
      while (!(f.dom && f.fcp)) {
        if (performance.now() > deadline) throw new Error(`/lite showed no focus name and countdown in 60 s (${JSON.stringify(f)})`);
        await new Promise((r) => setTimeout(r, 50));
        f = await page.evaluate<{ dom: number; fcp: number }>(
          "({ dom: window.__firstFrame || 0, fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0 })",
        );
      }
      ms.push(Math.max(f.dom, f.fcp));
      writeFileSync(png, await page.screenshot());
      await page.close();
    }
    return { ms, png };
  } finally {
    await browser.close();
  }
}

// Counts the page's API requests (every one goes through fetch, ui/lib/api.ts).
const API_COUNTER = `
window.__api = 0;
const fetch0 = window.fetch.bind(window);
window.fetch = (input, init) => {
  if (String(input instanceof Request ? input.url : input).includes('/api/')) window.__api++;
  return fetch0(input, init);
};
`;

/**
 * The lite screen once loaded (issue 35): /lite at 6× CPU throttling on its live socket, its API
 * requests counted over a window; meanwhile the snapshot (the lite topic's own) is asked for four
 * times a second by another client, its latency under the screen's real load.
 */
async function liteScreen(base: string): Promise<{ perMin: number; windowMs: number; snapshotMs: number[]; open: boolean }> {
  const browser = CdpBrowser.launch();
  try {
    const page = await browser.newPage(480, 320);
    await page.send('Page.addScriptToEvaluateOnNewDocument', { source: API_COUNTER });
    await page.send('Emulation.setCPUThrottlingRate', { rate: THROTTLING });
    await page.send('Page.navigate', { url: `${base}/lite` });
    const deadline = performance.now() + 60_000;
    while ((await page.evaluate<string | null>('document.documentElement?.dataset.socket ?? null')) !== 'open') {
      if (performance.now() > deadline) throw new Error('/lite did not open its live socket in 60 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 2000)); // loaded: the first events and what they cause are over
    await page.evaluate('window.__api = 0');
    const windowMs = profile.quick ? 15_000 : 60_000;
    const snapshotMs: number[] = [];
    const end = performance.now() + windowMs;
    while (performance.now() < end) {
      snapshotMs.push((await timed(`${base}/api/v1/lite/snapshot`)).ms);
      await new Promise((r) => setTimeout(r, 250));
    }
    const count = await page.evaluate<number>('window.__api');
    const open = (await page.evaluate<string | null>('document.documentElement?.dataset.socket ?? null')) === 'open';
    await page.close();
    return { perMin: (count * 60_000) / windowMs, windowMs, snapshotMs, open };
  } finally {
    await browser.close();
  }
}

const peakRssMiB = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

async function run(): Promise<Line[]> {
  needProc();
  const cage = piCage(unitText());
  const root = mkdtempSync(join(tmpdir(), 'bench-pi-speed-'));
  const place: Place = { dataDir: join(root, 'data'), probeDir: root, preload: join(root, 'loop-probe.cjs') };
  writeFileSync(place.preload, LOOP_PROBE);
  let srv: SpawnedServer | null = null;
  try {
    await prepare(place);
    const coldBootMs = await uncachedBoot(place, cage);
    const b = await boots(place, cage);
    srv = b.srv;
    const pid = srv.child.pid!;
    // The loop probe's windows: boot, then each part of the serving (the last one ends at the stop).
    const parts = SERVING_PARTS;
    const nextPart = () => process.kill(pid, 'SIGUSR2');
    nextPart();
    const snap = await snapshot(srv.base);
    nextPart();
    const pass = await passes(srv.base);
    nextPart();
    const radio = await section('radio pair apply at Pi speed (CI-V simulator over a socat pty)', async () => {
      const ms = await radioPair(srv!.base);
      return [{ name: 'radio pair apply (POST /radio/pair), IC-705 simulator at 115200 baud', value: median(ms), unit: 'ms', budget: 1500, scaled: false, note: `median of ${ms.length}, max ${Math.max(...ms).toFixed(0)} ms; dev budget 150 ms ×10` } as BudgetLine];
    });
    nextPart();
    const frame = await section(`/lite first frame in Chromium at ${THROTTLING}× CPU throttling`, async () => {
      const f = await firstFrame(srv!.base);
      return [{ name: `/lite first useful frame, Chromium at ${THROTTLING}× throttling, 480×320`, value: median(f.ms), unit: 'ms', budget: 2000, scaled: false, note: `${f.ms.length > 1 ? `median of ${f.ms.length} fresh contexts` : 'one fresh context'}; focus name and countdown shown; screenshot ${f.png}` } as BudgetLine];
    });
    nextPart();
    const lite = await section('/lite once loaded, on its live socket, at Pi speed', async () => {
      const l = await liteScreen(srv!.base);
      return [
        {
          name: '/lite API requests per minute once loaded (Chromium at 6× throttling, server at Pi speed)',
          value: l.perMin,
          unit: 'req/min',
          budget: 0,
          scaled: false,
          note: `over ${l.windowMs / 1000} s after the socket opened; the socket ${l.open ? 'still open at the end' : 'NOT OPEN at the end'}; before the socket: one every 5 s`,
        },
        {
          name: 'lite snapshot p99 under the lite screen\'s real load',
          value: pct(l.snapshotMs, 99),
          unit: 'ms',
          budget: 20,
          scaled: false,
          note: `${l.snapshotMs.length} GETs of the default snapshot (the lite topic's) every 250 ms while /lite is on its socket (lite and live every 5 s); median ${median(l.snapshotMs).toFixed(1)} ms`,
        },
      ] as BudgetLine[];
    });
    nextPart();
    const throttle = cage.throttled(pid);
    const peak = peakRssMiB(pid);
    await srv.stop();
    srv = null;
    // After the server: the child has the cage's tenth of a core to itself.
    const table = await section('the 48 h pass table and its plain baseline, one child process inside the cage', async () => {
      const r = await runChildAsync<{ ours: number; plain: number; passes: number }>('orbit', 'table-speedup', profile.quick ? ['quick'] : [], {}, (cmd, args) => cage.wrap(cmd, args));
      return [
        {
          name: '48 h table speed-up over the plain satellite.js baseline, same process, at a tenth of one core',
          value: r.plain / r.ours,
          unit: '×',
          budget: 12,
          kind: 'min',
          note: `ours ${r.ours.toFixed(0)} ms, the baseline ${r.plain.toFixed(0)} ms (${r.passes} passes of the bundled catalogue)`,
        } as BudgetLine,
      ];
    });
    const { windows } = JSON.parse(readFileSync(join(place.probeDir, `${pid}.json`), 'utf8')) as { windows: number[] };
    const serving = windows.slice(1);
    const servingMaxMs = Math.max(...serving);
    const where = serving.map((ms, i) => `${parts[i] ?? `part ${i + 1}`} ${ms.toFixed(0)}`).join(', ');
    const caged = `${cage.how}; ${describeRuntime()}`;
    const lines: Line[] = [
      {
        name: 'boot to /health with a persisted pass table',
        value: median(b.bootMs),
        unit: 'ms',
        budget: 1500,
        scaled: false,
        note: `${b.bootMs.length > 1 ? `median of ${b.bootMs.length} (${b.bootMs.map((x) => x.toFixed(0)).join(', ')})` : 'one boot'}; ${b.loaded ? 'table loaded from disk' : 'TABLE NOT LOADED FROM DISK'}; from the code cache; ${caged}`,
      },
      {
        name: 'boot to /health without the code cache (the first after an install or upgrade)',
        value: coldBootMs,
        unit: 'ms',
        budget: 1500,
        scaled: false,
        note: 'one boot, CODE_CACHE_DIR=off: every script compiled from source',
      },
      { name: 'lite snapshot, cache miss over HTTP, p99', value: pct(snap.miss, 99), unit: 'ms', budget: 40, scaled: false, note: `${snap.miss.length} misses (a new focus, or one evicted), median ${median(snap.miss).toFixed(1)} ms, ${TRACKED.length} tracked; ${slowest(snap.miss)}` },
      { name: 'lite snapshot, cache hit over HTTP, p99', value: pct(snap.hit, 99), unit: 'ms', budget: 20, scaled: false, note: `${snap.hit.length} hits, one client, median ${median(snap.hit).toFixed(1)} ms` },
      { name: `/passes 48 h (${pass.count} passes), repeated`, value: median(pass.ms), unit: 'ms', budget: 300, scaled: false, note: `median of ${pass.ms.length} after the first, ${pass.hits} served from stored item bytes, max ${Math.max(...pass.ms).toFixed(0)} ms` },
      { name: `/passes 48 h (${pass.count} passes), first after boot`, value: pass.first, unit: 'ms', budget: 300, scaled: false, note: 'the snapshots before left the warm-up no quiet: this request reads back the items the last run kept (pass-items.txt) and builds the rest' },
      ...radio,
      ...frame,
      ...lite,
      ...table,
      {
        name: 'longest event-loop block in the server while serving the above',
        value: servingMaxMs,
        unit: 'ms',
        budget: 100,
        scaled: false,
        note:
          `loop-delay monitor at ${LOOP_RESOLUTION_MS} ms resolution (may read up to ${LOOP_RESOLUTION_MS} ms over), from /health answering to exit; ` +
          `by part: ${where} ms; boot before that ${windows[0]?.toFixed(0) ?? '?'} ms; issue 36's budget; server peak RSS ${peak.toFixed(0)} MiB` +
          (throttle ? `; quota ${QUOTA_US / 1000} ms per ${PERIOD_US / 1000} ms throttled ${throttle.throttled} of ${throttle.periods} periods` : ''),
      },
    ];
    return lines;
  } finally {
    await srv?.stop();
    cage.dispose();
    rmSync(root, { recursive: true, force: true });
  }
}

export const piSpeedSuite: Suite = {
  name: 'Pi speed: the server at a tenth of one CPU',
  run: () => section('the server at a tenth of one CPU (cgroup quota)', run),
};
