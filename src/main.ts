import { App } from './app.js';
import { codeCacheStatus, type CodeCacheStatus } from './boot/code-cache-status.js';
import { loadConfig } from './config.js';
import { SdNotify } from './system/sd-notify.js';
import { logger, setLogLevel } from './util/logger.js';

const log = logger('main');

// Under systemd (Type=notify) NOTIFY_SOCKET is set: READY=1 once listening, WATCHDOG=1 from the
// event loop, STOPPING=1 on SIGTERM. Elsewhere (npm start, tests) these are no-ops. The variables
// are taken out of the environment so no child (Dire Wolf, helpers) can speak for the service.
const notify = new SdNotify({ unsetEnvironment: true });

/**
 * When the code cache of what has run is written (src/boot/code-cache-loader.ts): the boot's
 * functions have all been compiled by then, and the first requests are over. A lazy area loaded
 * later is written at the next look; a stop writes what is left. CODE_CACHE_WRITE_MS changes the
 * period (tests).
 */
const writeMs = Number(process.env.CODE_CACHE_WRITE_MS);
const CODE_CACHE_WRITE_MS = Number.isFinite(writeMs) && writeMs >= 100 ? writeMs : 30_000;

let writingCodeCache = false;

/**
 * Writes what is pending: while serving one script a turn (main.cjs's alone is ~3 ms of CPU here,
 * a loop block of ~40 ms at a tenth of a core), at a stop all at once.
 */
function writeCodeCache(cache: CodeCacheStatus, sliced: boolean): void {
  if (!cache.pending() || writingCodeCache) return;
  writingCodeCache = true;
  const total = { written: 0, bytes: 0, error: null as string | null };
  const step = () => {
    if (!writingCodeCache) return; // a stop wrote the rest meanwhile
    const r = cache.flush(sliced ? 1 : Infinity);
    total.written += r.written;
    total.bytes += r.bytes;
    total.error ??= r.error;
    if (sliced && cache.pending() && !r.error) {
      setImmediate(step);
      return;
    }
    writingCodeCache = false;
    if (total.written) log.info(`code cache: ${total.written} scripts written (${Math.round(total.bytes / 1024)} KiB) to ${cache.dir}`);
    if (total.error) log.warn(`code cache not written to ${cache.dir}: ${total.error} (the next start compiles from source)`);
  };
  step();
}

/** systemd's TimeoutStopSec is 15 s (deploy/satstation.service): we are gone in 4.5 s at worst. */
const STOP_DEADLINE_MS = 4500;

async function main(): Promise<void> {
  const config = loadConfig();
  setLogLevel(config.logLevel);
  const app = new App({ config });
  const port = await app.start();
  notify.ready(`listening on ${config.host}:${port}`);
  notify.startWatchdog();
  const codeCache = codeCacheStatus();
  if (codeCache) {
    const c = codeCache;
    log.info(c.dir ? `code cache ${c.dir}: ${c.fromCache} scripts from it, ${c.compiled} compiled${c.rejected ? ` (${c.rejected} caches rejected: another Node, flags or a damaged file)` : ''}` : 'code cache off');
    setInterval(() => writeCodeCache(c, true), CODE_CACHE_WRITE_MS).unref();
  }
  if (notify.enabled) log.info(`systemd notified${notify.watchdogUsec ? `; watchdog keep-alive every ${notify.keepAliveMs} ms` : ''}`);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: stopping`);
    notify.stopping(`${signal}: stopping`);
    // Hard deadline: systemd expects us gone well inside its stop timeout.
    const deadline = setTimeout(() => {
      log.error(`shutdown took longer than ${STOP_DEADLINE_MS / 1000} s; exiting`);
      process.exit(1);
    }, STOP_DEADLINE_MS);
    deadline.unref();
    if (codeCache) {
      writingCodeCache = false; // a sliced write under way ends here: the stop writes the rest at once
      writeCodeCache(codeCache, false);
    }
    app
      .stop()
      // STOPPING=1 goes out while the app stops; wait briefly in case the sender is still busy.
      .then(() => notify.flush(1000))
      .then(() => process.exit(0))
      .catch((err) => {
        log.error('shutdown failed', err);
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('uncaughtException', (err) => log.error('uncaught exception (still serving)', err));
  process.on('unhandledRejection', (err) => log.error('unhandled rejection (still serving)', err));
}

main().catch((err) => {
  log.error('boot failed', err);
  process.exit(1);
});
