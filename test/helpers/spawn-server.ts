import { spawn, type ChildProcess } from 'node:child_process';

export interface SpawnedServer {
  child: ChildProcess;
  base: string;
  output: string[];
  /** ms from spawn to the first /health answer */
  bootMs: number;
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; ms: number }>;
}

/**
 * Servers started here and not yet exited: killed (their whole process group) when this process
 * exits, so a check that fails before a test's stop() leaves no server behind (with the runner's
 * --test-force-exit, test/run.mjs, the file then ends too).
 */
const running = new Set<ChildProcess>();
let reaperSet = false;
function reapAtExit(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (reaperSet) return;
  reaperSet = true;
  process.once('exit', () => {
    for (const c of running) {
      try {
        process.kill(-c.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  });
}

/** Runs a server entry (dist/server.cjs or an npm script) as a real process and waits for /health. */
export async function spawnServer(
  cmd: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string>; timeoutMs?: number; /** `env` is the whole environment, not added to this process's. */ wholeEnv?: boolean },
): Promise<SpawnedServer> {
  const t0 = performance.now();
  const env = opts.wholeEnv ? opts.env : { ...process.env, ...opts.env };
  const child = spawn(cmd, args, { cwd: opts.cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  reapAtExit(child);
  const output: string[] = [];
  let port = 0;
  const onData = (buf: Buffer) => {
    for (const line of buf.toString().split('\n')) {
      if (!line) continue;
      output.push(line);
      const m = /listening on [^ ]+:(\d+)/.exec(line);
      if (m) port = Number(m[1]);
    }
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const deadline = t0 + (opts.timeoutMs ?? 20000);
  let bootMs = -1;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output.join('\n')}`);
    if (port) {
      try {
        const r = await fetch(`http://127.0.0.1:${port}/health`);
        if (r.ok) {
          bootMs = performance.now() - t0;
          break;
        }
      } catch {
        /* not yet */
      }
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  if (bootMs < 0) {
    process.kill(-child.pid!, 'SIGKILL');
    throw new Error(`server did not answer /health:\n${output.join('\n')}`);
  }
  return {
    child,
    base: `http://127.0.0.1:${port}`,
    output,
    bootMs,
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        const s0 = performance.now();
        child.once('exit', (code) => resolve({ code, ms: performance.now() - s0 }));
        // To the whole process group, as a terminal's Ctrl-C does (npm start runs node under sh).
        process.kill(-child.pid!, signal);
      }),
  };
}
