import { join } from 'node:path';
import * as v from 'valibot';
import { Listeners } from '../util/listeners.js';
import { drainSliced } from '../util/loop-slices.js';
import { logger } from '../util/logger.js';
import { prettyJsonSteps, safeParseSteps } from './json-steps.js';
import { moveAside, readTextCapped, removeStaleTemps, storageError, writeFileAtomic, writeFileAtomicSync } from './atomic-file.js';

const log = logger('store');

type AnySchema = v.GenericSchema<unknown, any>;

export interface JsonStoreOptions<S extends AnySchema> {
  dir: string;
  /** File stem: `settings` → `<dir>/settings.json`. */
  name: string;
  schema: S;
  defaults: () => v.InferOutput<S>;
  /** Injected for tests: the timestamp used in `NAME.corrupt-<ts>`. */
  now?: () => number;
  /** Largest file loaded (default 256 KiB); a bigger one is moved aside unread. */
  maxBytes?: number;
  /** File mode of every write (default 0o644); 0o600 for a file that holds a secret's hash. */
  mode?: number;
  /** Fields that are write-only ("a" top-level, "a.b" inside an object): publicView() shows SECRET_MASK for a set one. */
  secrets?: readonly string[];
  /**
   * A large file (thousands of entries): writes validate and serialise it in slices of the event
   * loop (the same checks, the same bytes), so a write never blocks HTTP or the radio drivers.
   */
  sliced?: boolean;
  /**
   * The directory's owner removed every stale temp file before opening its stores (createStores
   * does for DATA_DIR): the load skips its own look, one directory listing per store at boot.
   */
  tempsSwept?: boolean;
}

/** What a set secret reads back as; a POST carrying it exactly keeps the stored value. */
export const SECRET_MASK = '********';

/** Settings files are a few KiB; even 256 KiB of the most hostile JSON parses in a few MiB of heap. */
export const STATE_FILE_MAX_BYTES = 256 * 1024;

function isPlainObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Each secret's holder and key: "wifi_password" is a top-level field, "uplink_rig.wifi_password" one inside an object. */
function secretSlots(secrets: readonly string[]): Array<{ path: string[]; key: string }> {
  return secrets.map((k) => {
    const parts = k.split('.');
    return { path: parts.slice(0, -1), key: parts[parts.length - 1] };
  });
}

/** A copy of value with fn applied to each secret's holder (copied on the way down); untouched where the path is absent. */
function editSecrets<T>(value: T, secrets: readonly string[] | undefined, fn: (holder: Record<string, unknown>, key: string) => void): T {
  if (!secrets?.length || !isPlainObject(value)) return value;
  const out: Record<string, unknown> = { ...value };
  for (const { path, key } of secretSlots(secrets)) {
    let holder: Record<string, unknown> = out;
    let ok = true;
    for (const p of path) {
      const next = holder[p];
      if (!isPlainObject(next)) {
        ok = false;
        break;
      }
      holder = holder[p] = { ...next };
    }
    if (ok) fn(holder, key);
  }
  return out as T;
}

function maskSecrets<T>(value: T, secrets: readonly string[] | undefined): T {
  return editSecrets(value, secrets, (h, k) => {
    if (typeof h[k] === 'string' && h[k] !== '') h[k] = SECRET_MASK;
  });
}

/** Merge a validated partial into a state: nested plain objects merge, arrays and scalars replace. */
export function mergeDeep<T>(base: T, patch: unknown): T {
  if (!isPlainObject(base) || !isPlainObject(patch)) return (patch === undefined ? base : patch) as T;
  const out: Record<string, unknown> = { ...base };
  for (const [k, val] of Object.entries(patch)) {
    if (val === undefined) continue;
    out[k] = isPlainObject(out[k]) && isPlainObject(val) ? mergeDeep(out[k], val) : val;
  }
  return out as T;
}

/**
 * One resource, one flat JSON file. Missing file → defaults; corrupt or oversized file → moved
 * aside as `NAME.corrupt-<ts>` and defaults used (boot never fails on bad state). Writes are
 * atomic, serialized per file and skipped when the bytes would not change (SD-card wear). The
 * value in memory changes only once it is on disk: a failed write leaves it as it was.
 */
export class JsonStore<S extends AnySchema> {
  readonly path: string;
  private value: v.InferOutput<S>;
  private lastWritten: string | null = null;
  private queue: Promise<void> = Promise.resolve();
  private readonly listeners: Listeners<v.InferOutput<S>>;
  private masked: { of: v.InferOutput<S>; view: v.InferOutput<S> } | null = null;

  constructor(private readonly opts: JsonStoreOptions<S>) {
    this.path = join(opts.dir, `${opts.name}.json`);
    this.listeners = new Listeners(log, opts.name);
    this.value = this.load();
  }

  get name(): string {
    return this.opts.name;
  }

  get schema(): S {
    return this.opts.schema;
  }

  /** The validated result of merging a patch, without persisting it (throws on invalid). */
  preview(patch: unknown): v.InferOutput<S> {
    const res = v.safeParse(this.opts.schema, mergeDeep(this.value, patch));
    if (!res.success) throw new StoreValidationError(this.opts.name, res.issues);
    return res.output;
  }

  get(): v.InferOutput<S> {
    return this.value;
  }

