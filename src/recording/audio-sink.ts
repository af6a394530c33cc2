import { open, stat, statfs, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describeIoError } from '../store/io-error.js';
import { Latch } from '../util/listeners.js';
import { logger } from '../util/logger.js';
import { AudioFile, type AudioFileOptions } from './audio-file.js';
import { isWriteFailure, opusencAvailable, startOpusEncoder, type OpusEncoder } from './opus-encoder.js';
import type { RecordingFormat } from './schemas.js';
import { WAV_HEADER_BYTES, wavHeader, wavSizePatches, wavSizes } from './wav.js';
import { monotonicMs } from '../util/monotonic.js';

// Where a recording's audio goes: PCM at the recording's rate in, a file out. WAV straight into
// the file through audio-file.ts (with its full-disk handling); Ogg Opus through opusenc, which
// writes the file itself (opus-encoder.ts says why), so its failures are the sink's: a write it
// could not make is told as such, or as a full disk when the disk is. Either way the file is
// created here, new (a recording is never overwritten), and the first failure is the sink's.
//
// Both survive a kill -9 of the station as a playable file: opusenc outlives it, sees its input
// end and finishes the Ogg file with all it was given; a WAV's sizes are patched every
// WAV_PATCH_EVERY_S of audio (the header lags the data by no more), and repairAudioFile() sets
// them from the file's length when the recorder finds a recording a kill cut short. After a power
// cut (or opusenc killed too), an Ogg stream, a chain of self-contained pages, plays up to its
// last whole one.

const log = logger('recording:audio');

/** Audio between two patches of a WAV file's header: what a kill leaves outside its sizes. */
export const WAV_PATCH_EVERY_S = 5;
/** Opus granule positions count 48 kHz samples, whatever the rate of the input (RFC 7845 §4). */
const OPUS_GRANULE_RATE = 48000;
/** The tail of an Ogg file searched for its last page: a page is at most 65 307 bytes. */
const OGG_TAIL_BYTES = 64 * 1024;
/** Enough of an Ogg file's start to hold its first page, the OpusHead. */
const OGG_HEAD_BYTES = 512;
/** An Ogg file's size is asked of the disk at most this often (the recorder reads bytes once a second). */
const OGG_SIZE_EVERY_MS = 1000;
/** Less than this available to us in the folder, and a write opusenc could not make is a full disk. */
const FULL_BELOW_BYTES = 1024 * 1024;

export interface AudioSinkOptions {
  format: RecordingFormat;
  path: string;
  /** The rate of the samples written (the recording's). */
  sampleRate: number;
  /**
   * Creates the file (default: a new one, mode 0644). A WAV is written through the handle; an Ogg
   * file is opusenc's, which opens it by path, so the handle is only closed again.
   */
  openFile?: AudioFileOptions['openFile'];
  opusencPath?: string;
  /** Where opusenc writes for the file at `path` (default: `path`): a test points it at /dev/full. */
  opusOutputPath?: (path: string) => string;
}

export type AudioSinkOpened = { kind: 'open'; sink: RecordingAudioSink } | { kind: 'failed'; error: string };
export type AudioSinkFinished = { kind: 'done'; bytes: number } | { kind: 'failed'; error: string; bytes: number };

// (Named for recordings: radio/lan/audio-tx.ts has an AudioSink of its own, the LAN stream's.)
export interface RecordingAudioSink {
  /** Samples at the sink's rate; the caller may reuse pcm once this returns. Dropped after a failure. */
  write(pcm: Int16Array): void;
  /** Bytes on disk so far (Ogg: the file's size as last asked of the disk, at most a second ago while it is read). */
  readonly bytes: number;
  /** Audio dropped because the encoder (Ogg) or the card (WAV) fell QUEUE_S behind. */
  readonly lostMs: number;
  /** The first failure, told once; returns the unsubscribe. */
  onFail(fn: (error: string) => void): () => void;
  /** Ends the file (the encoder's last pages, the WAV's sizes) and closes it. Never rejects. */
  finish(): Promise<AudioSinkFinished>;
}

/** Whether opusenc runs (the service's choice between Ogg and WAV): opus-encoder.ts's, offered here with the sink. */
export { opusencAvailable };

export async function openAudioSink(o: AudioSinkOptions): Promise<AudioSinkOpened> {
  if (o.format === 'ogg' && !(await opusencAvailable(o.opusencPath))) {
    return { kind: 'failed', error: `${o.opusencPath ?? 'opusenc'} does not run (is opus-tools installed?): Ogg needs it, WAV does not` };
  }
  const opened = await AudioFile.open(o.path, { openFile: o.openFile });
  if (opened.kind === 'failed') return opened;
  if (o.format === 'wav') return { kind: 'open', sink: new WavSink(opened.file, o.sampleRate) };
  // Created empty and new above (opusenc would overwrite whatever is there); from here it is opusenc's.
  const closed = await opened.file.close();
  if (closed.kind === 'failed') return closed;
  return { kind: 'open', sink: new OggSink(o.opusOutputPath?.(o.path) ?? o.path, o.sampleRate, o.opusencPath) };
}

