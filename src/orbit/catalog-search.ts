import { ObserverFrame } from './frames.js';
import { PassFinder } from './pass-finder.js';
import { PassCollector } from './pass-table.js';
import type { Propagator } from './propagator.js';
import type { Observer } from './types.js';

// The pass search over a whole catalogue as small units of work: one satellite over one CHUNK_MS
// stretch, so even cold (unoptimised) code on a slow CPU ends a unit within a few ms. The table
// service runs the units in time slices on the event loop (small catalogues) or all at once on a
// worker thread (the 16k catalogue, pass-search-worker.ts); both get the same passes.

/** One unit of work: one satellite over this much time. */
export const CHUNK_MS = 6 * 3600_000;

export class CatalogSearch {
  readonly col = new PassCollector();
  /** Satellites whose propagation failed (not searched further). */
  readonly failed = new Set<number>();
  readonly units: number;
  private readonly finder: PassFinder;
  private readonly chunks: number;

  constructor(
    private readonly prop: Propagator,
    obs: Observer,
    private readonly from: number,
    private readonly to: number,
    /** Passes starting before this are already known (the table being extended). */
    private readonly minAos: number,
  ) {
    this.finder = new PassFinder(prop, new ObserverFrame(obs));
    this.chunks = Math.max(1, Math.ceil((to - from) / CHUNK_MS));
    this.units = prop.size * this.chunks;
  }

  /**
   * Unit u (satellite ⌊u / chunks⌋, chunk u mod chunks). A pass crossing a chunk edge is reported
   * by the chunk holding its AOS (the search follows it to the true LOS); later chunks drop it
   * through minAos.
   */
  run(u: number): void {
    const i = Math.floor(u / this.chunks);
    const c = u - i * this.chunks;
    const a = this.from + c * CHUNK_MS;
    this.col.minAos = c === 0 ? this.minAos : a;
    if (!this.failed.has(i) && this.finder.search(i, a, Math.min(this.to, a + CHUNK_MS), this.col) !== 'ok') this.failed.add(i);
  }
}
