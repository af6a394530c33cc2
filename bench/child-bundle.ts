// Figures that depend on the whole process (peak RSS, event-loop blocking) come from a fresh child
// process running the bench as one esbuild bundle, as the product runs (plain node: under tsx the
// loader alone adds ~35–40 MiB), with the node flags and environment of the systemd unit, so the
// bench measures what the appliance runs. The child is the bench itself started as
// `<bundle> --child <suite id> <name> …args` (bench/run.ts dispatches it to Suite.children):
//  - from the artifact, dist/bench.mjs itself (no build step on the appliance);
//  - from the repo, bench/run.ts bundled once per run into node_modules/.cache (so the externals
//    resolve), esbuild loaded lazily so neither children nor dist/bench.mjs ever load it.
// Suites are imported lazily by bench/run.ts, so a child initialises only its own suite's modules.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';
import { DIST_BENCH, REPO, spawnCwd, unitText, type BenchBuild } from './env.js';

/**
 * Unit variables that say where the service lives (its port, address and any path, such as
 * DATA_DIR or a directory under it): a bench points those at its own temp dirs and ports.
 */
const PLACE_VARS = new Set(['DATA_DIR', 'PORT', 'HOST']);
const isPlace = (name: string, value: string) => PLACE_VARS.has(name) || value.startsWith('/');

export interface DeployedRuntime {
  /** Node flags of ExecStart (between the node binary and the script). */
  flags: string[];
  /** Environment= assignments of the unit that tune the runtime (MALLOC_ARENA_MAX, NODE_ENV, …). */
  env: Record<string, string>;
}

