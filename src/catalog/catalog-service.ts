// The live catalog: boots synchronously from the persisted refresh under DATA_DIR (when present
// and valid) or the bundled data, hands out immutable generations and announces replacements.
import { join } from 'node:path';
import * as v from 'valibot';
import { moveAside, readTextCapped, removeStaleTempsIn, writeFileAtomic } from '../store/atomic-file.js';
import { jsonShapeProblem } from '../store/json-shape.js';
import { JsonStore } from '../store/json-store.js';
import type { Clock } from '../util/clock.js';
import { Listeners } from '../util/listeners.js';
import { drain, drainSliced, nextTurn } from '../util/loop-slices.js';
import { logger } from '../util/logger.js';
import { aliasTable, BUNDLED_CATALOG_VERSION, bundledElements, bundledSatIds, radioTable } from './bundled.js';
import { buildCatalogSteps, EMPTY_STATUS } from './catalog-build.js';
import { elementTexts } from './element-table.js';
import { jsonTextWithArrayPartsSteps } from '../util/json-bytes.js';
import { ommRecord } from './omm.js';
import { describeSkipped } from './parse.js';
import { assignSatIdsSteps } from './sat-ids.js';
import { MAX_CATALOG_RECORDS, type Catalog, type CatalogProvider, type OmmElements, type OperationalStatus, type Satellite } from './types.js';
import { rangeProblem } from './validate.js';

const log = logger('catalog');

export const CATALOG_FILE = 'catalog.json';
/** The 16k active catalogue is ~7 MiB in this format; the parse limit of 30k records fits in 24 MiB. */
const PERSISTED_MAX_BYTES = 24 * 1024 * 1024;
/**
 * A record is one object with ~17 keys and ~22 strings; the sat_ids map adds two strings per
 * object. Bounded so, JSON.parse of the worst text under the cap stays within ~50 MiB at boot.
 */
const PERSISTED_SHAPE = { containers: MAX_CATALOG_RECORDS + 64, strings: MAX_CATALOG_RECORDS * 32, values: MAX_CATALOG_RECORDS * 48 };

/** What a refresh persists: the merged elements plus where they came from. */
export interface PersistedCatalog {
  format: 1;
  refreshed_at: string;
  sources: string[];
  /** Informational (recomputed at load): lets a copy of the file stand alone as a snapshot. */
  version?: string;
  sat_ids?: Record<string, string>;
  elements: OmmElements[];
}

/** The catalog as one self-contained JSON document (persisted refresh and snapshots share it), UTF-8. */
export const catalogDocument = (cat: Catalog, refreshed_at: string, sources: string[]): Buffer => drain(catalogDocumentSteps(cat, refreshed_at, sources));

export function* catalogDocumentSteps(cat: Catalog, refreshed_at: string, sources: string[]): Generator<void, Buffer, undefined> {
  return Buffer.concat(yield* catalogDocumentPartsSteps(cat, refreshed_at, sources));
}

/** The same bytes as parts, for a file write (no multi-MiB join). */
export function* catalogDocumentPartsSteps(cat: Catalog, refreshed_at: string, sources: string[]): Generator<void, Buffer[], undefined> {
  // The id map is serialised an entry at a time (one JSON.stringify of 16k keys is ms here, tens
  // of ms on a Pi). Satellites are in NORAD order, the order JSON gives an object's integer keys,
  // so the bytes are those of JSON.stringify of the whole document.
  const ids: string[] = [];
  const elements: OmmElements[] = [];
  for (let i = 0; i < cat.satellites.length; i++) {
    const s = cat.satellites[i];
    ids.push(`"${s.norad_id}":${JSON.stringify(s.sat_id)}`);
    elements.push(s.elements);
    if ((i & 1023) === 1023) yield;
  }
  yield;
  const head: Omit<PersistedCatalog, 'elements' | 'sat_ids'> = { format: 1, refreshed_at, sources, version: cat.version };
  return yield* jsonTextWithArrayPartsSteps(`${JSON.stringify(head).slice(0, -1)},"sat_ids":{${ids.join(',')}}}`, 'elements', elementTexts(elements));
}

export interface CatalogServiceOptions {
  dataDir: string;
  clock: Clock;
}

const SatIdsSchema = v.record(v.string(), v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]*$/)));

export class CatalogService implements CatalogProvider {
  readonly name = 'catalog';
  /** DATA_DIR/catalog: catalog.json, sat-ids.json and the refresh/status state files. */
  readonly dir: string;
  private cat: Catalog;
  private readonly listeners = new Listeners<Catalog>(log, 'catalog');
  private idStore: JsonStore<typeof SatIdsSchema>;
  private statuses = new Map<number, OperationalStatus>();
  private meta: { refreshed_at: string | null; sources: string[] } = { refreshed_at: null, sources: [] };
  private persistedVersion: string | null = null;

