import { App } from './app.js';
import { codeCacheStatus } from './boot/code-cache-status.js';
import { CodeCacheWriter } from './boot/code-cache-writer.js';
import { loadConfig } from './config.js';
import { SdNotify } from './system/sd-notify.js';
import { logger, setLogLevel } from './util/logger.js';

const log = logger('main');

// Under systemd (Type=notify) NOTIFY_SOCKET is set: READY=1 once listening, WATCHDOG=1 from the
// event loop, STOPPING=1 on SIGTERM. Elsewhere (npm start, tests) these are no-ops. The variables
// are taken out of the environment so no child (Dire Wolf, helpers) can speak for the service.
const notify = new SdNotify({ unsetEnvironment: true });

/** systemd's TimeoutStopSec is 15 s (deploy/satstation.service): we are gone in 4.5 s at worst. */
const STOP_DEADLINE_MS = 4500;

async function main(): Promise<void> {
  const config = loadConfig();
  setLogLevel(config.logLevel);
  const app = new App({ config });
  const port = await app.start();
  notify.ready(`listening on ${config.host}:${port}`);
  notify.startWatchdog();
  const c = codeCacheStatus();
  const codeCache = c?.dir ? new CodeCacheWriter(c) : null;
  if (c) log.info(c.dir ? `code cache ${c.dir}: ${c.fromCache} scripts from it, ${c.compiled} compiled${c.rejected ? ` (${c.rejected} caches rejected: another Node, flags or a damaged file)` : ''}` : 'code cache off');
  codeCache?.start();
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
    app
      .stop()
      // Once nothing is served any more: the caches of everything this run compiled.
      .then(() => codeCache?.stop())
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