const finished = async (file: AudioFile): Promise<AudioSinkFinished> => {
  const closed = await file.close();
  return closed.kind === 'done' ? { kind: 'done', bytes: file.bytes } : { kind: 'failed', error: closed.error, bytes: file.bytes };
};

/**
 * Seconds of WAV audio that may wait for a card that stalls (an SD card's garbage collection can
 * take seconds): 320 KB at 16 kHz. Like the encoder's queue (QUEUE_S, plus the ~5 s the kernel's
 * pipe holds before it), it keeps memory bounded; beyond it a block is dropped and counted in lostMs.
 */
const WAV_QUEUE_S = 10;

class WavSink implements RecordingAudioSink {
  private dataBytes = 0;
  private sinceHeader = 0;
  private lostSamples = 0;
  /** A card that stalls holds at most WAV_QUEUE_S of audio in memory; more is dropped and counted. */
  private readonly maxQueuedBytes: number;
  private ending: Promise<AudioSinkFinished> | null = null;

  constructor(
    private readonly file: AudioFile,
    private readonly sampleRate: number,
  ) {
    this.maxQueuedBytes = WAV_QUEUE_S * sampleRate * 2;
    file.write(wavHeader(sampleRate, 0));
  }

  get bytes(): number {
    return this.file.bytes;
  }
  get lostMs(): number {
    return Math.round((this.lostSamples * 1000) / this.sampleRate);
  }

  write(pcm: Int16Array): void {
    if (this.ending || pcm.length === 0) return;
    if (this.file.queuedBytes > this.maxQueuedBytes) {
      this.lostSamples += pcm.length;
      return;
    }
    // A copy the file keeps (pcm is the caller's). Little-endian, as WAV is: so is every host the station runs on.
    this.file.write(new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength).slice());
    this.dataBytes += pcm.byteLength;
    this.sinceHeader += pcm.length;
    if (this.sinceHeader >= WAV_PATCH_EVERY_S * this.sampleRate) this.writeHeader();
  }

  onFail(fn: (error: string) => void): () => void {
    return this.file.onFail(fn);
  }

  finish(): Promise<AudioSinkFinished> {
    if (!this.ending) {
      this.writeHeader();
      this.ending = finished(this.file);
    }
    return this.ending;
  }

  /** The whole header again with the sizes so far: one write, queued behind the data it counts. */
  private writeHeader(): void {
    this.sinceHeader = 0;
    this.file.pwriteAt(0, wavHeader(this.sampleRate, this.dataBytes));
  }
}

class OggSink implements RecordingAudioSink {
  private readonly encoder: OpusEncoder;
  private size = 0;
  private sizeAskedAt = -Infinity;
  private asking = false;
  /** The failure being put into words (a full disk is looked up): finish() waits for it. */
  private failing: Promise<void> | null = null;
  private readonly failed = new Latch<string>(log, 'audio failure');
  private ending: Promise<AudioSinkFinished> | null = null;

  constructor(
    private readonly outputPath: string,
    sampleRate: number,
    opusencPath: string | undefined,
  ) {
    this.encoder = startOpusEncoder({
      sampleRate,
      opusencPath,
      outputPath,
      onEnd: (error) => {
        if (error !== null) this.failing ??= this.fail(error);
      },
    });
  }

  /** The size last asked of the disk; asks again (in the background) when that was a second ago or more. */
  get bytes(): number {
    if (!this.ending && !this.asking && monotonicMs() - this.sizeAskedAt >= OGG_SIZE_EVERY_MS) {
      this.asking = true;
      this.sizeAskedAt = monotonicMs();
      void stat(this.outputPath)
        .then((st) => {
          if (!this.ending) this.size = st.size; // finish() asks last, and its answer stands
        })
        .catch(() => {})
        .finally(() => (this.asking = false));
    }
    return this.size;
  }
  get lostMs(): number {
    return this.encoder.lostMs;
  }

  write(pcm: Int16Array): void {
    if (!this.ending) this.encoder.write(pcm); // dropped by the encoder once it has ended
  }

  onFail(fn: (error: string) => void): () => void {
    return this.failed.on(fn);
  }

  finish(): Promise<AudioSinkFinished> {
    this.ending ??= (async () => {
      const r = await this.encoder.finish(); // a failure has reached fail() through onEnd, unless it was stopped
      if (r.kind === 'failed') this.failing ??= this.fail(r.error);
      await this.failing;
      this.size = await stat(this.outputPath).then(
        (st) => st.size,
        () => this.size,
      );
      const failure = this.failed.value;
      return failure === null ? { kind: 'done', bytes: this.size } : { kind: 'failed', error: failure, bytes: this.size };
    })();
    return this.ending;
  }

  /** Told once. A write opusenc could not make names the disk when it is full. Never rejects. */
  private async fail(error: string): Promise<void> {
    const said = isWriteFailure(error) ? await describeWriteFailure(error, dirname(this.outputPath)) : error;
    this.failed.fire(said);
  }
}