  constructor(private readonly opts: CatalogServiceOptions) {
    this.dir = join(opts.dataDir, 'catalog');
    const now = () => opts.clock.now();
    removeStaleTempsIn(this.dir); // catalog.json and sat-ids.json temps a kill left behind
    // One entry per object ever seen: ~35 bytes each, so the record limit fits in 2 MiB.
    this.idStore = new JsonStore({ dir: this.dir, name: 'sat-ids', schema: SatIdsSchema, defaults: () => ({}), now, maxBytes: 2 * 1024 * 1024, sliced: true });
    const persisted = this.loadPersisted();
    const elements = persisted?.elements ?? bundledElements;
    if (persisted) this.meta = { refreshed_at: persisted.refreshed_at, sources: persisted.sources };
    this.cat = persisted ? this.build(elements, 'refreshed') : this.build(elements, 'bundled', BUNDLED_CATALOG_VERSION);
    // A file with records skipped at load differs from the catalog in use: not copied as a snapshot.
    if (persisted && persisted.elements.length === persisted.total) this.persistedVersion = this.cat.version;
    log.info(`catalog ${this.cat.version}: ${this.cat.satellites.length} satellites (${this.cat.origin})`);
  }

  current(): Catalog {
    return this.cat;
  }

  onChange(fn: (c: Catalog) => void): () => void {
    return this.listeners.add(fn);
  }

  /** The persisted refresh file, when it holds exactly the catalog in use (snapshots copy it). */
  persistedFileOfCurrent(): string | null {
    return this.persistedVersion === this.cat.version ? this.persistedPath() : null;
  }

  private persistedPath(): string {
    return join(this.dir, CATALOG_FILE);
  }

  /** When the elements in use were last refreshed from sources (null: bundled data). */
  refreshInfo(): { refreshed_at: string | null; sources: string[] } {
    return this.meta;
  }

  /**
   * The ids ever given (norad → sat_id), for stable assignment across refreshes. Up to 30k
   * entries: gathered in steps (Object.keys once, then lookups; Object.entries of integer-like
   * keys is several times slower).
   */
  private *knownIdsSteps(): Generator<void, Map<number, string>, undefined> {
    const known = new Map<number, string>();
    for (const [n, id] of Object.entries(bundledSatIds)) known.set(Number(n), id);
    yield* eachKeySteps(this.idStore.get(), (norad, id) => known.set(Number(norad), id));
    return known;
  }

  /**
   * Atomically replace the elements: persist first (a crash leaves the old file or the new one),
   * then swap the in-memory generation and tell subscribers when the version changed.
   */
  async replace(elements: readonly OmmElements[], sources: string[]): Promise<Catalog> {
    const refreshed_at = new Date(this.opts.clock.now()).toISOString();
    // Built and serialised in slices: 16k objects are ~0.3 s of work here, seconds on a Pi.
    const next = await drainSliced(this.buildSteps(elements, 'refreshed'));
    await this.idStore.flush();
    await writeFileAtomic(this.persistedPath(), await drainSliced(catalogDocumentPartsSteps(next, refreshed_at, sources)));
    this.persistedVersion = next.version;
    const changed = next.version !== this.cat.version;
    this.cat = next;
    this.meta = { refreshed_at, sources };
    log.info(`catalog replaced: ${next.version}, ${next.satellites.length} satellites${changed ? '' : ' (elements unchanged)'}`);
    // Each listener in its own turn: with 16k satellites the status match and the orbit set's
    // rebuild are a few ms each (~10 ms together here, with the turn's last slice before them).
    if (changed) await this.listeners.emitSpaced(next, nextTurn);
    return next;
  }

  /**
   * Operational statuses by NORAD id; a status change keeps the version (elements unchanged).
   * Only the satellites whose status changed get new objects: the rest of the generation is shared.
   */
  setStatuses(statuses: ReadonlyMap<number, OperationalStatus>): void {
    this.statuses = new Map(statuses);
    const cat = this.cat;
    let changed: Map<number, Satellite> | null = null;
    for (const sat of cat.satellites) {
      const status = statuses.get(sat.norad_id) ?? EMPTY_STATUS;
      if (!sameStatus(status, sat.operational_status)) (changed ??= new Map()).set(sat.norad_id, { ...sat, operational_status: status });
    }
    if (!changed) return;
    const byId = new Map(cat.byId);
    const byNorad = new Map(cat.byNorad);
    for (const sat of changed.values()) {
      byId.set(sat.sat_id, sat);
      byNorad.set(sat.norad_id, sat);
    }
    const satellites = cat.satellites.map((s) => changed.get(s.norad_id) ?? s);
    this.cat = { ...cat, satellites, byId, byNorad };
  }

