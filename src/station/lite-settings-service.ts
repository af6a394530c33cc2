import { compareText } from '../util/compare.js';
import { ISS_SAT_ID, type Catalog, type CatalogProvider } from '../catalog/types.js';
import type { JsonStore } from '../store/json-store.js';
import { fieldError } from './field-error.js';
import { normalizeTracked, type LiteSettings, type LiteSettingsSchema, type TrackedSet } from './lite-settings.js';

export interface AvailableSatellite {
  sat_id: string;
  name: string;
}

export interface Tracked extends TrackedSet {
  /** Sorted ids joined, for the lite cache key. */
  key: string;
}

/** Lite settings and the tracked set rule, re-derived only when the settings or the catalog change. */
export class LiteSettingsService {
  private trackedFor: { lite: LiteSettings; catalog: Catalog; value: Tracked } | null = null;
  private available: { catalog: Catalog; list: AvailableSatellite[] } | null = null;

  constructor(
    private readonly store: JsonStore<typeof LiteSettingsSchema>,
    private readonly catalog: CatalogProvider,
  ) {}

  /** The saved list under the spec's rule (the snapshot reuses what POST enforces). */
  tracked(): Tracked {
    const lite = this.store.get();
    const catalog = this.catalog.current();
    const c = this.trackedFor;
    if (c && c.lite === lite && c.catalog === catalog) return c.value;
    const set = normalizeTracked(lite.tracked_sat_ids, (id) => catalog.byId.has(id));
    const value = { ...set, key: [...set.ids].sort().join(',') };
    this.trackedFor = { lite, catalog, value };
    return value;
  }

  /** Every catalog satellite a client may track: the ISS first, then by name. */
  availableSatellites(): AvailableSatellite[] {
    const catalog = this.catalog.current();
    if (this.available?.catalog === catalog) return this.available.list;
    const list = catalog.satellites
      .map((s) => ({ sat_id: s.sat_id, name: s.name }))
      .sort((a, b) => (a.sat_id === ISS_SAT_ID ? -1 : b.sat_id === ISS_SAT_ID ? 1 : compareText(a.name, b.name)));
    this.available = { catalog, list };
    return list;
  }

  view() {
    return { state: this.store.get(), availableSatellites: this.availableSatellites() };
  }

  /**
   * POST /api/v1/settings/lite: the schema already refused more than 8 ids. Unknown ids and
   * repeats are dropped; nothing valid left → the ISS; no ISS in the catalog either → 400.
   */
  async update(patch: Partial<LiteSettings>) {
    const merged = this.store.preview(patch);
    const catalog = this.catalog.current();
    const set = normalizeTracked(merged.tracked_sat_ids, (id) => catalog.byId.has(id));
    if (set.ids.length === 0) throw fieldError('tracked_sat_ids', 'at least one valid catalog sat_id is required');
    const state = await this.store.set({ ...merged, tracked_sat_ids: set.ids });
    return { state, dropped: set.dropped, fell_back_to_iss: set.fell_back };
  }
}