/** The node flags and environment deploy/satstation.service runs the server with (parsed from `unit`). */
export function parseUnit(unit: string): DeployedRuntime {
  const exec = /^ExecStart=\S*node\s+(.*?)\s*\S+\.[cm]?js\b/m.exec(unit);
  const env: Record<string, string> = {};
  for (const m of unit.matchAll(/^Environment=("?)([A-Za-z_][A-Za-z0-9_]*)=(.*)\1\s*$/gm)) {
    if (!isPlace(m[2], m[3])) env[m[2]] = m[3];
  }
  if (!exec) throw new Error('deploy/satstation.service: no ExecStart=/usr/bin/node <flags> <script> line');
  return { flags: exec[1].split(/\s+/).filter(Boolean), env };
}

/** The node flags and environment deploy/satstation.service runs the server with. */
export function deployedRuntime(): DeployedRuntime {
  return parseUnit(unitText());
}

/**
 * Inherited variables that tune Node, libuv, glibc's allocator or OpenSSL. systemd starts the unit
 * in an environment of its own, never a shell's, so a service has only the unit's (rt.env) of these.
 * A machine's own would measure another runtime: NODE_EXTRA_CA_CERTS, set on this dev machine to the
 * system's CA bundle, made Node parse ~140 certificates at every start (59 % of a boot's
 * instructions under valgrind, 1.6 MiB of RSS, ~0.7 s of a boot at a tenth of a core).
 * test/arm/boot-under-qemu.mjs applies the same rule (it runs on plain node, without our TypeScript).
 */
const RUNTIME_VAR = /^(NODE_|UV_|MALLOC_|OPENSSL_)|^(GLIBC_TUNABLES|LD_PRELOAD)$/;

/**
 * The environment for a process run as the unit runs the server: this process's own (PATH, the
 * bench's variables) without the runtime's tuning variables, then the unit's, then `extra`.
 */
export function unitEnv(rt: DeployedRuntime, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !RUNTIME_VAR.test(k)) env[k] = v;
  return { ...env, ...rt.env, ...extra };
}

/** "node --a --b, MALLOC_ARENA_MAX=2": how the child ran, for the budget notes. */
export function describeRuntime(rt: DeployedRuntime = deployedRuntime()): string {
  const env = Object.entries(rt.env).map(([k, v]) => `${k}=${v}`);
  return [`node ${rt.flags.join(' ')}`.trim(), ...env].join(', ');
}

/**
 * The packages with native addons load from node_modules, but on first use, as dist/bench.mjs
 * loads them (its native shims are `require`s inside lazily initialised modules): left as plain
 * externals they would be top-level imports, loaded by every child, ~12 MiB of RSS that is not
 * the measured work's.
 */
const lazyNativePackages: Plugin = {
  name: 'lazy-native-packages',
  setup(b) {
    // The stub's own require stays external: a plain require() call, run when the stub first is.
    b.onResolve({ filter: /^(uWebSockets\.js|serialport|@serialport\/.+)$/ }, (a) => (a.namespace === 'lazy-native' ? { path: a.path, external: true } : { path: a.path, namespace: 'lazy-native' }));
    b.onLoad({ filter: /.*/, namespace: 'lazy-native' }, (a) => ({ contents: `module.exports = require(${JSON.stringify(a.path)});`, loader: 'js' }));
  },
};

let entry: Promise<string> | null = null;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The script children run: dist/bench.mjs, or (repo) a bundle of bench/run.ts built once per process. */
function childEntry(): Promise<string> {
  if (DIST_BENCH) return Promise.resolve(DIST_BENCH);
  entry ??= (async () => {
    // Inside node_modules so the externals resolve; one directory per process so parallel runs do
    // not collide. The worker threads' entry (src/worker.ts) sits beside the bundle, as in dist/.
    const top = join(REPO!, 'node_modules/.cache/satstation-bench');
    const dir = join(top, String(process.pid));
    mkdirSync(dir, { recursive: true });
    const out = join(dir, 'bench-child.mjs');
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    // Bundles left by runs that were killed (no exit handler ran).
    for (const f of readdirSync(top)) {
      const pid = Number(/^(?:bench-child-)?(\d+)(?:\.mjs)?$/.exec(f)?.[1]);
      if (pid && pid !== process.pid && !alive(pid)) rmSync(join(top, f), { recursive: true, force: true });
    }
    const { build } = await import('esbuild');
    // node-cron with the server bundle's local-time formatter (src/native/cron-local-time.mjs: ICU
    // stays out of RSS), as in dist/bench.mjs; its build-time self-check is build.mjs's business.
    const cron: Plugin = (await import(pathToFileURL(join(REPO!, 'src/native/cron-local-time.mjs')).href)).cronLocalTime;
    const { noSatelliteWasm } = (await import(pathToFileURL(join(REPO!, 'src/native/no-satellite-wasm.mjs')).href)) as { noSatelliteWasm: Plugin };
    const cronTransform: Plugin = { name: 'cron-local-time (transform)', setup: (b) => cron.setup(new Proxy(b, { get: (t, k) => (k === 'onStart' ? () => {} : t[k as keyof typeof t]) })) };
    const info: BenchBuild = { unit: unitText(), root: REPO, version: 'repo', arch: process.arch };
    const common = {
      bundle: true,
      platform: 'node' as const,
      target: 'node18',
      minify: true, // as dist/bench.mjs: the bundle's size is part of a child's RSS
      external: ['*.node', 'esbuild'],
      plugins: [lazyNativePackages, cronTransform, noSatelliteWasm],
      logLevel: 'error' as const,
    };
    // The worker threads' entry as dist/ has it (build.mjs): dist/worker.cjs, CommonJS.
    const worker = build({
      ...common,
      entryPoints: { worker: join(REPO!, 'src/worker.ts') },
      outdir: dir,
      outExtension: { '.js': '.cjs' },
      format: 'cjs',
      supported: { 'dynamic-import': false },
      define: { 'import.meta.url': '__import_meta_url' },
      banner: { js: 'var __import_meta_url=require("url").pathToFileURL(__filename).href;' },
    });
    await build({
      ...common,
      entryPoints: { 'bench-child': join(REPO!, 'bench/run.ts') },
      outdir: dir,
      outExtension: { '.js': '.mjs' },
      format: 'esm',
      define: { __SATSTATION_BENCH__: JSON.stringify(info) },
      banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
    });
    await worker;
    return out;
  })();
  return entry;
}

/**
 * Runs `child` of suite `suite` in a fresh process as the unit runs the server and parses the last
 * stdout line as JSON. `env` adds child-specific variables on top of the unit's.
 */
export async function runChild<T>(suite: string, child: string, args: string[] = [], env: Record<string, string> = {}): Promise<T> {
  const script = await childEntry();
  const rt = deployedRuntime();
  const r = spawnSync(process.execPath, [...rt.flags, ...childFlags(), script, '--child', suite, child, ...args], {
    cwd: spawnCwd(),
    encoding: 'utf8',
    env: unitEnv(rt, env),
    maxBuffer: 64 * 1024 * 1024,
  });
  // BENCH_CHILD_STDOUT keeps the child's whole stdout (with BENCH_CHILD_FLAGS=--trace-gc: its GC log).
  if (process.env.BENCH_CHILD_STDOUT) writeFileSync(process.env.BENCH_CHILD_STDOUT, r.stdout ?? '');
  return childResult<T>(`${suite} ${child} ${args.join(' ')}`, r.stdout ?? '', `exit ${r.status ?? r.signal}: ${r.stderr || r.stdout || r.error?.message}`);
}

// BENCH_CHILD_FLAGS adds node flags to the child (`--cpu-prof --cpu-prof-dir=DIR`: NODE_OPTIONS refuses those).
const childFlags = (): string[] => process.env.BENCH_CHILD_FLAGS?.split(' ').filter(Boolean) ?? [];

/** A command line rewritten to run inside something (the Pi-speed cage). */
export type CommandWrap = (cmd: string, args: string[]) => { cmd: string; args: string[] };

/**
 * runChild without blocking this process: for a child that talks to something this process
 * serves, or one run inside `wrap` (the Pi-speed cage).
 */
export async function runChildAsync<T>(suite: string, child: string, args: string[] = [], env: Record<string, string> = {}, wrap?: CommandWrap): Promise<T> {
  const script = await childEntry();
  const rt = deployedRuntime();
  const line = { cmd: process.execPath, args: [...rt.flags, ...childFlags(), script, '--child', suite, child, ...args] };
  const { cmd, args: argv } = wrap ? wrap(line.cmd, line.args) : line;
  const c = spawn(cmd, argv, { cwd: spawnCwd(), env: unitEnv(rt, env), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  c.stdout!.setEncoding('utf8').on('data', (d: string) => (out = (out + d).slice(-1 << 20)));
  c.stderr!.setEncoding('utf8').on('data', (d: string) => (err = (err + d).slice(-1 << 16)));
  const code = await new Promise<number | null>((resolve) => c.on('close', (n) => resolve(n)));
  return childResult<T>(`${suite} ${child} ${args.join(' ')}`, out, `exit ${code}: ${err || out}`);
}

function childResult<T>(what: string, stdout: string, failure: string): T {
  const line = stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line) as T;
  } catch {
    throw new Error(`bench child ${what} failed (${failure})`);
  }
}

