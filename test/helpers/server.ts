import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, type AppOptions } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { FixedClock, type Clock } from '../../src/util/clock.js';
import { setLogLevel } from '../../src/util/logger.js';

setLogLevel((process.env.TEST_LOG_LEVEL as 'debug') ?? 'silent');

export function tmpDataDir(prefix = 'satstation-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface TestServer {
  app: App;
  base: string;
  dataDir: string;
  clock: Clock;
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  post(path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  stop(opts?: { keepData?: boolean }): Promise<void>;
}

/** The real uWebSockets.js server on an ephemeral loopback port, fixed clock by default. */
export async function startServer(
  opts: { clock?: Clock; dataDir?: string; config?: Partial<Config>; now?: string; app?: Omit<AppOptions, 'config' | 'clock'> } = {},
): Promise<TestServer> {
  const dataDir = opts.dataDir ?? tmpDataDir();
  const clock = opts.clock ?? new FixedClock(Date.parse(opts.now ?? '2026-08-22T12:00:00Z'));
  const config: Config = {
    ...loadConfig({}, 4 * 1024 ** 3),
    port: 0,
    host: '127.0.0.1',
    dataDir,
    ...opts.config,
  };
  const app = new App({ checkResponses: true, ...opts.app, config, clock });
  const port = await app.start();
  const base = `http://127.0.0.1:${port}`;
  const call = async (method: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    const res = await fetch(base + path, init);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed as any, headers: res.headers };
  };
  return {
    app,
    base,
    dataDir,
    clock,
    get: (p, h) => call('GET', p, undefined, h),
    post: (p, b, h) => call('POST', p, b ?? {}, h),
    stop: async (o) => {
      await app.stop();
      if (!o?.keepData && !opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
