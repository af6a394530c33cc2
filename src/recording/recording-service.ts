import { unlink, type FileHandle } from 'node:fs/promises';
import { LineAppender } from '../store/line-appender.js';
import type { Clock, Timer } from '../util/clock.js';
import { iso } from '../util/clock.js';
import { AppError, errorMessage } from '../util/errors.js';
import { logger } from '../util/logger.js';
import { OneAtATime } from '../util/queue.js';
import { audioDurationS, openAudioSink, opusencAvailable, repairAudioFile, type RecordingAudioSink as AudioSink } from './audio-sink.js';
import { openCapture, type CaptureNeeds, type OpenCapture } from './capture-source.js';
import { eventLine, headLine, pointLine, type JournalHead } from './journal-lines.js';
import { rmsDbfs } from './pcm-level.js';
import { fileBytes, RecordingLibrary } from './recording-library.js';
import { Resampler } from './resample.js';
import { restingRecordingRuntime, type RecordingDetail, type RecordingEvent, type RecordingItem, type RecordingLocation, type RecordingRuntime } from './schemas.js';
import type { RecordingSettings } from './settings.js';

// The recorder (issue 37): follows the satellite the radio session or auto-track follows and
// records its pass (pre_roll_s before it rises above min_elevation_deg until pre_roll_s after it
// sets below it), or records by hand; writes the audio (Ogg Opus through opusenc, else WAV) and
// the journal (a timeline point a second, the QSOs and APRS packets heard) beside it.
//
// Two clocks: the pass, the timeline and the journal's times run on the app's clock (a test runs
// a whole pass in a second); the audio runs in real time, as sound does, and its length is what
// the file holds.

const log = logger('recording');

/** One journal point a second; the triggers are looked at on the same tick. */
const TICK_MS = 1000;
/** A recording by hand ends here at the latest (the journal and the file stay bounded). */
const MAX_RECORDING_S = 6 * 3600;
/** While recording, keep_mb is checked every this many ticks (the older recordings go as this one grows). */
const KEEP_CHECK_TICKS = 10;
/** Events a journal keeps at most (a busy APRS frequency must not grow it without end). */
const MAX_EVENTS = 5000;

/** What the recorder reads of the rest of the station; composed by the app. */
export interface RecordingStation extends CaptureNeeds {
  /**
   * The satellite the radio follows at that instant: the pass-pinned session's, within its pass
   * widened by margin_ms (the pre-roll) either side, else auto-track's; null: none.
   */
  followed(at_ms: number, margin_ms: number): string | null;
  /** Where the satellite is at that instant; null when the catalog does not know it. */
  look(sat_id: string, at_ms: number): { az_deg: number; el_deg: number; range_rate_km_s: number } | null;
  /** The pass under way or next at that instant. */
  pass(sat_id: string, at_ms: number): { aos: string; tca: string; los: string; max_el_deg: number } | null;
  satellite(sat_id: string): { name: string; elements: Record<string, unknown> } | null;
  location(): RecordingLocation;
  /** The rig's receive and transmit frequencies; null when unknown or no rig. */
  rig(): { rx_hz: number | null; tx_hz: number | null };
  rotator(): { az_deg: number | null; el_deg: number | null };
  /** Every APRS packet heard; returns the unsubscribe. */
  onAprsPacket(fn: (p: { received_at: string; source: string; destination: string; text: string }) => void): () => void;
}

export interface RecordingServiceDeps {
  clock: Clock;
  settings(): RecordingSettings;
  /** DATA_DIR/recordings */
  dir: string;
  station: RecordingStation;
  /** The runtime's state changed (recording, id, last_error): the lite line and system state follow. */
  changed(): void;
  /** Anything of the runtime changed, the level included (about once a second while recording). */
  updated(): void;
  /** Tests open /dev/full here to fill the disk for real (the WAV file, and the Ogg file's creation). */
  openFile?: (path: string) => Promise<FileHandle>;
  /** Where opusenc writes an Ogg file (tests: /dev/full); the path itself by default. */
  opusOutputPath?: (path: string) => string;
  /** opusenc's path; '' keeps to WAV (tests of the WAV path on a machine with opus-tools). */
  opusenc?: string;
}

