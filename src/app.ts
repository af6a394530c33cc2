import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { removeStaleTempsIn } from './store/atomic-file.js';
import type { Config } from './config.js';
import { HttpServer } from './http/server.js';
import { allRoutes } from './http/routes/index.js';
import { defaultUiDir, loadUi, type UiBundle } from './http/ui-pages.js';
import { createStores } from './stores.js';
import { LocationService } from './station/location-service.js';
import { NetworkService } from './station/network.js';
import { LiteSettingsService } from './station/lite-settings-service.js';
import { StationService } from './station/station-service.js';
import { LiteService } from './station/lite-service.js';
import { liteReply } from './http/routes/lite.js';
import { RadioArea } from './radio/radio-area.js';
import type { SerialDriver } from './links/serial-driver.js';
import { lazySerialDriver } from './links/lazy-serial-driver.js';
import type { CivTimeouts } from './radio/civ-bus.js';
import { AprsService, type AprsServiceDeps } from './aprs/aprs-service.js';
import { RotatorArea } from './rotator/rotator-area.js';
import { HamlibArea } from './hamlib/hamlib-area.js';
import type { RotatorTimeouts } from './rotator/drivers/rotator-driver.js';
import { DeviceClaims } from './util/device-claims.js';
import type { LanHubDeps } from './radio/lan/lan-hub.js';
import { LazyLanHub } from './radio/lan/lazy-lan-hub.js';
import { AccessService } from './access/access-service.js';
import { LogbookArea } from './logbook/logbook-area.js';
import { LOGBOOK_MAX_RECORDS } from './logbook/schemas.js';
import { logbookStation } from './logbook-station.js';
import { CatalogService } from './catalog/catalog-service.js';
import { OrbitEngine } from './orbit/orbit-service.js';
import { GuidanceService } from './guidance/guidance-service.js';
import { bundledTransmitterProfiles, BUNDLED_TRANSMITTERS_DATE } from './guidance/transmitters/bundled.js';
import { PASS_TABLE_CRON } from './orbit/pass-table-service.js';
import { Datasets } from './catalog/datasets.js';
import { Scheduler } from './util/scheduler.js';
import { systemClock, type Clock } from './util/clock.js';
import { logger } from './util/logger.js';
import type { Lifecycle, Services } from './services.js';

export type { Lifecycle, Services } from './services.js';

const log = logger('app');

export const VERSION = '0.1.0';

export interface AppOptions {
  config: Config;
  clock?: Clock;
  /** The serial binding (tests may swap it); the real serialport by default. */
  serial?: SerialDriver;
  /** CI-V timings (tests shorten them). */
  civTimeouts?: CivTimeouts;
  /** Tests: every JSON answer is checked against its route's documented response schema. */
  checkResponses?: boolean;
  /** APRS transport seams at the process edge (timings, the APRS-IS socket). */
  aprsTransport?: AprsServiceDeps['transport'];
  /** The IC-705 LAN session's timings and preflight (tests shorten them); its clock is real time. */
  lan?: Omit<LanHubDeps, 'clock'>;
  /** The rotator controller's reply and connect timeouts (tests shorten them). */
  rotatorTimeouts?: Partial<RotatorTimeouts>;
}

/** Composition root: config → stores → drivers → services → http. stop() runs in reverse. */
export class App {
  readonly services: Services;
  private server: HttpServer;
  private readonly ui: UiBundle | null;
  private parts: Lifecycle[] = [];
  private readonly lan: LazyLanHub;
  /** Resolves the promise boot work waits on until the server listens (or failed to). */
  private listened: () => void = () => {};
  port = 0;

