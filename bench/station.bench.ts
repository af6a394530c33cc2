import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import uWS from 'uWebSockets.js';
import { App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { buildLiteSnapshot } from '../src/station/lite-snapshot.js';
import { buildSystemState } from '../src/station/system-state.js';
import { FixedClock } from '../src/util/clock.js';
import { tmpDataDir } from '../test/helpers/server.js';
import { medianMs, profile, type BudgetLine, type Suite } from './harness.js';

// Station budgets: lite snapshot on a cache miss (8 tracked), system state, and a cache hit over
// HTTP against uWebSockets.js serving a constant buffer of the same size, same load, same run.

const TRACKED = ['iss', 'so-50', 'ao-91', 'ao-27', 'fo-29', 'ao-7', 'ao-73', 'rs-44'];
const CONNECTIONS = 32;
// Load runs: warm-up, measured time, rounds (each round: the constant server, then ours).
const loadPlan = () => (profile.quick ? { warmMs: 200, runMs: 500, rounds: 1 } : { warmMs: 500, runMs: 3000, rounds: 2 });

// Load generator (a child process, so it does not share the server's event loop): raw
// keep-alive sockets, one request in flight per connection, responses framed by Content-Length.
const CLIENT = `
const net = require('node:net');
const [port, path, conns, warmMs, runMs, gzip] = process.argv.slice(1);
const req = Buffer.from('GET ' + path + ' HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\n' + (gzip === '1' ? 'Accept-Encoding: gzip\\r\\n' : '') + '\\r\\n');
let counting = false, done = 0, bytes = 0, n = 0;
const lat = new Float64Array(1 << 22);
function connect() {
  const s = net.connect(+port, '127.0.0.1');
  s.setNoDelay(true);
  let pend = null, need = -1, t0 = 0;
  const send = () => { t0 = performance.now(); s.write(req); };
  s.on('connect', send);
  s.on('data', (chunk) => {
    let buf = pend ? Buffer.concat([pend, chunk]) : chunk;
    pend = null;
    if (need < 0) {
      const he = buf.indexOf('\\r\\n\\r\\n');
      if (he < 0) { pend = buf; return; }
      const m = /content-length: *(\\d+)/i.exec(buf.latin1Slice(0, he));
      need = he + 4 + (m ? +m[1] : 0);
    }
    if (buf.length < need) { pend = buf; return; }
    if (counting) { done++; bytes += need; if (n < lat.length) lat[n++] = performance.now() - t0; }
    need = -1;
    send();
  });
  s.on('error', (e) => { console.error(e.message); process.exit(1); });
}
for (let i = 0; i < +conns; i++) connect();
setTimeout(() => {
  counting = true;
  const t = performance.now();
  setTimeout(() => {
    const sec = (performance.now() - t) / 1000;
    counting = false;
    const l = lat.subarray(0, n).sort();
    console.log(JSON.stringify({ rate: done / sec, p99_ms: l[Math.floor(n * 0.99)] ?? 0, p50_ms: l[Math.floor(n * 0.5)] ?? 0, bytes_per_response: done ? bytes / done : 0 }));
    process.exit(0);
  }, +runMs);
}, +warmMs);
`;

interface LoadResult {
  rate: number;
  p99_ms: number;
  p50_ms: number;
  bytes_per_response: number;
}

function load(port: number, path: string, gzip = false): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const { warmMs, runMs } = loadPlan();
    const child = spawn(process.execPath, ['-e', CLIENT, String(port), path, String(CONNECTIONS), String(warmMs), String(runMs), gzip ? '1' : '0'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load generator exited ${code}`))));
  });
}

/** uWebSockets.js answering every request with one constant buffer and the same headers as our replies. */
function constantServer(body: Buffer): Promise<{ port: number; close: () => void }> {
  const app = uWS.App();
  app.any('/*', (res) => {
    res.cork(() => {
      res.writeStatus('200 OK');
      res.writeHeader('Content-Type', 'application/json; charset=utf-8');
      res.writeHeader('Cache-Control', 'no-store');
      res.writeHeader('X-Cache', 'HIT');
      res.end(body);
    });
  });
  return new Promise((resolve, reject) =>
    app.listen('127.0.0.1', 0, (sock) => {
      if (!sock) return reject(new Error('cannot listen'));
      resolve({ port: uWS.us_socket_local_port(sock), close: () => uWS.us_listen_socket_close(sock) });
    }),
  );
}

export const stationSuite: Suite = {
  name: 'station: lite snapshot and system state',
  async run(): Promise<BudgetLine[]> {
    const dataDir = tmpDataDir('bench-station-');
    const clock = new FixedClock(Date.parse('2026-08-22T12:00:00Z'));
    const config = { ...loadConfig({}, 4 * 1024 ** 3), port: 0, host: '127.0.0.1', dataDir };
    const app = new App({ config, clock });
    const port = await app.start();
    const s = app.services;
    await s.stores.lite.set({ tracked_sat_ids: TRACKED, setup_complete: true });
    await s.orbit.table.ready();
    const tracked = s.liteSettings.tracked().ids.length;

    // Cache miss: every iteration one second later (fresh live samples), cache cleared:
    // build + JSON + gzip, exactly what a miss costs.
    const missMs = await medianMs('lite snapshot, cache miss', () => {
      clock.advance(1000);
      s.invalidateLite();
      s.lite.reply({});
    });
    const buildMs = await medianMs('lite snapshot build only', () => {
      clock.advance(1000);
      buildLiteSnapshot(s.station, {});
    });
    const systemMs = await medianMs('system state build', () => {
      clock.advance(1000);
      JSON.stringify(buildSystemState(s.station));
    });

    // Cache hit over HTTP versus the constant buffer (the clock stands still: every request hits).
    s.invalidateLite();
    const prime = await fetch(`http://127.0.0.1:${port}/api/v1/lite/snapshot`);
    const body = Buffer.from(await prime.arrayBuffer());
    const hit = await fetch(`http://127.0.0.1:${port}/api/v1/lite/snapshot`);
    if (hit.headers.get('x-cache') !== 'HIT') throw new Error('the snapshot was not served from the cache');
    const constant = await constantServer(body);
    const rounds: Array<{ base: LoadResult; ours: LoadResult }> = [];
    for (let i = 0; i < loadPlan().rounds; i++) {
      const base = await load(constant.port, '/api/v1/lite/snapshot');
      const ours = await load(port, '/api/v1/lite/snapshot');
      rounds.push({ base, ours });
    }
    constant.close();
    await app.stop();
    rmSync(dataDir, { recursive: true, force: true });

    const best = (k: 'base' | 'ours') => rounds.map((r) => r[k]).reduce((a, b) => (b.rate > a.rate ? b : a));
    const base = best('base');
    const ours = best('ours');
    const kb = (body.length / 1024).toFixed(1);
    return [
      { name: `lite snapshot, cache miss, ${tracked} tracked (build + JSON + gzip)`, value: missMs, unit: 'ms', budget: 2 },
      { name: 'lite snapshot build alone (info)', value: buildMs, unit: 'ms', budget: 2 },
      { name: 'system state build (+ JSON)', value: systemMs, unit: 'ms', budget: 2 },
      { name: `lite payload with ${tracked} tracked`, value: body.length / 1024, unit: 'KiB', budget: 24 },
      {
        name: `uWS constant ${kb} KiB buffer, ${CONNECTIONS} conns (reference)`,
        value: base.rate,
        unit: 'req/s',
        budget: 0,
        kind: 'min',
        note: `p50 ${base.p50_ms.toFixed(2)} ms, p99 ${base.p99_ms.toFixed(2)} ms`,
      },
      {
        name: `lite cache hit over HTTP, ${CONNECTIONS} conns`,
        value: ours.rate,
        unit: 'req/s',
        budget: 0.8 * base.rate,
        kind: 'min',
        note: `p50 ${ours.p50_ms.toFixed(2)} ms, p99 ${ours.p99_ms.toFixed(2)} ms; rounds ${rounds.map((r) => `${r.ours.rate.toFixed(0)}/${r.base.rate.toFixed(0)}`).join(', ')}`,
      },
      { name: 'cache hit rate / constant-buffer rate', value: (100 * ours.rate) / base.rate, unit: '%', budget: 80, kind: 'min' },
    ];
  },
};