type Trigger = 'pass' | 'manual';

interface Live {
  item: RecordingItem;
  trigger: Trigger;
  started_ms: number;
  capture: OpenCapture | null;
  sink: AudioSink;
  resampler: Resampler;
  journal: LineAppender;
  /** The loudest block's RMS level since the last tick (the meter shows the last second's loudest); null: no audio came. */
  level: number | null;
  unsubscribeAprs: () => void;
  events: number;
  /** Samples handed to the file so far (after resampling): what the file must hold. */
  samplesIn: number;
  /** Journal points so far. */
  ticks: number;
  /** Set once the recording is on its way out (stop asked, or a fault): blocks stop nothing twice. */
  ending: boolean;
}

/** What the last recording lost on its way to the file (the bench's "audio lost" line). */
export interface RecordingStats {
  id: string;
  /** Seconds of audio handed to the file, and what the file holds. */
  captured_s: number;
  saved_s: number;
  /** Audio the encoder dropped because it fell behind. */
  encoder_lost_ms: number;
}

export class RecordingService {
  private library!: RecordingLibrary;
  private live: Live | null = null;
  private runtimeNow: RecordingRuntime = restingRecordingRuntime();
  private timer: Timer | null = null;
  private readonly ops = new OneAtATime(8);
  private stopped = false;
  /** A pass whose recording ended early (by hand, a fault) is not started again until it sets. */
  private suppressed: string | null = null;
  private format: 'ogg' | 'wav' | null = null;
  private last: RecordingStats | null = null;
  /** A follow() is queued or running. */
  private following = false;
  private readonly journalWrites = new OneAtATime(4);

  private constructor(private readonly d: RecordingServiceDeps) {}

  static async open(d: RecordingServiceDeps): Promise<RecordingService> {
    const s = new RecordingService(d);
    s.library = await RecordingLibrary.open({ dir: d.dir, log, repair: repairAudioFile });
    return s;
  }

  start(): void {
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    await this.ops.run(() => this.end('shutdown', null));
  }

  // --- what the routes and the station read ----------------------------------------------------

  runtime(): RecordingRuntime {
    return this.runtimeNow;
  }
  /** The last recording's audio accounting (null before the first ends). */
  stats(): RecordingStats | null {
    return this.last;
  }
  list(): readonly RecordingItem[] {
    return this.library.items();
  }
  async detail(id: string): Promise<RecordingDetail | null> {
    return this.library.detail(id);
  }
  /** The audio file of a recording, its type and its size now (a recording under way grows); null when there is none. */
  async audio(id: string): Promise<{ path: string; contentType: string; size: number; filename: string } | null> {
    const item = this.library.item(id);
    if (!item) return null;
    const path = this.library.audioPath(item);
    return { path, contentType: item.format === 'ogg' ? 'audio/ogg' : 'audio/wav', size: await fileBytes(path), filename: `${item.id}.${item.format}` };
  }

  /** The recording under way at a QSO's time: its id and the offset into it (the logbook's fields). */
  mark(at_ms: number): { recording_id: string; recording_offset_s: number } | null {
    const l = this.live;
    // A QSO logged now for a time outside the recording (typed in afterwards) is not in its audio.
    if (!l || l.ending || at_ms < l.started_ms || at_ms > this.d.clock.now() + 60_000) return null;
    return { recording_id: l.item.id, recording_offset_s: offset(l, at_ms) };
  }

