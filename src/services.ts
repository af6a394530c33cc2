import type { Config } from './config.js';
import type { Stores } from './stores.js';
import type { CatalogService } from './catalog/catalog-service.js';
import type { OrbitEngine } from './orbit/orbit-service.js';
import type { GuidanceService } from './guidance/guidance-service.js';
import type { Datasets } from './catalog/datasets.js';
import type { Scheduler } from './util/scheduler.js';
import type { Clock } from './util/clock.js';
import type { LocationService } from './station/location-service.js';
import type { NetworkService } from './station/network.js';
import type { LiteSettingsService } from './station/lite-settings-service.js';
import type { StationService } from './station/station-service.js';
import type { LiteService } from './station/lite-service.js';
import type { PassItemsService } from './station/pass-items-service.js';
import type { RawReply } from './http/route.js';
import type { RadioArea } from './radio/radio-area.js';
import type { AprsService } from './aprs/aprs-service.js';
import type { RotatorArea } from './rotator/rotator-area.js';
import type { AccessService } from './access/access-service.js';
import type { HamlibArea } from './hamlib/hamlib-area.js';
import type { LogbookArea } from './logbook/logbook-area.js';
import type { RecordingArea } from './recording/recording-area.js';

// What the composition root hands the HTTP layer: one service per area. Its own module so routes
// import it without importing app.ts (which imports the routes).

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
  /** The satellite catalog (bundled or refreshed elements, ids, radio facts, statuses). */
  catalog: CatalogService;
  /** Orbit engine (OrbitService): live samples, paths, passes from the precomputed pass table. */
  orbit: OrbitEngine;
  /** Frequency guidance (profiles, phase, Doppler, matrix): the one model every route embeds. */
  guidance: GuidanceService;
  /** Catalog refresh, operational status, snapshots and their schedules. */
  datasets: Datasets;
  /** node-cron jobs with overlap guard and logging (add jobs before start; onPrune for log pruning). */
  scheduler: Scheduler;
  /** Clears the lite snapshot cache (wired by the station issue). */
  invalidateLite(): void;
  /** The resolved station location (manual profile or fresh GPS fix); LocationProvider for the orbit engine. */
  location: LocationService;
  /** Online state and the offline switch (isOffline()) that dataset refresh and the iGate respect. */
  network: NetworkService;
  /** Lite settings and the tracked-set rule the snapshot reuses. */
  liteSettings: LiteSettingsService;
  /** ISS state, station identity, the screen's active target (system state and the snapshot build on it). */
  station: StationService;
  /** The /passes items with their guidance as bytes: kept, warmed after each table, kept across restarts. */
  passItems: PassItemsService;
  /** The lite snapshot behind its 15 s cache (invalidateLite clears it). */
  lite: LiteService<RawReply>;
  /** Rig control over CI-V: connection, poll, writes, auto-track and the pass-pinned session. */
  radio: RadioArea;
  /** The APRS station: targets and transmit gate, transport, sends, receive log, digipeater, iGate. */
  aprs: AprsService;
  /** The antenna rotator: controller, manual goto/stop/park, pass tracking through the planner. */
  rotator: RotatorArea;
  /** Hamlib's rigctld and rotctld on the network, driving the rig and the rotator (off by default). */
  hamlib: HamlibArea;
  /** The operator lock: open by default; when locked, POSTs need the operator token (the HTTP gate). */
  access: AccessService;
  /** The QSO logbook (journal file, ADIF export, Cloudlog/Wavelog push queue), loaded on first use. */
  logbook: LogbookArea;
  /** Pass recording: audio and journal of each pass the radio follows, or by hand; loaded when enabled or first listed. */
  recording: RecordingArea;
}
