import { App } from './app.js';
import { loadConfig } from './config.js';
import { logger, setLogLevel } from './util/logger.js';

const log = logger('main');

async function main(): Promise<void> {
  const config = loadConfig();
  setLogLevel(config.logLevel);
  const app = new App({ config });
  await app.start();

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: stopping`);
    // Hard deadline: systemd expects us gone well inside its stop timeout.
    const deadline = setTimeout(() => {
      log.error('shutdown took longer than 5 s; exiting');
      process.exit(1);
    }, 4500);
    deadline.unref();
    app
      .stop()
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