  /** A QSO was logged: the live recording's journal and list item carry it. */
  noteQso(q: { id: string; call: string; time_on: string; recording_id: string | null }): void {
    const l = this.live;
    if (!l || l.ending || q.recording_id !== l.item.id) return;
    const at = Date.parse(q.time_on);
    this.event(l, { t: q.time_on, kind: 'qso', recording_offset_s: offset(l, at), qso_id: q.id, call: q.call });
    l.item = { ...l.item, qso_ids: [...l.item.qso_ids, q.id] };
    void this.library.put(l.item).catch((err) => log.warn(`recording ${l.item.id}: index not written (${errorMessage(err)})`));
  }

  // --- what the routes ask ------------------------------------------------------------------------

  /** POST /recordings/start: by hand, for sat_id (default: the satellite followed), until stopped. */
  startByHand(sat_id: string | undefined): Promise<RecordingRuntime> {
    return this.ops.run(async () => {
      if (!this.d.settings().enabled) throw new AppError(409, 'recording_disabled', 'recording is off: turn it on in the recording settings (enabled: true)');
      if (this.live) throw new AppError(409, 'recording_in_progress', `recording ${this.live.item.id} is under way: stop it first`, { id: this.live.item.id });
      const sat = sat_id ?? this.followedAt(this.d.clock.now());
      if (sat_id !== undefined && !this.d.station.satellite(sat_id)) throw new AppError(400, 'unknown_satellite', `sat_id: unknown satellite ${sat_id}`, { field: 'sat_id' });
      const r = await this.begin(sat ?? null, 'manual');
      if (r) throw new AppError(502, 'recording_failed', r);
      return this.runtimeNow;
    });
  }

  /** POST /recordings/stop: ends the recording under way (a pass one is not started again this pass). */
  stopByHand(): Promise<RecordingRuntime> {
    return this.ops.run(async () => {
      if (this.live?.trigger === 'pass') this.suppressed = this.live.item.sat_id;
      await this.end('manual', null);
      return this.runtimeNow;
    });
  }

  async remove(id: string): Promise<boolean> {
    return this.ops.run(async () => {
      if (this.live?.item.id === id) throw new AppError(409, 'recording_in_progress', `recording ${id} is under way: stop it before deleting it`, { id });
      return this.library.remove(id);
    });
  }

  /** The area's settings changed: off ends a recording; a smaller keep_mb applies at once. */
  async settingsChanged(prev: RecordingSettings, next: RecordingSettings): Promise<void> {
    if (!next.enabled && this.live) await this.ops.run(() => this.end('disabled', null));
    if (next.keep_mb < prev.keep_mb) await this.ops.run(() => this.keepWithin());
  }

  // --- the tick -----------------------------------------------------------------------------------

  private schedule(): void {
    if (this.stopped) return;
    const now = this.d.clock.now();
    this.timer = this.d.clock.setTimeout(() => this.tick(), TICK_MS - (now % TICK_MS));
  }

  private tick(): void {
    this.schedule();
    const now = this.d.clock.now();
    const l = this.live;
    if (l && !l.ending) this.point(l, now);
    // Start and stop decisions are queued behind any route's start or stop; one at a time, so a
    // slow start (the encoder spawning on a busy Pi) is not queued again every second.
    if (this.following || !this.wantsChange(now)) return;
    this.following = true;
    void this.ops
      .run(() => this.follow())
      .catch((err) => log.warn(`recording: ${errorMessage(err)}`))
      .finally(() => (this.following = false));
  }

  /** Whether follow() has something to do now (cheap: most ticks have nothing). */
  private wantsChange(now: number): boolean {
    const s = this.d.settings();
    const l = this.live;
    if (l) return l.trigger === 'pass' ? !this.inWindow(l.item.sat_id!, now, s, true) || this.followedAt(now) !== l.item.sat_id : now - l.started_ms >= MAX_RECORDING_S * 1000;
    if (!s.enabled) return false;
    const sat = this.followedAt(now);
    if (!sat) {
      this.suppressed = null;
      return false;
    }
    const open = this.inWindow(sat, now, s, false);
    if (!open && this.suppressed === sat) this.suppressed = null;
    return open && this.suppressed !== sat;
  }

