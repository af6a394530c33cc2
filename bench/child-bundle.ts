// Figures that depend on the whole process (peak RSS, event-loop blocking) come from a fresh child
// process running an esbuild bundle of the bench file, as the product runs (one bundle, plain
// node: under tsx the loader alone adds ~35–40 MiB), with the node flags and environment of the
// systemd unit, so the bench measures what the appliance runs.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const UNIT = join(ROOT, 'deploy/satstation.service');
/** Unit variables that say where the service lives; a bench points them at its own temp dirs and ports. */
const PLACE_VARS = new Set(['DATA_DIR', 'PORT', 'HOST']);

export interface DeployedRuntime {
  /** Node flags of ExecStart (between the node binary and the script). */
  flags: string[];
  /** Environment= assignments of the unit that tune the runtime (MALLOC_ARENA_MAX, NODE_ENV, …). */
  env: Record<string, string>;
}

/** The node flags and environment deploy/satstation.service runs the server with. */
export function deployedRuntime(): DeployedRuntime {
  const unit = readFileSync(UNIT, 'utf8');
  const exec = /^ExecStart=\S*node\s+(.*?)\s*\S+\.m?js\b/m.exec(unit);
  const env: Record<string, string> = {};
  for (const m of unit.matchAll(/^Environment=("?)([A-Za-z_][A-Za-z0-9_]*)=(.*)\1\s*$/gm)) {
    if (!PLACE_VARS.has(m[2])) env[m[2]] = m[3];
  }
  return { flags: exec ? exec[1].split(/\s+/).filter(Boolean) : [], env };
}

/** "node --a --b, MALLOC_ARENA_MAX=2": how the child ran, for the budget notes. */
export function describeRuntime(rt: DeployedRuntime = deployedRuntime()): string {
  const env = Object.entries(rt.env).map(([k, v]) => `${k}=${v}`);
  return [`node ${rt.flags.join(' ')}`.trim(), ...env].join(', ');
}

/**
 * Bundles `entry` (a bench file that acts as a child when given its child arguments) into
 * node_modules/.cache so the externals resolve; esbuild is loaded lazily so children never load it.
 */
export async function bundleForChild(entry: string, name: string): Promise<string> {
  const out = join(ROOT, 'node_modules/.cache/satstation-bench', `${name}.mjs`);
  const { build } = await import('esbuild');
  await build({
    entryPoints: [entry],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node18',
    external: ['*.node', 'uWebSockets.js', 'serialport', 'tinybench', 'esbuild'],
    banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
    logLevel: 'error',
  });
  return out;
}

/**
 * Runs a bundle as the unit runs the server and parses the last stdout line as JSON.
 * `env` adds child-specific variables on top of the unit's.
 */
export function runDeployedChild<T>(bundle: string, args: string[], env: Record<string, string> = {}): T {
  const rt = deployedRuntime();
  const r = spawnSync(process.execPath, [...rt.flags, bundle, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...rt.env, ...env } });
  const line = r.stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line) as T;
  } catch {
    throw new Error(`bench child ${bundle} ${args.join(' ')} failed (exit ${r.status}): ${r.stderr || r.stdout}`);
  }
}
