import { spawn, type ChildProcess } from 'node:child_process';
import { Listeners } from '../util/listeners.js';
import { logger } from '../util/logger.js';
import { startTool } from './tool-process.js';

// Driver: one opusenc process (Debian's opus-tools) turning a recording's PCM into an Ogg Opus
// file. Raw samples go in on its stdin; opusenc writes the file itself (`opusenc … - <path>`). Never
// throws: the end comes through onEnd, and finish() resolves to a result.
//
// Why opusenc holds the file rather than this process: what it still holds when the station dies
// (libopusenc's ~2 s decision delay, up to 1 s of audio waiting to fill a page, its stdio buffer)
// would die with a pipe to us, so a kill -9 cost the last seconds and left a short recording
// empty. Writing the file itself, it sees its stdin end when we die and finishes the file as on a
// stop: all the audio that reached it, and the last page. For that it must outlive us: it runs in
// a session and process group of its own (detached), so a signal to ours (a kill of the station's
// group, ^C in its terminal) does not reach it; only its stdin ending stops it. (A service manager
// that kills the whole cgroup, systemd's KillMode, still does: deploy/satstation.service.)
//
// A stalled encoder must not grow our memory (a recording runs unattended for a whole pass):
// while more than QUEUE_S of audio waits in the pipe's queue on our side, a new block is dropped
// and counted in lostMs, which the bench reports as audio lost. The kernel holds some more before
// that queue starts (libuv gives the child a socket pair: ~160 KiB here, 5 s at 16 kHz), bounded too.

const log = logger('recording:opusenc');

/** Audio held for a stalled encoder at most, on our side of its stdin. */
export const QUEUE_S = 2;
/** finish(): how long opusenc may take after its input ends (it has at most a few seconds of audio left to encode). */
const FINISH_DEADLINE_MS = 5000;

/**
 * Complexity 3 of 0–10, in 60 ms frames. The budget is 10% of a Pi Zero 2 W core for capture and
 * encoding at 16 kHz, and the bench's Pi-speed cage put complexity 5 in 20 ms frames (opusenc's
 * frame default) plus arecord and the station at 12%. Measured on x86 (opus-tools 0.2, libopus
 * 1.3.1; 120 s of a 16 kHz tone in noise at 24 kbit/s), CPU seconds: complexity 5 in 20 ms frames
 * 0.62, in 60 ms frames 0.47; complexity 3 in 60 ms frames 0.32; complexity 0 0.25; from 7 on
 * 1.5–1.8 (libopus's speech/music analysis). Long frames cost a recording nothing (no one listens
 * live) and save a third of the per-frame work; complexity 3 keeps the pitch and noise shaping
 * a voice channel needs, where 0 drops them for a fifth less CPU.
 */
export const OPUS_COMPLEXITY = 3;
/** ms per Opus frame: the longest Opus has. */
export const OPUS_FRAME_MS = 60;

/**
 * kbit/s for a recording at `sampleRate`. A receiver's audio is a voice channel (SSB ~2.7 kHz, FM
 * ~3 kHz): 16 kbit/s is clean narrowband at 8 kHz, 24 clean wideband at 16 kHz, and 32 covers the
 * higher rates, which keep the recording's rate rather than add anything a voice channel holds.
 */
export function opusBitrateKbps(sampleRate: number): number {
  return sampleRate <= 8000 ? 16 : sampleRate <= 16000 ? 24 : 32;
}

/**
 * opusenc's arguments: raw 16-bit little-endian mono at `sampleRate` in on stdin, Ogg Opus out
 * into `outputPath`. Every rate the recorder offers is one Opus codes natively, so opusenc
 * resamples nothing. No --speech: satellite audio is also SSTV and packet tones, which speech
 * tuning treats worse.
 */
export function opusencArgs(sampleRate: number, outputPath: string): string[] {
  return [
    '--quiet',
    '--raw',
    '--raw-bits', '16',
    '--raw-rate', String(sampleRate),
    '--raw-chan', '1',
    '--raw-endianness', '0',
    '--bitrate', String(opusBitrateKbps(sampleRate)),
    '--comp', String(OPUS_COMPLEXITY),
    '--framesize', String(OPUS_FRAME_MS),
    // A relative path opusenc would take for an option (or "-", stdout) is given as ./path.
    '-', outputPath.startsWith('-') ? `./${outputPath}` : outputPath,
  ];
}

/**
 * Whether an encoder's end (onEnd, finish()) is opusenc failing to write its file: libopusenc's
 * "Encoding aborted: write failed" (a write or flush that failed: a full disk, an I/O error), or
 * the errno it prints when the file cannot be opened on a full or read-only disk.
 */
export function isWriteFailure(error: string): boolean {
  return /write failed|No space left on device|Disk quota exceeded|Input\/output error|Read-only file system/i.test(error);
}

export type OpusEncoderFinish = { kind: 'done' } | { kind: 'failed'; error: string };

