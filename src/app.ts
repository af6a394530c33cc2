import { mkdirSync } from 'node:fs';
import type { Config } from './config.js';
import { HttpServer } from './http/server.js';
import { allRoutes } from './http/routes/index.js';
import { defaultUiDir, loadUi } from './http/ui-pages.js';
import { createStores, type Stores } from './station/stores.js';
import { systemClock, type Clock } from './util/clock.js';
import { logger } from './util/logger.js';

const log = logger('app');

export const VERSION = '0.1.0';

/** A part with a lifecycle: constructors only assign, start()/stop() do the work. */
export interface Lifecycle {
  name: string;
  start?(): void | Promise<void>;
  stop?(): void | Promise<void>;
}

export interface Services {
  version: string;
  config: Config;
  clock: Clock;
  stores: Stores;
  /** Clears the lite snapshot cache (wired by the station issue). */
  invalidateLite(): void;
}

export interface AppOptions {
  config: Config;
  clock?: Clock;
}

/** Composition root: config → stores → drivers → services → http. stop() runs in reverse. */
export class App {
  readonly services: Services;
  private server: HttpServer;
  private parts: Lifecycle[] = [];
  port = 0;

  constructor(readonly opts: AppOptions) {
    const { config } = opts;
    const clock = opts.clock ?? systemClock;
    mkdirSync(config.dataDir, { recursive: true });
    const stores = createStores(config.dataDir, clock);
    this.services = {
      version: VERSION,
      config,
      clock,
      stores,
      invalidateLite: () => {},
    };
    const ui = loadUi(config.uiDir ?? defaultUiDir());
    this.server = new HttpServer({
      routes: allRoutes(this.services, ui),
      assets: ui?.assets,
      onLiteInvalidate: () => this.services.invalidateLite(),
    });
  }

  get routes() {
    return this.server.router.routes();
  }

  async start(): Promise<number> {
    for (const p of this.parts) await p.start?.();
    this.port = await this.server.listen(this.opts.config.host, this.opts.config.port);
    log.info(`listening on ${this.opts.config.host}:${this.port} (data ${this.opts.config.dataDir}, low-power ${this.opts.config.lowPower})`);
    return this.port;
  }

  async stop(): Promise<void> {
    this.server.close();
    for (const p of [...this.parts].reverse()) {
      try {
        await p.stop?.();
      } catch (err) {
        log.error(`stopping ${p.name} failed`, err);
      }
    }
    for (const store of Object.values(this.services.stores)) {
      await store.flush();
      store.flushSync();
    }
  }
}
