import type { PassEvent } from '../orbit/types.js';
import { flat } from '../util/flat-string.js';
import { passItemAos, passItemKey } from './pass-items-file.js';

// Serialised /passes items, kept so a repeated query writes stored bytes instead of running the
// frequency guidance and JSON.stringify for every pass again (at a tenth of a core, 1000 passes
// were ~400 ms of guidance, stringify and garbage collection per request).
//
// Why the bytes can be kept: an item is a function of its pass event, the catalog (guidance
// profiles, orbits for the phase range rates) and the pass phase at `now`. Before AOS the phase is
// always the same (`aos`, "AOS cue"), so the bytes of a pass still to come never change while the
// catalog stays; a pass already under way (include_ongoing) moves through its phases and is built
// every time. Pass events are the pass table's own objects, made once per table entry: a new table
// (new catalog version, location or time window) has new objects, so nothing is ever looked up
// across tables. A whole answer's item bytes are reused only for exactly the same events in the same
// order, which is how a pass filter or min elevation change, a pass starting or a pass entering the
// window shows up: no timers, no invalidation hooks to forget. A new catalog or guidance profile
// set is a new basis (GuidanceService.basis), which drops everything kept.

/** Answers (item arrays) kept: one per client kind (kiosk default, /radio's 48 h) without churn. */
const ANSWERS_MAX = 2;
/**
 * Yields: after every item built (guidance and JSON, ~0.2 ms here), after every 16 kept ones taken
 * (a key, a lookup and a move each). The slicer reads its clock every 8 yields (runSliced), so a
 * slice holds at most 8 built items: at 16 built a yield, one slice of the warm-up was 128 items,
 * 160–250 ms at a tenth of a core.
 */
const REUSED_PER_STEP = 16;

interface Answer {
  events: readonly PassEvent[];
  /** `[item,item,...]` as UTF-8. */
  bytes: Buffer;
}

export class PassBytesCache {
  /** Per pass still to come: its item's JSON text (least recently used first). */
  private readonly items = new Map<PassEvent, string>();
  private readonly answers = new Map<string, Answer>();
  /** What everything here was built against (the guidance's basis: catalog and profiles); a new one drops it all. */
  private basis: unknown = null;
  /** Items of the last run read back for this basis (pass-items-file.ts): taken over on first use. */
  private stored: Map<string, string> | null = null;
  /** Items serialised, read back and whole answers reused, since start (tests and the bench read these). */
  readonly stats = { itemsBuilt: 0, itemsRead: 0, answersReused: 0 };

  /** What the kept items were built against (a caller writing them names it). */
  get currentBasis(): unknown {
    return this.basis;
  }

  /** @param itemMax items kept: at least two of the largest answers, so two clients do not evict each other. */
  constructor(private readonly itemMax: number) {}

  /**
   * The stored `[...]` bytes for exactly these events, or null. Only answers without a pass under
   * way are stored, so a hit is valid at any `now` before the first AOS, which it checks.
   */
  answer(key: string, basis: unknown, events: readonly PassEvent[], now_ms: number): Buffer | null {
    this.sync(basis);
    const a = this.answers.get(key);
    if (!a || a.events.length !== events.length) return null;
    if (events.length && now_ms >= events[0].aos_ms) return null;
    for (let i = 0; i < events.length; i++) if (a.events[i] !== events[i]) return null;
    this.stats.answersReused++;
    return a.bytes;
  }

  /**
   * Builds the `[...]` bytes for `events`, serialising only the items not kept (`item` gives one
   * item's JSON value), yielding after each item built and every REUSED_PER_STEP kept ones taken,
   * so a cold answer does not hold the loop; stores the answer when no pass in it is under way.
   */
  *build(key: string, basis: unknown, events: readonly PassEvent[], now_ms: number, item: (p: PassEvent) => object): Generator<void, Buffer, undefined> {
    this.sync(basis);
    const texts: string[] = new Array(events.length);
    let reused = 0;
    let ongoing = false;
    for (let i = 0; i < events.length; i++) {
      const p = events[i];
      const future = now_ms < p.aos_ms;
      let text = future ? this.kept(p) : undefined;
      if (text === undefined) {
        text = JSON.stringify(item(p));
        this.stats.itemsBuilt++;
        if (future) this.keepItem(p, text);
        else ongoing = true;
        yield;
      } else {
        // Recently used goes last, so a large answer never evicts its own items (Map keeps insertion order).
        this.items.delete(p);
        this.items.set(p, text);
        // 1000 kept items read back after boot were one block of 120–150 ms at a tenth of a core.
        if (++reused % REUSED_PER_STEP === 0) yield;
      }
      texts[i] = text;
    }
    const bytes = Buffer.from(`[${texts.join(',')}]`, 'utf8');
    if (!ongoing) {
      this.answers.delete(key);
      if (this.answers.size >= ANSWERS_MAX) this.answers.delete(this.answers.keys().next().value!);
      this.answers.set(key, { events: events.slice(), bytes });
    }
    return bytes;
  }

  /**
   * Serialises, in groups between yields, the items of passes still to come that are not kept yet,
   * storing no answer: the warm-up after the pass table loads, so the first /passes after boot is a
   * concatenation of stored items instead of guidance and JSON for every pass. Returns how many it built.
   */
  *warm(basis: unknown, events: readonly PassEvent[], now_ms: number, item: (p: PassEvent) => object): Generator<void, number, undefined> {
    this.sync(basis);
    let built = 0;
    for (const p of events) {
      if (this.basis !== basis) return built; // a new catalog arrived meanwhile: these items are stale
      if (now_ms >= p.aos_ms || this.kept(p) !== undefined) continue;
      this.keepItem(p, JSON.stringify(item(p)));
      this.stats.itemsBuilt++;
      built++;
      yield;
    }
    return built;
  }

  /**
   * Items read back from the last run for `basis` (the basis the file was checked against): each
   * is used in place of a build when its pass is asked for.
   */
  adopt(basis: unknown, stored: Map<string, string>): void {
    this.sync(basis);
    this.stored = stored;
  }

  /** Every item kept for a pass starting after `now_ms`, by pass key: what the next start reads back. */
  *keptItems(now_ms: number): Generator<readonly [string, string]> {
    for (const [p, text] of this.items) if (p.aos_ms > now_ms) yield [passItemKey(p), text];
    if (this.stored) for (const e of this.stored) if (passItemAos(e[0]) > now_ms) yield e;
  }

  /** The kept text of a pass: built here, or read back (then kept as built). */
  private kept(p: PassEvent): string | undefined {
    const text = this.items.get(p);
    if (text !== undefined || !this.stored?.size) return text;
    const key = passItemKey(p);
    const read = this.stored.get(key);
    if (read === undefined) return undefined;
    this.stored.delete(key);
    this.keepItem(p, read);
    this.stats.itemsRead++;
    return read;
  }

  private keepItem(p: PassEvent, text: string): void {
    if (this.items.size >= this.itemMax) this.items.delete(this.items.keys().next().value!);
    this.items.set(p, flat(text)); // JSON.stringify's answer is a tree of parts until flattened
  }

  private sync(basis: unknown): void {
    if (basis === this.basis) return;
    this.items.clear();
    this.answers.clear();
    this.stored = null;
    this.basis = basis;
  }
}