/** The operator's words for a write opusenc could not make: a full disk (what is left available to us), or its own message. */
async function describeWriteFailure(error: string, dir: string): Promise<string> {
  // bavail, not bfree: the blocks kept for root (ext4's 5%) are not ours to fill.
  const left = await statfs(dir).then(
    (s) => s.bavail * s.bsize,
    () => null,
  );
  return left !== null && left < FULL_BELOW_BYTES ? `the disk is full (${Math.floor(left / 1024)} KiB left)` : `the audio could not be written (${error})`;
}

export interface AudioFileSummary {
  /** The file's length (after a repair). */
  bytes: number;
  duration_s: number;
}

/**
 * Makes the audio file a kill -9 left behind whole, and says what it holds. WAV: the sizes in its
 * header set from its length (a header cut short written whole); Ogg: nothing to mend, it plays
 * up to its last whole page, whose granule position gives the duration. Never rejects: a file
 * that cannot be read reads as 0 bytes and 0 s, and one that cannot be written is measured as it is.
 */
export function repairAudioFile(path: string, format: RecordingFormat, sampleRate: number): Promise<AudioFileSummary> {
  return measure(path, format, sampleRate, true);
}

/** The duration of a finished recording's audio file, in seconds, read as repairAudioFile() reads it. */
export async function audioDurationS(path: string, format: RecordingFormat, sampleRate: number): Promise<number> {
  return (await measure(path, format, sampleRate, false)).duration_s;
}

const ms = (s: number) => Math.round(s * 1000) / 1000;

async function measure(path: string, format: RecordingFormat, sampleRate: number, repair: boolean): Promise<AudioFileSummary> {
  const mend = repair && format === 'wav';
  let fh: FileHandle | null = null;
  try {
    // A file it cannot write (a read-only card) is still measured.
    const file = await open(path, mend ? 'r+' : 'r').catch((err) => (mend ? open(path, 'r') : Promise.reject(err)));
    fh = file;
    let bytes = (await file.stat()).size;
    if (format === 'ogg') return { bytes, duration_s: ms(await oggDurationS(file, bytes)) };
    if (mend) bytes = await mendWavHeader(file, bytes, sampleRate, path);
    return { bytes, duration_s: ms(wavSizes(bytes).dataBytes / 2 / sampleRate) };
  } catch (err) {
    log.warn(`cannot read the audio file ${path}: ${describeIoError(err)}`);
    return { bytes: 0, duration_s: 0 };
  } finally {
    await fh?.close().catch(() => {});
  }
}

/** Sets a WAV file's sizes from its length; returns the length after (a cut header is written whole). */
async function mendWavHeader(fh: FileHandle, bytes: number, sampleRate: number, path: string): Promise<number> {
  try {
    if (bytes < WAV_HEADER_BYTES) {
      await fh.write(wavHeader(sampleRate, 0), 0, WAV_HEADER_BYTES, 0);
      return WAV_HEADER_BYTES;
    }
    for (const p of wavSizePatches(bytes)) await fh.write(p.bytes, 0, p.bytes.length, p.offset);
  } catch (err) {
    log.warn(`cannot patch the sizes of ${path}: ${describeIoError(err)}`);
  }
  return bytes;
}

/** (last granule position − pre-skip) / 48 kHz; 0 when the file holds no audio page or no OpusHead. */
async function oggDurationS(fh: FileHandle, size: number): Promise<number> {
  const head = Buffer.alloc(Math.min(size, OGG_HEAD_BYTES));
  await fh.read(head, 0, head.length, 0);
  const at = head.indexOf('OpusHead', 0, 'latin1');
  // OpusHead: magic (8), version (1), channels (1), pre-skip (u16 LE) …
  if (at < 0 || at + 12 > head.length) return 0;
  const preSkip = head.readUInt16LE(at + 10);
  const tail = Buffer.alloc(Math.min(size, OGG_TAIL_BYTES));
  await fh.read(tail, 0, tail.length, size - tail.length);
  const granule = lastGranule(tail);
  return granule === null ? 0 : Math.max(0, granule - preSkip) / OPUS_GRANULE_RATE;
}

/**
 * The granule position of the last whole page in `buf` that ends a packet. A page cut by the kill
 * is skipped (its header may say more than reached the disk), as is a page with granule -1 (no
 * packet ends on it). Header: "OggS", version 0, type, granule (i64 LE), serial, sequence, CRC,
 * segment count, then the segment table, whose lengths add up to the body's.
 */
function lastGranule(buf: Buffer): number | null {
  for (let from = buf.length - 27; from >= 0; ) {
    const i = buf.lastIndexOf('OggS', from, 'latin1');
    if (i < 0) break;
    from = i - 1;
    if (buf[i + 4] !== 0) continue;
    const segments = buf[i + 26];
    let end = i + 27 + segments;
    if (end > buf.length) continue;
    for (let s = 0; s < segments; s++) end += buf[i + 27 + s];
    if (end > buf.length) continue;
    const granule = buf.readBigInt64LE(i + 6);
    if (granule >= 0n) return Number(granule);
  }
  return null;
}
