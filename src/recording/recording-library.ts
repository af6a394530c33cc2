import { readdir, readFile, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import * as v from 'valibot';
import { removeStaleTempsIn, writeFileAtomic } from '../store/atomic-file.js';
import { describeIoError } from '../store/io-error.js';
import type { Logger } from '../util/logger.js';
import { OneAtATime } from '../util/queue.js';
import { maxElevation, readJournalLines, type JournalContent } from './journal-lines.js';
import { RecordingDetailSchema, RecordingItemSchema, type RecordingDetail, type RecordingFormat, type RecordingItem } from './schemas.js';

// The recordings on disk, one folder under DATA_DIR:
//   index.json      the list (written whole, atomically, at each start, end and delete)
//   <id>.ogg|.wav   the audio
//   <id>.jsonl      the journal while the recording runs (journal-lines.ts)
//   <id>.json       the journal once it ended: the item, elements, location, pass, timeline, events
// The list never reads a journal, so a card full of recordings lists in one small read. A
// recording the index still calls "recording" at load was cut by a kill -9 or a power loss: its
// audio is repaired (WAV sizes patched; an Ogg plays up to its last page) and its journal made
// from the lines that reached the disk, so it is listed and playable like any other.

/** More recordings than this are not kept whatever keep_mb says (the index stays small). */
export const MAX_RECORDINGS = 2000;

const IndexSchema = v.object({ items: v.array(RecordingItemSchema) });

export type RepairAudio = (path: string, format: RecordingFormat, sampleRate: number) => Promise<{ bytes: number; duration_s: number }>;

export interface LibraryOptions {
  dir: string;
  log: Logger;
  /** Repairs an audio file a kill left behind and says what it holds (audio-sink.ts). */
  repair: RepairAudio;
}

export class RecordingLibrary {
  /** Newest first. */
  private list: RecordingItem[] = [];
  private readonly writes = new OneAtATime(64);

  private constructor(private readonly o: LibraryOptions) {}

  static async open(o: LibraryOptions): Promise<RecordingLibrary> {
    const lib = new RecordingLibrary(o);
    await lib.load();
    return lib;
  }

  items(): readonly RecordingItem[] {
    return this.list;
  }
  item(id: string): RecordingItem | undefined {
    return this.list.find((i) => i.id === id);
  }
  totalBytes(): number {
    let n = 0;
    for (const i of this.list) n += i.bytes;
    return n;
  }

  audioPath(i: Pick<RecordingItem, 'id' | 'format'>): string {
    return join(this.o.dir, `${i.id}.${i.format}`);
  }
  journalLinesPath(id: string): string {
    return join(this.o.dir, `${id}.jsonl`);
  }
  private journalPath(id: string): string {
    return join(this.o.dir, `${id}.json`);
  }

  /** Adds (newest first) or replaces an item, and writes the index. */
  async put(item: RecordingItem): Promise<void> {
    const at = this.list.findIndex((i) => i.id === item.id);
    if (at >= 0) this.list[at] = item;
    else {
      this.list.unshift(item);
      this.list.sort((a, b) => (a.started_at < b.started_at ? 1 : a.started_at > b.started_at ? -1 : 0));
    }
    await this.saveIndex();
  }

  /** An ended recording: its journal's JSON file from the lines, the index entry, the lines removed. */
  async finish(item: RecordingItem, content: JournalContent | null): Promise<RecordingItem> {
    const c = content ?? (await this.readLines(item.id));
    const done: RecordingItem = { ...item, max_el_deg: maxElevation(c.timeline) ?? item.max_el_deg };
    const detail = detailOf(done, c);
    try {
      await writeFileAtomic(this.journalPath(item.id), JSON.stringify(detail));
      await unlink(this.journalLinesPath(item.id)).catch(() => {});
    } catch (err) {
      // The lines stay: the journal is made from them at the next start.
      this.o.log.warn(`recording ${item.id}: the journal could not be written (${describeIoError(err)}); its lines are kept`);
    }
    await this.put(done);
    return done;
  }

  /** One recording's journal; a live one's from the lines written so far. null: no such recording. */
  async detail(id: string): Promise<RecordingDetail | null> {
    const item = this.item(id);
    if (!item) return null;
    if (item.status !== 'recording') {
      try {
        const r = v.safeParse(RecordingDetailSchema, JSON.parse(await readFile(this.journalPath(id), 'utf8')));
        if (r.success) return { ...r.output, ...item };
      } catch {
        // No JSON (its write failed at the end): the lines below, or an empty journal.
      }
    }
    return detailOf(item, await this.readLines(id));
  }

  /** Deletes a recording's files and its entry; false when there is none. */
  async remove(id: string): Promise<boolean> {
    return (await this.removeAll([id])) > 0;
  }

  /** Deletes the recordings' files and entries, then writes the index once; how many there were. */
  private async removeAll(ids: readonly string[]): Promise<number> {
    const gone = new Set<string>();
    for (const id of ids) {
      const item = this.item(id);
      if (!item) continue;
      for (const p of [this.audioPath(item), this.journalPath(id), this.journalLinesPath(id)]) await unlink(p).catch(() => {});
      gone.add(id);
    }
    if (gone.size === 0) return 0;
    this.list = this.list.filter((i) => !gone.has(i.id));
    await this.saveIndex();
    return gone.size;
  }

  /** The oldest recordings go until the rest fit in keepBytes (and MAX_RECORDINGS); never the one under way. Returns the ids removed. */
  async enforce(keepBytes: number, liveId: string | null): Promise<string[]> {
    const removed: string[] = [];
    let total = this.totalBytes();
    for (let i = this.list.length - 1; i >= 0 && (total > keepBytes || this.list.length - removed.length > MAX_RECORDINGS); i--) {
      const it = this.list[i];
      if (it.id === liveId) continue;
      total -= it.bytes;
      removed.push(it.id);
    }
    await this.removeAll(removed);
    if (removed.length > 0) this.o.log.info(`recordings: ${removed.length} removed to keep within the space allowed (${removed.join(', ')})`);
    return removed;
  }

  private saveIndex(): Promise<void> {
    // Each write takes the list as it is when it runs: a burst of changes ends with the last state.
    return this.writes.run(() => writeFileAtomic(join(this.o.dir, 'index.json'), JSON.stringify({ items: this.list })));
  }

  private async readLines(id: string): Promise<JournalContent> {
    try {
      return readJournalLines(await readFile(this.journalLinesPath(id), 'utf8'));
    } catch {
      return { head: null, timeline: [], events: [], skipped: 0 };
    }
  }

  private async load(): Promise<void> {
    const { dir, log } = this.o;
    removeStaleTempsIn(dir);
    let raw: unknown = null;
    try {
      raw = JSON.parse(await readFile(join(dir, 'index.json'), 'utf8'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') log.warn(`recordings: index.json unreadable (${describeIoError(err)}); listing from the journals`);
    }
    const r = v.safeParse(IndexSchema, raw);
    this.list = r.success ? r.output.items : await this.rebuild();
    this.list.sort((a, b) => (a.started_at < b.started_at ? 1 : a.started_at > b.started_at ? -1 : 0));
    const cut = this.list.filter((i) => i.status === 'recording');
    for (const item of cut) await this.recover(item);
    // Audio whose files are gone (removed by hand) leaves the list.
    const present = new Set(await readdir(dir).catch(() => [] as string[]));
    const before = this.list.length;
    this.list = this.list.filter((i) => present.has(`${i.id}.${i.format}`));
    if (cut.length > 0 || this.list.length !== before || !r.success) await this.saveIndex().catch((err) => log.warn(`recordings: index.json not written (${describeIoError(err)})`));
  }

  /** A recording cut by a kill: playable audio, a journal from its lines, listed as done ("interrupted"). */
  private async recover(item: RecordingItem): Promise<void> {
    const path = this.audioPath(item);
    const c = await this.readLines(item.id);
    let bytes = item.bytes;
    let duration_s = item.duration_s;
    try {
      ({ bytes, duration_s } = await this.o.repair(path, item.format, item.sample_rate));
    } catch (err) {
      this.o.log.warn(`recording ${item.id}: its audio could not be repaired (${describeIoError(err)})`);
    }
    const last = c.timeline.at(-1)?.t;
    const ended_at = last ?? new Date(Date.parse(item.started_at) + duration_s * 1000).toISOString();
    this.o.log.warn(`recording ${item.id} was cut (the station stopped without closing it): ${duration_s.toFixed(1)} s kept`);
    await this.finish({ ...item, status: 'done', ended_reason: 'interrupted', ended_at, bytes, duration_s: Math.round(duration_s * 10) / 10 }, c);
  }

  /** No index (first start, or it was lost): the list from the ended journals' JSON files. */
  private async rebuild(): Promise<RecordingItem[]> {
    const names = await readdir(this.o.dir).catch(() => [] as string[]);
    const out: RecordingItem[] = [];
    for (const n of names) {
      if (!n.endsWith('.json') || n === 'index.json') continue;
      try {
        const d = v.safeParse(RecordingDetailSchema, JSON.parse(await readFile(join(this.o.dir, n), 'utf8')));
        if (d.success) out.push(v.parse(RecordingItemSchema, d.output));
      } catch {
        // not a journal of ours
      }
    }
    return out;
  }
}

/** A recording's journal from its item and its lines (a journal without a head line: where the station is unknown). */
function detailOf(item: RecordingItem, c: JournalContent): RecordingDetail {
  return {
    ...item,
    elements: c.head?.elements ?? null,
    location: c.head?.location ?? { lat_deg: 0, lon_deg: 0, alt_m: 0, grid: '' },
    pass: c.head?.pass ?? null,
    timeline: c.timeline,
    events: c.events,
  };
}

/** The size of a file, 0 when it is not there. */
export async function fileBytes(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
}
