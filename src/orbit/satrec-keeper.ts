import { logger } from '../util/logger.js';
import { backgroundSlicer, runSliced } from '../util/loop-slices.js';
import { errorMessage } from '../util/errors.js';
import type { OrbitSet } from './pass-table-service.js';
import { MAX_SATRECS, type PackedRecords, type Propagator } from './propagator.js';
import { loadSatrecs, saveSatrecs } from './satrec-file.js';

// Keeps the catalogue's SGP4 records between runs (satrec-file.ts): a new propagator takes the
// kept ones when they are its catalogue's; otherwise, once the boot's requests are served, the
// records not built yet are built in the background's quiet slices and all are written, once per
// catalogue version. Only for a catalogue whose records all fit the cap: a larger one is swept on
// a worker thread, where nothing stays built between sweeps anyway.

const log = logger('orbit');

export interface SatrecKeeperOptions {
  /** DATA_DIR/satrecs.bin. */
  path: string;
  /** The current orbit set (the engine's). */
  orbits: () => OrbitSet;
}

export class SatrecKeeper {
  /** The catalogue version whose records the file holds (read or written by this run). */
  private keptVersion: string | null = null;
  private gate: Promise<unknown> = Promise.resolve();
  /** The catalogue version the last keep was for (written or not: a failed write waits for the next catalogue). */
  private triedVersion: string | null = null;
  private keeping: Promise<void> | null = null;
  private writing: Promise<boolean> | null = null;
  /** The newest propagator made (adopt()), for the write at a stop. */
  private latest: { version: string; prop: Propagator } | null = null;
  private stopped = true;

  constructor(private readonly o: SatrecKeeperOptions) {}

  /** Writing waits for `gate` (the server listening and the pass table ready: the boot's requests first). */
  keepAfter(gate: Promise<unknown>): void {
    this.gate = gate;
  }

  /** Into a propagator just made for catalogue `version`: the kept records, when they are its. */
  adopt(version: string, prop: Propagator): void {
    this.latest = { version, prop };
    // The file holds what this run read or wrote: after a catalogue change, the last one's.
    if (prop.size > MAX_SATRECS || (this.keptVersion !== null && this.keptVersion !== version)) return;
    const r = loadSatrecs(this.o.path, version, prop.size);
    if (typeof r === 'string') {
      log.debug(() => `SGP4 records not taken from ${this.o.path}: ${r}`);
      return;
    }
    if (prop.adoptRecords(r)) {
      this.keptVersion = version;
      log.debug(() => `SGP4 records of catalog ${version} taken from ${this.o.path} (${r.indexes.length})`);
    } else log.debug(() => `SGP4 records of ${this.o.path} do not fit the catalogue; built anew`);
  }

  start(): void {
    this.stopped = false;
    this.keep();
  }

  /**
   * A write under way is finished; building stops at its next slice (it may wait for a quiet spell:
   * not awaited). Records this run has all built but not written for want of a quiet spell (a pass
   * search builds every one) are written now, as the code cache's are.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.writing;
    const l = this.latest;
    if (!l || l.version === this.keptVersion || l.prop.size === 0 || l.prop.size > MAX_SATRECS) return;
    const records = l.prop.exportRecords();
    if (!records) return;
    await this.write(l.version, l.prop.size, records).catch((err) => log.warn(`SGP4 records not kept: ${errorMessage(err)}`));
  }

  private async write(version: string, satellites: number, records: PackedRecords): Promise<void> {
    this.writing = saveSatrecs(this.o.path, version, satellites, records);
    let wrote: boolean;
    try {
      wrote = await this.writing;
    } finally {
      this.writing = null;
    }
    // Not written (satellite.js's version unknown: a file could not be checked): nothing to retry.
    if (wrote) this.keptVersion = version;
    log.debug(() => `SGP4 records of catalog ${version} ${wrote ? 'kept' : 'not kept: satellite.js\'s version is unknown'} (${records.indexes.length})`);
  }

  /** When the keep under way (if any) is over (tests, diagnostics). */
  settled(): Promise<void> {
    return this.keeping ?? Promise.resolve();
  }

  /** Writes the current catalogue's records unless kept already (at start, and after each catalogue change). */
  keep(): void {
    if (this.stopped || this.keeping) return;
    this.keeping = this.gate
      .then(() => this.keepNow())
      .catch((err) => log.warn(`SGP4 records not kept: ${errorMessage(err)}`))
      .finally(() => {
        this.keeping = null;
        // A catalogue that changed while the last one was written.
        if (!this.stopped && this.o.orbits().version !== this.triedVersion) this.keep();
      });
  }

  private async keepNow(): Promise<void> {
    const { version, prop } = this.o.orbits();
    this.triedVersion = version;
    if (this.keptVersion === version || prop.size === 0 || prop.size > MAX_SATRECS) return;
    const current = () => !this.stopped && this.o.orbits().prop === prop;
    // One record per step (~0.1 ms, more as the first SGP4 code a run executes), in quiet slices;
    // a request meanwhile builds what it needs itself.
    let i = 0;
    await runSliced(() => current() && (prop.usable(i++), i < prop.size), backgroundSlicer, 1);
    // Null when superseded or stopped (a new catalogue is kept by the keep() that follows).
    const records = current() ? prop.exportRecords() : null;
    if (!records) return;
    await this.write(version, prop.size, records);
  }
}