  async stop(): Promise<void> {
    await this.idStore.flush();
  }

  /** `version`: the elements' version when it is known (the bundled data's), else they are hashed. */
  private build(elements: readonly OmmElements[], origin: string, version?: string): Catalog {
    return drain(this.buildSteps(elements, origin, version));
  }

  private *buildSteps(elements: readonly OmmElements[], origin: string, version?: string): Generator<void, Catalog, undefined> {
    const known = yield* this.knownIdsSteps();
    const sats: { norad: number; name: string }[] = [];
    for (let i = 0; i < elements.length; i++) {
      sats.push({ norad: elements[i].NORAD_CAT_ID, name: elements[i].OBJECT_NAME });
      if ((i & 1023) === 1023) yield;
    }
    const { ids, added } = yield* assignSatIdsSteps(sats, known, aliasTable);
    if (added > 0) {
      // 16k ids on a first refresh: copied in steps, then written by the store in slices.
      const persisted: Record<string, string> = {};
      yield* eachKeySteps(this.idStore.get(), (norad, id) => (persisted[norad] = id));
      for (let i = 0; i < elements.length; i++) {
        persisted[String(elements[i].NORAD_CAT_ID)] = ids.get(elements[i].NORAD_CAT_ID)!;
        if ((i & 1023) === 1023) yield;
      }
      this.idStore.set(persisted).catch((err) => log.error('saving sat ids failed', err));
    }
    return yield* buildCatalogSteps({
      elements,
      ids,
      radio: radioTable,
      statuses: this.statuses,
      origin,
      loadedAtMs: this.opts.clock.now(),
      version,
    });
  }

  /** The persisted refresh, or null (missing, unreadable or empty: the bundled data is used). */
  private loadPersisted(): (PersistedCatalog & { total: number }) | null {
    const path = this.persistedPath();
    const read = readTextCapped(path, PERSISTED_MAX_BYTES);
    if (read.kind === 'missing') return null;
    if (read.kind === 'error') {
      log.warn(`cannot read ${path} (${read.code}); using the bundled catalog`);
      return null;
    }
    if (read.kind === 'not-a-file') return this.quarantine(path, 'is not a regular file');
    if (read.kind === 'too-large') return this.quarantine(path, `is ${read.bytes} bytes, over the ${PERSISTED_MAX_BYTES}-byte limit`);
    const text = read.text;
    const shape = jsonShapeProblem(text, PERSISTED_SHAPE);
    if (shape) return this.quarantine(path, `has ${shape}: not a catalog this station wrote`);
    let raw: Partial<PersistedCatalog>;
    try {
      raw = JSON.parse(text);
    } catch {
      return this.quarantine(path, 'is not valid JSON');
    }
    if (raw?.format !== 1 || !Array.isArray(raw.elements)) return this.quarantine(path, 'has an unknown layout');
    const elements: OmmElements[] = [];
    for (const r of raw.elements) {
      const el = ommRecord(r);
      const reason = 'reason' in el ? el.reason : rangeProblem(el);
      if (reason) log.warn(`persisted catalog: ${describeSkipped({ norad_id: (r as OmmElements)?.NORAD_CAT_ID ?? null, name: '', reason })}`);
      else elements.push(el as OmmElements);
    }
    if (elements.length === 0) return this.quarantine(path, 'holds no usable element sets');
    return {
      format: 1,
      refreshed_at: typeof raw.refreshed_at === 'string' ? raw.refreshed_at : '',
      sources: Array.isArray(raw.sources) ? raw.sources.map(String) : [],
      elements,
      total: raw.elements.length,
    };
  }

  private quarantine(path: string, why: string): null {
    const aside = moveAside(path, this.opts.clock.now());
    log.warn(`${path} ${why}; ${aside ? `moved aside to ${aside}` : 'could not move it aside'}, using the bundled catalog`);
    return null;
  }
}

/** Calls `fn` for each entry of a large string map, yielding every 1024 entries. */
function* eachKeySteps(map: Readonly<Record<string, string>>, fn: (key: string, value: string) => void): Generator<void, void, undefined> {
  const keys = Object.keys(map);
  yield;
  for (let i = 0; i < keys.length; i++) {
    fn(keys[i], map[keys[i]]);
    if ((i & 1023) === 1023) yield;
  }
}

const sameStatus = (a: OperationalStatus, b: OperationalStatus) => a.source === b.source && a.summary === b.summary && a.matched_name === b.matched_name;
