import { followLiteLines, liteLinesKey } from './station/lite-lines.js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomUuidShape } from './util/hash64.js';
import { HttpServer } from './http/server.js';
import { allRoutes } from './http/routes/index.js';
import { eventSources } from './http/event-topics.js';
import { EventHub } from './events/hub.js';
import { defaultUiDir, loadUi, type UiBundle } from './http/ui-pages.js';
import { createStores, type Stores } from './stores.js';
import { LocationService } from './station/location-service.js';
import { NetworkService } from './station/network.js';
import { LiteSettingsService } from './station/lite-settings-service.js';
import { StationService } from './station/station-service.js';
import { LiteService } from './station/lite-service.js';
import { LITE_PASS_HOURS } from './station/lite-snapshot.js';
import { PassItemsService } from './station/pass-items-service.js';
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
import { RecordingArea, type RecordingAreaDeps } from './recording/recording-area.js';
import { recordingStation } from './recording-station.js';
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
import type { Config } from './config.js';

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
  /** The live-events clients' pacing clock (EventHubOptions.pacing); the station's clock by default. */
  eventsPacing?: Clock;
  /**
   * The recorder's edges: the audio file's open (a test's /dev/full), opusenc's path ('' for WAV),
   * arecord's environment, and the clock ALSA capture is paced by (the bench's faster one).
   */
  recording?: Pick<RecordingAreaDeps, 'openFile' | 'opusOutputPath' | 'opusenc'> & { env?: NodeJS.ProcessEnv; paceClock?: () => number };
}

// The composition root: it builds the parts floor by floor (stores, core, devices, station,
// HTTP), hands each the narrow inputs it reads, and starts and stops them in the two orders
// declared below. It holds no rule of its own: every policy lives in the area that owns it.

/** Every part the root builds, by name; the two orders pick the ones with a lifecycle. */
type Parts = Core & Devices & Station;

/**
 * Start order, top to bottom, each start() awaited before the next (the HTTP server listens after
 * the last): where the station is and the sky first, datasets before the scheduler (it registers
 * its jobs in start()); the LAN hub before the radio and APRS that lease it; the operator lock
 * before the Hamlib servers that read it; the recorder, then the logbook (it reads the other
 * areas for a QSO, the recording under way among them); last the lite snapshot's warm-up, which
 * reads them all once the server listens.
 */
const startOrder = (p: Parts): Lifecycle[] => [
  p.location, p.catalog, p.datasets, p.orbit, p.guidance, p.passItems, p.scheduler,
  p.lan, p.radio, p.aprs, p.rotator, p.access, p.hamlib, p.recording, p.logbook, p.lite,
];

/**
 * Stop order, top to bottom (the HTTP server closes before the first): the scheduler first, so no
 * job starts mid-shutdown, and a lite warm-up not yet run; then the start order backwards: the
 * logbook (a push under way is cut and stays pending), the recorder (its file ends while the
 * radio and its LAN lease are there), the Hamlib servers (their clients go before the rig and the
 * rotator they drive), the lock, the rotator, APRS and the radio, the LAN hub once they let their
 * leases go, then the sky and the location.
 */
const stopOrder = (p: Parts): Lifecycle[] => [
  p.scheduler, p.lite, p.logbook, p.recording, p.hamlib, p.access, p.rotator, p.aprs, p.radio, p.lan,
  p.passItems, p.guidance, p.orbit, p.datasets, p.catalog, p.location,
];

export class App {
  readonly services: Services;
  /** The push hub behind the live-events socket (/api/v1/events). */
  readonly events: EventHub;
  private readonly server: HttpServer;
  private readonly ui: UiBundle | null;
  private readonly lan: LazyLanHub;
  private readonly startOrder: Lifecycle[];
  private readonly stopOrder: Lifecycle[];
  /** Resolves the promise boot work waits on until the server listens (or failed to). */
  private listened: () => void = () => {};
  port = 0;

