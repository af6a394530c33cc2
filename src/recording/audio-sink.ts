import { open, type FileHandle } from 'node:fs/promises';
import { describeIoError } from '../store/io-error.js';
import { logger } from '../util/logger.js';
import { AudioFile, type AudioFileOptions } from './audio-file.js';
import { opusencAvailable, startOpusEncoder, type OpusEncoder } from './opus-encoder.js';
import type { RecordingFormat } from './schemas.js';
import { WAV_HEADER_BYTES, wavHeader, wavSizePatches, wavSizes } from './wav.js';

// Where a recording's audio goes: PCM at the recording's rate in, a file out. Ogg Opus through
// opusenc (opus-encoder.ts) into the file, or WAV straight into it. Either way the file is
// audio-file.ts's, so a full card ends both the same way, and the first failure of the file or
// of the encoder is the sink's failure.
//
// Both survive a kill -9 or a power cut as a playable file: an Ogg stream is a chain of
// self-contained pages, so it plays up to its last whole one; a WAV's sizes are patched every
// WAV_PATCH_EVERY_S of audio (the header lags the data by no more), and repairAudioFile() sets
// them from the file's length when the recorder finds a recording a kill cut short.

const log = logger('recording:audio');

/** Audio between two patches of a WAV file's header: what a kill leaves outside its sizes. */
export const WAV_PATCH_EVERY_S = 5;
/** Opus granule positions count 48 kHz samples, whatever the rate of the input (RFC 7845 §4). */
const OPUS_GRANULE_RATE = 48000;
/** The tail of an Ogg file searched for its last page: a page is at most 65 307 bytes. */
const OGG_TAIL_BYTES = 64 * 1024;
/** Enough of an Ogg file's start to hold its first page, the OpusHead. */
const OGG_HEAD_BYTES = 512;

export interface AudioSinkOptions {
  format: RecordingFormat;
  path: string;
  /** The rate of the samples written (the recording's). */
  sampleRate: number;
  openFile?: AudioFileOptions['openFile'];
  opusencPath?: string;
}

export type AudioSinkOpened = { kind: 'open'; sink: RecordingAudioSink } | { kind: 'failed'; error: string };
export type AudioSinkFinished = { kind: 'done'; bytes: number } | { kind: 'failed'; error: string; bytes: number };

// (Named for recordings: radio/lan/audio-tx.ts has an AudioSink of its own, the LAN stream's.)
export interface RecordingAudioSink {
  /** Samples at the sink's rate; the caller may reuse pcm once this returns. Dropped after a failure. */
  write(pcm: Int16Array): void;
  /** Bytes on disk so far. */
  readonly bytes: number;
  /** Audio dropped because the encoder fell behind (always 0 for WAV). */
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
  const sink = o.format === 'ogg' ? new OggSink(opened.file, o.sampleRate, o.opusencPath) : new WavSink(opened.file, o.sampleRate);
  return { kind: 'open', sink };
}

const finished = async (file: AudioFile): Promise<AudioSinkFinished> => {
  const closed = await file.close();
  return closed.kind === 'done' ? { kind: 'done', bytes: file.bytes } : { kind: 'failed', error: closed.error, bytes: file.bytes };
};

class WavSink implements RecordingAudioSink {
  private dataBytes = 0;
  private sinceHeader = 0;
  private ending: Promise<AudioSinkFinished> | null = null;

  constructor(
    private readonly file: AudioFile,
    private readonly sampleRate: number,
  ) {
    file.write(wavHeader(sampleRate, 0));
  }

  get bytes(): number {
    return this.file.bytes;
  }
  get lostMs(): number {
    return 0;
  }

  write(pcm: Int16Array): void {
    if (this.ending || pcm.length === 0) return;
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
  private ending: Promise<AudioSinkFinished> | null = null;

  constructor(
    private readonly file: AudioFile,
    sampleRate: number,
    opusencPath: string | undefined,
  ) {
    this.encoder = startOpusEncoder({
      sampleRate,
      opusencPath,
      onData: (bytes) => file.write(bytes),
      onEnd: (error) => {
        if (error !== null) file.fail(error);
      },
    });
    // Nothing it encodes could be kept any more.
    file.onFail(() => this.encoder.kill());
  }

  get bytes(): number {
    return this.file.bytes;
  }
  get lostMs(): number {
    return this.encoder.lostMs;
  }

  write(pcm: Int16Array): void {
    if (!this.ending && this.file.failure === null) this.encoder.write(pcm);
  }

  onFail(fn: (error: string) => void): () => void {
    return this.file.onFail(fn);
  }

  finish(): Promise<AudioSinkFinished> {
    this.ending ??= (async () => {
      await this.encoder.finish(); // a failure has reached the file through onEnd
      return finished(this.file);
    })();
    return this.ending;
  }
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
