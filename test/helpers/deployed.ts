// The server as the appliance runs it: the esbuild bundle under deploy/satstation.service's node
// flags and environment (a 96 MiB heap), for tests that must show a load cannot crash it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deployedRuntime, unitEnv } from '../../bench/child-bundle.js';
import { tmpDataDir } from './server.js';
import { spawnServer, type SpawnedServer } from './spawn-server.js';

// (import.meta.url, not import.meta.dirname: dist/bench.mjs bundles this file and may run on Node 18.)
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let bundle: string | null = null;

/** Runs this server bundle instead of building one (the bench: dist/server.cjs, built or beside dist/bench.mjs). */
export function usePrebuiltServer(path: string): void {
  bundle = path;
}

/** Builds the server bundle once per test process (into a temp dir: dist/ is left alone). */
function serverBundle(): string {
  if (!bundle) {
    const out = tmpDataDir('satstation-bundle-');
    execFileSync(process.execPath, ['build.mjs', '--server-only', '--out', out], { cwd: ROOT, stdio: 'pipe' });
    bundle = join(out, 'server.cjs');
  }
  return bundle;
}

export interface DeployedServer extends SpawnedServer {
  /** Peak resident set so far (VmHWM), MiB: what systemd's MemoryMax is checked against. */
  peakRssMiB(): number;
}

export async function spawnDeployed(env: Record<string, string> = {}, dataDir = tmpDataDir()): Promise<DeployedServer> {
  const rt = deployedRuntime();
  const srv = await spawnServer(process.execPath, [...rt.flags, serverBundle()], {
    cwd: ROOT,
    env: unitEnv(rt, { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ...env }),
    wholeEnv: true,
    timeoutMs: 30_000,
  });
  return {
    ...srv,
    peakRssMiB: () => {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${srv.child.pid}/status`, 'utf8'));
      return m ? Number(m[1]) / 1024 : NaN;
    },
  };
}