  constructor(readonly opts: AppOptions) {
    const { config } = opts;
    const clock = opts.clock ?? systemClock;
    const stores = openStores(config, clock);
    const listening = new Promise<void>((resolve) => (this.listened = resolve));
    const core = buildCore(config, clock, stores, listening);
    const devices = buildDevices(opts, clock, stores, core);
    const station = buildStation(opts, clock, stores, core, devices);
    const table = core.orbit.table;
    station.lite.warmAfter(
      listening.then(() => table.ready()),
      (now) => table.current()?.covers(now, now + LITE_PASS_HOURS * 3_600_000) ?? false,
    );
    const parts: Parts = { ...core, ...devices, ...station };
    this.startOrder = startOrder(parts);
    this.stopOrder = stopOrder(parts);
    // The routes reach the LAN hub only through radio and APRS.
    const { lan, ...equipment } = devices;
    this.lan = lan;
    this.services = { version: VERSION, config, clock, stores, ...core, ...equipment, ...station, invalidateLite: () => station.lite.invalidate() };
    this.ui = loadUi(config.uiDir ?? defaultUiDir());
    const routes = allRoutes(this.services, this.ui);
    // A new boot_id per start of the process: a page that sees another one reads everything again.
    this.events = new EventHub({ clock, pacing: opts.eventsPacing, bootId: randomUuidShape(), sources: eventSources(this.services, routes) });
    this.server = new HttpServer({
      routes,
      events: this.events,
      assets: this.ui?.assets,
      onLiteInvalidate: () => this.services.invalidateLite(),
      checkResponses: opts.checkResponses,
      gate: (c) => core.access.gate(c),
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
      for (const p of this.startOrder) {
        log.debug(`start ${p.name}`);
        await p.start?.();
      }
      this.port = await this.server.listen(this.opts.config.host, this.opts.config.port);
    } finally {
      this.listened(); // a failed boot must not leave the table's stop() waiting on it
    }
    log.info(`listening on ${this.opts.config.host}:${this.port} (data ${this.opts.config.dataDir}, low-power ${this.opts.config.lowPower})`);
    return this.port;
  }

  async stop(): Promise<void> {
    this.events.stop();
    this.server.close();
    for (const p of this.stopOrder) {
      log.debug(`stop ${p.name}`);
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

/** The settings files, one JSON store each under DATA_DIR. */
function openStores(config: Config, clock: Clock): Stores {
  mkdirSync(config.dataDir, { recursive: true });
  return createStores(config.dataDir, clock);
}

type Core = ReturnType<typeof buildCore>;

/** Where the station is, its network, the operator lock, the sky (catalog, orbit, guidance) and the dataset schedules. */
function buildCore(config: Config, clock: Clock, stores: Stores, listening: Promise<void>) {
  const location = new LocationService(stores.location, clock, listening);
  const network = new NetworkService(stores.network, clock);
  const access = new AccessService({ store: stores.access, envToken: config.operatorToken, clock });
  const catalog = new CatalogService({ dataDir: config.dataDir, clock });
  const orbit = new OrbitEngine({ clock, catalog, location, dataDir: config.dataDir });
  // What the first /health does not need waits for listen: the persisted pass table's load.
  orbit.table.loadAfter(listening);
  orbit.records.keepAfter(listening.then(() => orbit.table.ready()));
  // Profiles prebuilt from the bundled SatNOGS transmitters (a refresh rebuilds them), operator profiles in DATA_DIR.
  const transmitterProfiles = { file: bundledTransmitterProfiles, date: BUNDLED_TRANSMITTERS_DATE, checked: true };
  const guidance = new GuidanceService({ catalog, orbit, transmitterProfiles, dataDir: config.dataDir });
  const scheduler = new Scheduler(() => clock.now(), listening);
  scheduler.add('pass-table-extend', PASS_TABLE_CRON, () => orbit.table.maintain());
  const datasets = new Datasets({
    config,
    clock,
    stores,
    catalog,
    scheduler,
    isOffline: () => network.isOffline(),
    // Refreshed SatNOGS transmitters rebuild the guidance profiles.
    transmitters: { apply: (records, date) => guidance.setTransmitters(records, date), bundledDate: BUNDLED_TRANSMITTERS_DATE },
  });
  return { location, network, access, catalog, orbit, guidance, scheduler, datasets };
}

type Devices = ReturnType<typeof buildDevices>;

/** The station's equipment: radio control, the APRS station, the rotator and the Hamlib servers, each loaded when first enabled. */
function buildDevices(opts: AppOptions, clock: Clock, stores: Stores, core: Core) {
  const { catalog, orbit, guidance, location, network, access } = core;
  const claims = new DeviceClaims();
  const serial = opts.serial ?? lazySerialDriver;
  // Network time, not the app's clock: keep-alives must run even when a test fixes "now".
  const lan = new LazyLanHub({ clock: systemClock, ...opts.lan });
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
  const aprs = new AprsService({
    clock,
    store: stores.aprs,
    dataDir: opts.config.dataDir,
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
  const rotator = new RotatorArea({
    clock,
    store: stores.rotator,
    serial,
    knows: (id) => catalog.current().byId.has(id),
    sky: orbit,
    radioSession: () => (radio.loaded ? radio.session() : null),
    timeouts: opts.rotatorTimeouts,
  });
  const hamlib = new HamlibArea({ clock, store: stores.hamlib, rig: radio, rot: rotator, aprs, access });
  // The emergency stop drops external control at once; the APRS side unkeys the rig itself.
  aprs.onEmergencyStop(() => {
    hamlib.emergencyStop();
    void radio.dropExternal();
  });
  return { lan, radio, aprs, rotator, hamlib };
}

type Station = ReturnType<typeof buildStation>;

/** What the screens and the logbook compose from the rest: the tracked set, system state and ISS facts, the lite snapshot, the QSO logbook. */
function buildStation(opts: AppOptions, clock: Clock, stores: Stores, core: Core, devices: Devices) {
  const { config } = opts;
  const { catalog, orbit, guidance, location, network } = core;
  const { radio, aprs, rotator, hamlib, lan } = devices;
  const recording = new RecordingArea({
    clock,
    store: stores.recording,
    dir: join(config.dataDir, 'recordings'),
    station: recordingStation({ radio, rotator, aprs, orbit, catalog, location, lan, env: opts.recording?.env, paceClock: opts.recording?.paceClock }),
    openFile: opts.recording?.openFile,
    opusOutputPath: opts.recording?.opusOutputPath,
    opusenc: opts.recording?.opusenc,
  });
  const liteSettings = new LiteSettingsService(stores.lite, catalog);
  const station = new StationService({ clock, settings: stores, catalog, orbit, guidance, location, network, liteSettings, radio, aprs, rotator, hamlib, recording });
  // No lite invalidation on location change: the cache key carries the rounded location, and the
  // spec lists exactly which routes clear the cache (POST /location among them).
  const lite = new LiteService(station, liteReply);
  rotator.onChange(() => lite.invalidate()); // the lite rotator line follows LOS and faults too, not only the routes
  recording.onChange(() => lite.invalidate()); // the recording dot: a pass starting or ending, a fault
  followLiteLines(() => liteLinesKey(station), [(fn) => radio.onUpdate(fn), (fn) => aprs.onChange(fn)], () => lite.changedOnExpiry(), () => lite.followed);
  const logbook = new LogbookArea({
    clock,
    store: stores.logbook,
    path: join(config.dataDir, 'logbook.jsonl'),
    maxRecords: LOGBOOK_MAX_RECORDS,
    station: logbookStation({ aprs, location, radio, liteSettings, orbit, passFilter: stores.passFilter, catalog, guidance, recording }),
    log: logger('logbook'),
    programVersion: VERSION,
  });
  const passItems = new PassItemsService({ clock, orbit, guidance, passFilter: stores.passFilter, dataDir: config.dataDir });
  return { liteSettings, station, lite, passItems, logbook, recording };
}