  /**
   * The value as the API shows it: secrets (a radio's LAN password can key its transmitter)
   * masked. Computed once per change, so the lite snapshot and state routes pay nothing.
   */
  publicView(): v.InferOutput<S> {
    if (this.masked?.of !== this.value) this.masked = { of: this.value, view: maskSecrets(this.value, this.opts.secrets) };
    return this.masked.view;
  }

  /** A patch with masked secrets dropped (the client sent back what it was shown). */
  unmaskPatch(patch: unknown): unknown {
    return editSecrets(patch, this.opts.secrets, (h, k) => {
      if (h[k] === SECRET_MASK) delete h[k];
    });
  }

  /** Re-read the file (for state another process writes, such as the GPS fix). */
  reload(): v.InferOutput<S> {
    const next = this.load();
    const changed = JSON.stringify(next) !== JSON.stringify(this.value);
    this.value = next;
    if (changed) this.emit();
    return next;
  }

  onChange(fn: (value: v.InferOutput<S>) => void): () => void {
    return this.listeners.add(fn);
  }

  /**
   * Merge a patch, validate, persist, then take it. The merge happens when the write's turn comes,
   * on the value then on disk, so queued updates never build on one that failed.
   */
  update(patch: unknown): Promise<v.InferOutput<S>> {
    return this.enqueue(() => mergeDeep(this.value, patch));
  }

  set(next: unknown): Promise<v.InferOutput<S>> {
    return this.enqueue(() => next);
  }

  /** Wait for queued writes. */
  flush(): Promise<void> {
    return this.queue;
  }

  /** Synchronous final write on shutdown if the value in memory is not the file's. */
  flushSync(): void {
    const text = this.serialize(this.value);
    if (text !== this.lastWritten) {
      writeFileAtomicSync(this.path, text, this.opts.mode);
      this.lastWritten = text;
    }
  }

  private serialize(value: v.InferOutput<S>): string {
    return JSON.stringify(value, null, 2) + '\n';
  }

  private validate(value: unknown): v.SafeParseResult<S> | Promise<v.SafeParseResult<S>> {
    return this.opts.sliced ? drainSliced(safeParseSteps(this.opts.schema, value)) : v.safeParse(this.opts.schema, value);
  }

  private async serializeSliced(value: v.InferOutput<S>): Promise<string> {
    return this.opts.sliced ? (await drainSliced(prettyJsonSteps(value))) + '\n' : this.serialize(value);
  }

  private enqueue(make: () => unknown): Promise<v.InferOutput<S>> {
    const run = async () => {
      const res = await this.validate(make());
      if (!res.success) throw new StoreValidationError(this.opts.name, res.issues);
      const text = await this.serializeSliced(res.output);
      const changed = text !== (this.lastWritten ?? (await this.serializeSliced(this.value)));
      if (text !== this.lastWritten) {
        try {
          await writeFileAtomic(this.path, text, this.opts.mode);
        } catch (err) {
          log.error(`write ${this.path} failed; ${this.opts.name} unchanged`, err);
          throw err; // a full or failing disk is already a StorageError (507)
        }
        this.lastWritten = text;
      }
      this.value = res.output;
      if (changed) this.emit();
      return this.value;
    };
    const p = this.queue.then(run, run);
    this.queue = p.then(
      () => {},
      () => {},
    );
    return p;
  }

  private emit(): void {
    this.listeners.emit(this.value);
  }

  private load(): v.InferOutput<S> {
    if (!this.opts.tempsSwept) removeStaleTemps(this.path);
    const read = readTextCapped(this.path, this.opts.maxBytes ?? STATE_FILE_MAX_BYTES);
    if (read.kind === 'too-large') return this.quarantine(`is ${read.bytes} bytes, over its ${this.opts.maxBytes ?? STATE_FILE_MAX_BYTES}-byte limit`);
    if (read.kind === 'not-a-file') return this.quarantine('is not a regular file');
    if (read.kind !== 'text') {
      if (read.kind === 'error') log.warn(`cannot read ${this.path} (${read.code}), using defaults`);
      this.lastWritten = null;
      return this.opts.defaults();
    }
    const text = read.text;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      return this.quarantine(`not valid JSON (${(err as Error).message})`);
    }
    // Fields added in later versions get their defaults; stored values win.
    const res = v.safeParse(this.opts.schema, mergeDeep(this.opts.defaults(), parsed));
    if (!res.success) {
      return this.quarantine(`fails its schema: ${describeIssues(res.issues)}`);
    }
    this.lastWritten = text;
    return res.output;
  }

  private quarantine(reason: string): v.InferOutput<S> {
    const aside = moveAside(this.path, (this.opts.now ?? Date.now)());
    if (aside) log.warn(`${this.path} ${reason}; moved aside to ${aside}, using defaults`);
    else log.warn(`${this.path} ${reason}; could not move it aside, using defaults`);
    this.lastWritten = null;
    return this.opts.defaults();
  }
}

export function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues
    .slice(0, 5)
    .map((i) => `${issuePath(i) || '(root)'}: ${i.message}`)
    .join('; ');
}

export function issuePath(issue: v.BaseIssue<unknown>): string {
  return (issue.path ?? []).map((p) => String((p as { key: unknown }).key)).join('.');
}

export class StoreValidationError extends Error {
  constructor(
    readonly store: string,
    readonly issues: readonly v.BaseIssue<unknown>[],
  ) {
    super(`${store}: ${describeIssues(issues)}`);
    this.name = 'StoreValidationError';
  }
}