  /**
   * Whether the satellite is in its recording window: above min_elevation_deg now or pre_roll_s
   * from now (a start), or also pre_roll_s ago (still going: the tail after LOS).
   */
  private inWindow(sat: string, now: number, s: RecordingSettings, going: boolean): boolean {
    const above = (t: number) => (this.d.station.look(sat, t)?.el_deg ?? -90) >= s.min_elevation_deg;
    const pre = s.pre_roll_s * 1000;
    return above(now) || above(now + pre) || (going && above(now - pre));
  }

  private followedAt(now: number): string | null {
    return this.d.station.followed(now, this.d.settings().pre_roll_s * 1000);
  }

  private async follow(): Promise<void> {
    const now = this.d.clock.now();
    const s = this.d.settings();
    const l = this.live;
    if (l) {
      if (l.trigger === 'manual') {
        if (now - l.started_ms >= MAX_RECORDING_S * 1000) await this.end('max_length', null);
        return;
      }
      if (this.followedAt(now) !== l.item.sat_id) await this.end('tracking_ended', null);
      else if (!this.inWindow(l.item.sat_id!, now, s, true)) await this.end('los', null);
      return;
    }
    if (!s.enabled || this.stopped) return;
    const sat = this.followedAt(now);
    if (!sat || sat === this.suppressed || !this.inWindow(sat, now, s, false)) return;
    const err = await this.begin(sat, 'pass');
    // A recording that cannot start is not tried every second: once per pass, the reason kept.
    if (err) this.suppressed = sat;
  }

  // --- start and end ------------------------------------------------------------------------------

  /** Starts a recording; the error that kept it from starting, or null. */
  private async begin(sat_id: string | null, trigger: Trigger): Promise<string | null> {
    const s = this.d.settings();
    const now = this.d.clock.now();
    const format = await this.formatNow();
    const id = this.newId(now, sat_id);
    const sat = sat_id ? this.d.station.satellite(sat_id) : null;
    const pass = sat_id ? this.d.station.pass(sat_id, now) : null;
    const item: RecordingItem = {
      id,
      sat_id,
      sat_name: sat?.name ?? null,
      started_at: iso(now),
      ended_at: null,
      duration_s: 0,
      bytes: 0,
      format,
      max_el_deg: null,
      qso_ids: [],
      status: 'recording',
      error: null,
      ended_reason: null,
      trigger,
      source: 'alsa',
      sample_rate: s.sample_rate,
    };
    const path = this.library.audioPath(item);
    const opened = await openAudioSink({ format, path, sampleRate: s.sample_rate, openFile: this.d.openFile, opusOutputPath: this.d.opusOutputPath, opusencPath: this.d.opusenc || undefined });
    if (opened.kind === 'failed') return this.refused(`the audio file could not be opened: ${opened.error}`);
    const sink = opened.sink;
    const journal = new LineAppender(this.library.journalLinesPath(id));
    const head: JournalHead = { elements: sat?.elements ?? null, location: this.d.station.location(), pass: pass && { ...pass, max_el_deg: Math.round(pass.max_el_deg * 10) / 10 } };
    journal.queue(headLine(head));
    const l: Live = { item, trigger, started_ms: now, capture: null, sink, resampler: new Resampler(s.sample_rate, s.sample_rate), journal, level: null, unsubscribeAprs: () => {}, events: 0, samplesIn: 0, ticks: 0, ending: false };
    // Runs right after this start (on the same queue): a write that fails at once ends it then.
    sink.onFail((error) => this.fault(l, `the recording stopped: ${error}`));
    const cap = await openCapture(s, this.d.station, (pcm) => this.onPcm(l, pcm), (error) => this.captureEnded(l, error));
    if (cap.kind === 'failed') {
      // Not listed yet: the file the sink made goes with it.
      await sink.finish();
      await unlink(path).catch(() => {});
      return this.refused(cap.error);
    }
    l.capture = cap;
    l.resampler = new Resampler(cap.rateHz, s.sample_rate);
    l.item = { ...item, source: cap.source };
    // Listed as under way before any audio: a kill from here on leaves it listed and repaired.
    await this.library.put(l.item);
    l.unsubscribeAprs = this.d.station.onAprsPacket((p) => this.event(l, { t: p.received_at, kind: 'aprs', recording_offset_s: offset(l, Date.parse(p.received_at)), source: p.source, packet: `${p.source}>${p.destination}:${p.text}` }));
    this.live = l;
    this.event(l, { t: iso(now), kind: 'note', recording_offset_s: 0, text: `recording ${trigger === 'pass' ? 'the pass' : 'by hand'} from ${cap.what}, ${format === 'ogg' ? 'Ogg Opus' : 'WAV'} at ${s.sample_rate} Hz` });
    this.point(l, now);
    log.info(`recording ${id} started (${trigger}, ${cap.what}, ${format})`);
    this.setRuntime({ recording: true, id, sat_id, source: cap.source, level_dbfs: null, started_at: item.started_at, last_error: null });
    return null;
  }

