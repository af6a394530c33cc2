// What we remember per source across restarts: politeness and caching (last success, validators,
// max-age, 403/429 backoff) and the records of its last good fetch, so a source inside its
// politeness window still contributes what we hold.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { writeFileAtomic } from '../store/atomic-file.js';
import { JsonStore } from '../store/json-store.js';
import { jsonArray } from '../util/json-bytes.js';
import { ommRecord } from './omm.js';
import type { OmmElements } from './types.js';

const ms = v.nullable(v.number());
export const SourceStateSchema = v.object({
  last_success_ms: ms,
  last_attempt_ms: ms,
  etag: v.nullable(v.string()),
  last_modified: v.nullable(v.string()),
  /** Cache-Control max-age from the last answer: no fetch before this. */
  fresh_until_ms: ms,
  /** 403/429 (Retry-After or exponential): no fetch before this. */
  backoff_until_ms: ms,
  failures: v.number(),
  last_error: v.nullable(v.string()),
  /** Objects in the last good fetch: a sudden large drop marks a broken source. */
  last_count: v.number(),
});
export type SourceState = v.InferOutput<typeof SourceStateSchema>;
const StateFileSchema = v.record(v.string(), SourceStateSchema);

export const emptySourceState = (): SourceState => ({
  last_success_ms: null,
  last_attempt_ms: null,
  etag: null,
  last_modified: null,
  fresh_until_ms: null,
  backoff_until_ms: null,
  failures: 0,
  last_error: null,
  last_count: 0,
});

/** File (under DATA_DIR/catalog/sources) holding a source's last good records. */
export const heldFileName = (source: string) => createHash('sha1').update(source).digest('hex').slice(0, 16) + '.json';

export class SourceStateStore {
  private store: JsonStore<typeof StateFileSchema>;

  constructor(private readonly dir: string, now: () => number) {
    this.store = new JsonStore({ dir, name: 'sources-state', schema: StateFileSchema, defaults: () => ({}), now });
  }

  get(source: string): SourceState {
    return this.store.get()[source] ?? emptySourceState();
  }

  async set(source: string, state: SourceState): Promise<void> {
    await this.store.set({ ...this.store.get(), [source]: state });
  }

  private heldPath(source: string): string {
    return join(this.dir, 'sources', heldFileName(source));
  }

  /** Records of the last good fetch (validated again: the file may be damaged). */
  held(source: string): OmmElements[] | null {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(this.heldPath(source), 'utf8'));
    } catch {
      return null;
    }
    if (!Array.isArray(raw)) return null;
    const out: OmmElements[] = [];
    for (const r of raw) {
      const el = ommRecord(r);
      if (!('reason' in el)) out.push(el);
    }
    return out.length ? out : null;
  }

  async hold(source: string, records: readonly OmmElements[]): Promise<void> {
    await writeFileAtomic(this.heldPath(source), jsonArray(records));
  }

  flush(): Promise<void> {
    return this.store.flush();
  }
}
