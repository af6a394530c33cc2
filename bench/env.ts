// Where the bench runs from, in its two forms, and the paths it needs there:
//  - the repo: `npm run bench` under tsx, and the child bundle it builds from bench/run.ts;
//  - the artifact: dist/bench.mjs (build.mjs), from a copied dist/ with no repo and no
//    node_modules anywhere: data in dist/bench-data/, the server is dist/server.cjs beside it,
//    the systemd unit's text embedded at build time (dist has no deploy/ folder).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Skip } from './harness.js';

/** What an esbuild build of bench/run.ts embeds (its `define`). */
export interface BenchBuild {
  /** deploy/satstation.service as it was at build time. */
  unit: string;
  /** The repo a child bundle was built from; null in dist/bench.mjs. */
  root: string | null;
  /** package.json version (no build date: the artifact stays reproducible, install.sh hashes it). */
  version: string;
  /** Target architecture of the build (its native binaries). */
  arch: string;
}

declare const __SATSTATION_BENCH__: BenchBuild | undefined;
export const BUILD: BenchBuild | null = typeof __SATSTATION_BENCH__ === 'undefined' ? null : __SATSTATION_BENCH__;

// In a bundle every module's import.meta.url is the bundle's own.
const SELF = fileURLToPath(import.meta.url);

/** The repo checkout, or null when running from a copied dist/. */
export const REPO: string | null = BUILD ? BUILD.root : resolve(dirname(SELF), '..');
/** dist/bench.mjs itself when running from the artifact, else null. */
export const DIST_BENCH: string | null = BUILD && !BUILD.root ? SELF : null;
const DIST_DIR = DIST_BENCH ? dirname(DIST_BENCH) : null;

/** "dist/bench.mjs in /opt/satstation/dist" or "repo /work/main (tsx)": for the header. */
export function whereFrom(): string {
  if (DIST_BENCH) return `${DIST_BENCH} (satstation ${BUILD!.version}, built for ${BUILD!.arch})`;
  return `repo ${REPO}`;
}

/** A file of bench/data (repo) or dist/bench-data (artifact). */
export function benchDataFile(name: string): string {
  return DIST_DIR ? join(DIST_DIR, 'bench-data', name) : join(REPO!, 'bench/data', name);
}

/** The amateur group: the orbit tests' copy in the repo, copied into dist/bench-data by build.mjs. */
export function amateurTleFile(): string {
  return DIST_DIR ? join(DIST_DIR, 'bench-data', 'amateur.tle') : join(REPO!, 'test/orbit/fixtures/amateur.tle');
}

/** deploy/satstation.service: read from the repo, or the copy embedded at build time. */
export function unitText(): string {
  if (BUILD?.unit) return BUILD.unit;
  return readFileSync(join(REPO!, 'deploy/satstation.service'), 'utf8');
}

let serverBuilt = false;

/**
 * The server bundle the benches spawn: dist/server.cjs beside dist/bench.mjs (no build step
 * there), or in the repo dist/server.cjs, built first when stale.
 */
/** The server's own entry beside dist/server.cjs (which is the code cache's loader): dist/main.cjs. */
export const serverMain = (bundle: string): string => join(dirname(bundle), 'main.cjs');

export function serverBundle(): string {
  if (DIST_DIR) {
    const p = join(DIST_DIR, 'server.cjs');
    if (!existsSync(p)) throw new Skip(`no server.cjs beside bench.mjs (${DIST_DIR})`);
    return p;
  }
  const p = join(REPO!, 'dist/server.cjs');
  if (!serverBuilt) {
    const r = spawnSync(process.execPath, [join(REPO!, 'build.mjs'), '--if-stale', '--server-only'], { cwd: REPO!, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`build.mjs --if-stale --server-only failed: ${r.stderr || r.stdout || r.error?.message}`);
    serverBuilt = true;
  }
  return p;
}

/** A working directory for spawned servers: the repo, or the folder that holds dist/. */
export function spawnCwd(): string {
  return REPO ?? dirname(DIST_DIR!);
}

/** Throws Skip unless `cmd` runs here (found on PATH). */
export function needCommand(cmd: string, args: string[] = ['-V']): void {
  const r = spawnSync(cmd, args, { stdio: 'ignore' });
  if ((r.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') throw new Skip(`${cmd} is not installed (apt-get install ${cmd})`);
}

/** The rig simulators run over a socat pseudo-terminal pair under /dev/shm (test/sims/pty-pair.ts). */
export function needPty(): void {
  needCommand('socat');
  needDir('/dev/shm', 'the pty links live there');
}

/** Throws Skip unless /proc/<pid>/status can be read (RSS of other processes). */
export function needProc(): void {
  if (!existsSync(`/proc/${process.pid}/status`)) throw new Skip('no /proc here: the RSS of another process cannot be read');
}

/** Throws Skip unless `dir` exists and is a directory. */
export function needDir(dir: string, why: string): void {
  let ok = false;
  try {
    ok = statSync(dir).isDirectory();
  } catch {
    ok = false;
  }
  if (!ok) throw new Skip(`${dir} is missing (${why})`);
}