  private refused(error: string): string {
    log.warn(`recording not started: ${error}`);
    this.setRuntime({ ...restingRecordingRuntime(error) });
    return error;
  }

  /**
   * Ends the recording under way (if `only`, only that one): capture stopped, the file closed, the
   * journal made; failed with `error` when a fault ended it. Retention runs after.
   */
  private async end(reason: string, error: string | null, only?: Live): Promise<void> {
    const l = this.live;
    if (!l || (only && only !== l) || l.ending) return;
    l.ending = true;
    l.unsubscribeAprs();
    await l.capture?.stop();
    const result = await l.sink.finish();
    const now = this.d.clock.now();
    const failed = error ?? (result.kind === 'failed' ? `the recording stopped: ${result.error}` : null);
    this.event(l, { t: iso(now), kind: 'note', recording_offset_s: offset(l, now), text: failed ?? `recording ended (${reason})` });
    await this.flushJournal(l);
    await l.journal.close();
    const path = this.library.audioPath(l.item);
    const duration_s = await audioDurationS(path, l.item.format, l.item.sample_rate).catch(() => 0);
    const item: RecordingItem = {
      ...l.item,
      status: failed ? 'failed' : 'done',
      error: failed,
      ended_reason: failed ? 'error' : reason,
      ended_at: iso(now),
      bytes: result.bytes,
      duration_s: Math.round(duration_s * 10) / 10,
    };
    this.live = null;
    this.last = { id: item.id, captured_s: l.samplesIn / l.item.sample_rate, saved_s: duration_s, encoder_lost_ms: l.sink.lostMs };
    await this.library.finish(item, null).catch((err) => log.warn(`recording ${item.id}: ${errorMessage(err)}`));
    log.info(`recording ${item.id} ${failed ? `failed: ${failed}` : `ended (${reason})`}: ${item.duration_s} s, ${item.bytes} bytes`);
    this.setRuntime({ ...restingRecordingRuntime(failed) });
    await this.keepWithin();
  }

  /** The capture ended on its own (arecord died, the LAN session dropped): the recording fails with its reason. */
  private captureEnded(l: Live, error: string | null): void {
    if (error !== null) this.fault(l, error);
  }

  /** A fault ends its recording as failed, ahead of any start or stop waiting (never refused for a full queue). */
  private fault(l: Live, error: string): void {
    if (l.ending) return;
    void this.ops.runFirst(() => this.end('error', error, l)).catch((err) => log.warn(`recording ${l.item.id}: ending it failed (${errorMessage(err)})`));
  }