export interface OpusEncoderOptions {
  sampleRate: number;
  /** The Ogg file opusenc creates (or truncates) and writes. */
  outputPath: string;
  /** Once, when the process is gone: null after finish() went well or after kill(), otherwise why it ended. */
  onEnd(error: string | null): void;
  opusencPath?: string;
}

export interface OpusEncoder {
  /** Queues samples (copied: the caller may reuse pcm); dropped and counted while the encoder is QUEUE_S behind. */
  write(pcm: Int16Array): void;
  /** Ends the input and waits for opusenc to write the rest and exit. */
  finish(): Promise<OpusEncoderFinish>;
  /** Ends it now (SIGKILL): the file stops at the last page opusenc wrote out. */
  kill(): void;
  /** Milliseconds of audio dropped because the encoder fell behind. */
  readonly lostMs: number;
  readonly pid: number | null;
}

export function startOpusEncoder(o: OpusEncoderOptions): OpusEncoder {
  return new OpusencRun(o);
}

class OpusencRun implements OpusEncoder {
  private readonly program: string;
  private readonly child: ChildProcess | null = null;
  private readonly maxQueuedBytes: number;
  private lostSamples = 0;
  private finishing = false;
  private killed = false;
  private deadline: NodeJS.Timeout | null = null;
  private endError: string | null = null;
  private over = false;
  private readonly ended: Promise<string | null>;
  private settle: (error: string | null) => void = () => {};
  // The caller's listener, through Listeners: one that throws is logged, never our exception.
  private readonly endFns = new Listeners<string | null>(log, 'encoder end');

  constructor(private readonly o: OpusEncoderOptions) {
    this.endFns.add(o.onEnd);
    this.program = o.opusencPath ?? 'opusenc';
    this.maxQueuedBytes = QUEUE_S * o.sampleRate * 2;
    this.ended = new Promise((resolve) => (this.settle = resolve));
    // detached: a session of its own, so it outlives us and finishes the file (see the top).
    // stdout to /dev/null: the Ogg goes to the file, and a pipe to us would die with us.
    this.child = startTool({
      program: this.program,
      args: opusencArgs(o.sampleRate, o.outputPath),
      spawn: { stdio: ['pipe', 'ignore', 'pipe'], detached: true },
      debianPackage: 'opus-tools',
      asked: () => this.killed,
      describe: (code, signal, stderr) => this.describeEnd(code, signal, stderr),
      onEnd: (error) => this.end(error),
    });
    this.child?.stdin!.on('error', () => {}); // EPIPE when it died: its exit says why
  }

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  get lostMs(): number {
    return Math.round((this.lostSamples * 1000) / this.o.sampleRate);
  }

  write(pcm: Int16Array): void {
    const stdin = this.child?.stdin;
    if (!stdin || this.over || this.finishing || !stdin.writable || pcm.length === 0) return;
    if (stdin.writableLength > this.maxQueuedBytes) {
      this.lostSamples += pcm.length;
      return;
    }
    // A copy: the pipe holds on to what it has not yet passed to the kernel, and pcm is the caller's.
    stdin.write(Buffer.from(new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength)));
  }

  async finish(): Promise<OpusEncoderFinish> {
    if (!this.finishing && !this.over) {
      this.finishing = true;
      this.child?.stdin?.end();
      this.deadline = setTimeout(() => {
        this.endError = `${this.program} did not finish within ${FINISH_DEADLINE_MS / 1000} s of its input ending`;
        this.child?.kill('SIGKILL');
      }, FINISH_DEADLINE_MS);
    }
    const error = await this.ended;
    if (error !== null) return { kind: 'failed', error };
    return this.killed ? { kind: 'failed', error: 'the encoder was stopped' } : { kind: 'done' };
  }

  kill(): void {
    if (this.over) return;
    this.killed = true;
    this.child?.kill('SIGKILL');
  }

  /** null when it ended as asked. */
  private describeEnd(code: number | null, signal: NodeJS.Signals | null, stderr: string): string | null {
    if (this.endError) return this.endError;
    if (this.killed) return null;
    if (code === 0) return this.finishing ? null : `${this.program} ended before its input did`;
    const said = stderr.trim().split('\n').pop()?.trim();
    if (said) return `${this.program}: ${said}`;
    return signal ? `${this.program} was ended by ${signal}` : `${this.program} exited with code ${code}`;
  }

  private end(error: string | null): void {
    if (this.over) return;
    this.over = true;
    if (this.deadline) clearTimeout(this.deadline);
    this.settle(error);
    this.endFns.emitOnce(error);
  }
}

const availability = new Map<string, Promise<boolean>>();

/** Whether `opusencPath` runs (`--version` exits 0); asked once per path, the answer kept. */
export function opusencAvailable(opusencPath = 'opusenc'): Promise<boolean> {
  let answer = availability.get(opusencPath);
  if (!answer) {
    answer = new Promise<boolean>((resolve) => {
      try {
        const child = spawn(opusencPath, ['--version'], { stdio: 'ignore' });
        child.on('error', () => resolve(false));
        child.on('exit', (code) => resolve(code === 0));
      } catch {
        resolve(false);
      }
    });
    availability.set(opusencPath, answer);
  }
  return answer;
}