  constructor(readonly opts: AppOptions) {
    const { config } = opts;
    const clock = opts.clock ?? systemClock;
    mkdirSync(config.dataDir, { recursive: true });
    removeStaleTempsIn(config.dataDir); // each folder's owner cleans its own; this one holds the settings
    const stores = createStores(config.dataDir, clock);
    const location = new LocationService(stores.location, clock);
    this.parts.push(location);
    const network = new NetworkService(stores.network, clock);
    const catalog = new CatalogService({ dataDir: config.dataDir, clock });
    this.parts.push(catalog);
    const scheduler = new Scheduler(() => clock.now());
    const datasets = new Datasets({
      config,
      clock,
      stores,
      catalog,
      scheduler,
      isOffline: () => network.isOffline(),
      // Refreshed SatNOGS transmitters rebuild the guidance profiles (called only after start()).
      transmitters: { apply: (records, date) => guidance.setTransmitters(records, date), bundledDate: BUNDLED_TRANSMITTERS_DATE },
    });
    this.parts.push(datasets);
    const orbit = new OrbitEngine({ clock, catalog, location, dataDir: config.dataDir });
    // What the first /health does not need waits for listen: the persisted pass table's load.
    orbit.table.loadAfter(new Promise<void>((resolve) => (this.listened = resolve)));
    this.parts.push(orbit);
    // Profiles prebuilt from the bundled SatNOGS transmitters (a refresh rebuilds them), operator profiles in DATA_DIR.
    const guidance = new GuidanceService({ catalog, orbit, transmitterProfiles: { file: bundledTransmitterProfiles, date: BUNDLED_TRANSMITTERS_DATE }, dataDir: config.dataDir });
    this.parts.push(guidance);
    scheduler.add('pass-table-extend', PASS_TABLE_CRON, () => orbit.table.maintain());
    // After datasets (which registers its jobs); stops first on SIGTERM, so no tick starts mid-shutdown.
    this.parts.push(scheduler);
    const liteSettings = new LiteSettingsService(stores.lite, catalog);
    const claims = new DeviceClaims();
    const serial = opts.serial ?? lazySerialDriver;
    // Network time, not the app's clock: keep-alives must run even when a test fixes "now".
    const lan = new LazyLanHub({ clock: systemClock, ...opts.lan });
    this.lan = lan;
    this.parts.push(lan); // stops after the radio and APRS let their leases go
    const radio = new RadioArea({
      clock,
      claims,
      lan,
      serial,
      store: stores.radio,
      guidance,
      rangeRate: (id, at) => orbit.sample(id, at)?.range_rate_km_s ?? null,
      satName: (id) => catalog.current().byId.get(id)?.name ?? null,
      timeouts: opts.civTimeouts,
    });
    this.parts.push(radio);
    const aprs = new AprsService({
      clock,
      store: stores.aprs,
      dataDir: config.dataDir,
      catalog,
      orbit,
      guidance,
      location,
      network,
      radio,
      claims,
      lan,
      serial,
      version: VERSION,
      transport: opts.aprsTransport,
    });
    this.parts.push(aprs);
    const rotator = new RotatorArea({
      clock,
      store: stores.rotator,
      serial,
      knows: (id) => catalog.current().byId.has(id),
      sky: orbit,
      radioSession: () => (radio.loaded ? radio.session() : null),
      timeouts: opts.rotatorTimeouts,
    });
    this.parts.push(rotator); // stops before the radio and APRS
    const access = new AccessService({ store: stores.access, envToken: config.operatorToken, clock });
    this.parts.push(access);
    const hamlib = new HamlibArea({
      clock,
      store: stores.hamlib,
      rig: radio,
      rot: rotator,
      aprs,
      access,
    });
    this.parts.push(hamlib); // stops first: its clients go before the rig and the rotator they drive
    const logbook = new LogbookArea({
      clock,
      store: stores.logbook,
      path: join(config.dataDir, 'logbook.jsonl'),
      maxRecords: LOGBOOK_MAX_RECORDS,
      station: logbookStation({ aprs, location, radio, liteSettings, orbit, passFilter: stores.passFilter, catalog, guidance }),
      log: logger('logbook'),
      programVersion: VERSION,
    });
    this.parts.push(logbook); // stops before the rest: a push under way is cut and stays pending
    const station = new StationService({ clock, settings: stores, catalog, orbit, guidance, location, network, liteSettings, radio, aprs, rotator, hamlib });
    const lite = new LiteService(station, liteReply);
    // The emergency stop drops external control at once; the APRS side unkeys the rig itself.
    aprs.onEmergencyStop(() => {
      hamlib.emergencyStop();
      void radio.dropExternal();
    });
    this.services = {
      version: VERSION,
      config,
      clock,
      stores,
      catalog,
      orbit,
      guidance,
      datasets,
      scheduler,
      invalidateLite: () => lite.invalidate(),
      location,
      network,
      liteSettings,
      station,
      lite,
      radio,
      aprs,
      rotator,
      hamlib,
      access,
      logbook,
    };
    // No lite invalidation on location change: the cache key carries the rounded location, and the
    // spec lists exactly which routes clear the cache (POST /location among them).
    const ui = loadUi(config.uiDir ?? defaultUiDir());
    this.ui = ui;
    this.server = new HttpServer({
      routes: allRoutes(this.services, ui),
      assets: ui?.assets,
      onLiteInvalidate: () => this.services.invalidateLite(),
      checkResponses: opts.checkResponses,
      gate: (c) => access.gate(c),
      allowedHosts: config.allowedHosts,
    });
  }

  /** Whether the IC-705 LAN transport has been loaded (it loads on the first Wi-Fi lease). */
  get lanLoaded(): boolean {
    return this.lan.loaded;
  }

  get routes() {
    return this.server.router.routes();
  }

  async start(): Promise<number> {
    try {
      for (const p of this.parts) await p.start?.();
      this.port = await this.server.listen(this.opts.config.host, this.opts.config.port);
    } finally {
      this.listened(); // a failed boot must not leave the table's stop() waiting on it
    }
    void this.ui?.compress(); // a request that comes first makes its own
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