  /** keep_mb: the oldest recordings go; the live one alone past it ends. */
  private async keepWithin(): Promise<void> {
    const keep = this.d.settings().keep_mb * 1024 * 1024;
    const l = this.live;
    await this.library.enforce(keep - (l ? l.sink.bytes : 0), l?.item.id ?? null).catch((err) => log.warn(`recordings: retention failed (${errorMessage(err)})`));
    if (l && !l.ending && l.sink.bytes > keep) await this.end('error', `the recording alone reached keep_mb (${this.d.settings().keep_mb} MiB)`, l);
  }

  // --- audio and journal --------------------------------------------------------------------------

  private onPcm(l: Live, pcm: Int16Array): void {
    if (l.ending) return;
    const out = l.resampler.process(pcm);
    if (out.length === 0) return;
    const db = rmsDbfs(out);
    if (l.level === null || db > l.level) l.level = db;
    l.samplesIn += out.length;
    l.sink.write(out);
  }

  private point(l: Live, now: number): void {
    const sat = l.item.sat_id;
    const look = sat ? this.d.station.look(sat, now) : null;
    const rig = this.d.station.rig();
    const rot = this.d.station.rotator();
    l.journal.queue(pointLine(now, look?.az_deg ?? null, look?.el_deg ?? null, look?.range_rate_km_s ?? null, rig.rx_hz, rig.tx_hz, rot.az_deg, rot.el_deg));
    void this.flushJournal(l);
    const level = l.level;
    l.level = null;
    if (look && (l.item.max_el_deg === null || look.el_deg > l.item.max_el_deg)) l.item = { ...l.item, max_el_deg: Math.round(look.el_deg * 10) / 10 };
    this.runtimeNow = { ...this.runtimeNow, level_dbfs: level };
    this.d.updated();
    // keep_mb holds while a long recording grows, not only when it ends.
    if (++l.ticks % KEEP_CHECK_TICKS === 0) void this.ops.run(() => this.keepWithin()).catch((err) => log.warn(`recordings: retention not run (${errorMessage(err)})`));
  }

  private event(l: Live, e: RecordingEvent): void {
    if (l.events >= MAX_EVENTS) return;
    l.events++;
    l.journal.queue(eventLine(e));
    void this.flushJournal(l);
  }

  /** The journal's waiting lines to disk, one write at a time; a failed write keeps them for the next. */
  private flushJournal(l: Live): Promise<void> {
    return this.journalWrites
      .run(async () => {
        while (l.journal.waiting > 0) await l.journal.writeBatch();
      })
      .catch((err) => {
        // Bounded: a journal that cannot be written keeps its last few minutes waiting, not more.
        l.journal.trim(600);
        log.warn(`recording ${l.item.id}: journal write failed (${errorMessage(err)})`);
      });
  }

  private setRuntime(next: RecordingRuntime): void {
    const prev = this.runtimeNow;
    this.runtimeNow = next;
    if (prev.recording !== next.recording || prev.id !== next.id || prev.last_error !== next.last_error || prev.source !== next.source) this.d.changed();
    this.d.updated();
  }

  private async formatNow(): Promise<'ogg' | 'wav'> {
    if (this.format) return this.format;
    const ok = this.d.opusenc === '' ? false : await opusencAvailable(this.d.opusenc);
    this.format = ok ? 'ogg' : 'wav';
    if (!ok) log.info('opusenc (opus-tools) is not installed: recordings are WAV');
    return this.format;
  }

  private newId(now: number, sat_id: string | null): string {
    const base = iso(now).replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z') + (sat_id ? `-${sat_id}` : '');
    let id = base;
    for (let n = 2; this.library.item(id) && n < 1000; n++) id = `${base}-${n}`;
    return id;
  }
}

const offset = (l: Live, at_ms: number): number => Math.max(0, Math.round((at_ms - l.started_ms) / 100) / 10);
