import { spawn, type ChildProcess } from 'node:child_process';
import { errorMessage } from '../util/errors.js';
import { logger } from '../util/logger.js';

// Driver: one opusenc process (Debian's opus-tools) turning a recording's PCM into Ogg Opus. Raw
// samples go in on its stdin, the Ogg stream comes out on its stdout for the caller to write:
// the file stays the caller's (audio-file.ts), with its full-disk handling, and opusenc never
// holds a path. Never throws: the end comes through onEnd, and finish() resolves to a result.
//
// A stalled encoder must not grow our memory (a recording runs unattended for a whole pass):
// while more than QUEUE_S of audio waits in the pipe's queue on our side, a new block is dropped
// and counted in lostMs, which the bench reports as audio lost.

const log = logger('recording:opusenc');

/** Audio held for a stalled encoder at most, on our side of its stdin. */
export const QUEUE_S = 2;
/** finish(): how long opusenc may take after its input ends (it has at most a few seconds of audio left to encode). */
const FINISH_DEADLINE_MS = 5000;
/** stderr kept for the failure message. */
const STDERR_CHARS = 2000;

/**
 * Complexity 5 of 0–10. The budget is 10% of a Pi Zero 2 W core for capture and encoding at
 * 16 kHz. Measured on x86 (opus-tools 0.2, libopus 1.3.1: 120 s of a 16 kHz tone in noise at
 * 24 kbit/s): 0.46–0.66 s of CPU for complexities 0–6, then 1.5–1.8 s from 7 on, where libopus
 * adds its speech/music analysis. The Pi's Cortex-A53 at 1 GHz is roughly ten times slower, so 5
 * costs ~5% of its core and 10 (the default) ~15%, past the budget. 5 is SILK's middle setting,
 * well clear of the step at 7, and the low settings would save almost nothing.
 */
export const OPUS_COMPLEXITY = 5;

/**
 * kbit/s for a recording at `sampleRate`. A receiver's audio is a voice channel (SSB ~2.7 kHz, FM
 * ~3 kHz): 16 kbit/s is clean narrowband at 8 kHz, 24 clean wideband at 16 kHz, and 32 covers the
 * higher rates, which keep the recording's rate rather than add anything a voice channel holds.
 */
export function opusBitrateKbps(sampleRate: number): number {
  return sampleRate <= 8000 ? 16 : sampleRate <= 16000 ? 24 : 32;
}

/**
 * opusenc's arguments: raw 16-bit little-endian mono at `sampleRate` in on stdin, Ogg Opus out on
 * stdout. Every rate the recorder offers is one Opus codes natively, so opusenc resamples nothing.
 * No --speech: satellite audio is also SSTV and packet tones, which speech tuning treats worse.
 */
export function opusencArgs(sampleRate: number): string[] {
  return [
    '--quiet',
    '--raw',
    '--raw-bits', '16',
    '--raw-rate', String(sampleRate),
    '--raw-chan', '1',
    '--raw-endianness', '0',
    '--bitrate', String(opusBitrateKbps(sampleRate)),
    '--comp', String(OPUS_COMPLEXITY),
    '-', '-',
  ]; // prettier-ignore
}

export type OpusEncoderFinish = { kind: 'done' } | { kind: 'failed'; error: string };

export interface OpusEncoderOptions {
  sampleRate: number;
  /** Ogg bytes as opusenc writes them: the caller's to keep. */
  onData(bytes: Buffer): void;
  /** Once, when the process is gone: null after finish() went well or after kill(), otherwise why it ended. */
  onEnd(error: string | null): void;
  opusencPath?: string;
}

export interface OpusEncoder {
  /** Queues samples (copied: the caller may reuse pcm); dropped and counted while the encoder is QUEUE_S behind. */
  write(pcm: Int16Array): void;
  /** Ends the input and waits for opusenc to write the rest and exit. */
  finish(): Promise<OpusEncoderFinish>;
  /** Ends it now (SIGKILL): the Ogg stream stops where it is. */
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
  private stderr = '';
  private finishing = false;
  private killed = false;
  private deadline: NodeJS.Timeout | null = null;
  private endError: string | null = null;
  private over = false;
  private readonly ended: Promise<string | null>;
  private settle: (error: string | null) => void = () => {};

  constructor(private readonly o: OpusEncoderOptions) {
    this.program = o.opusencPath ?? 'opusenc';
    this.maxQueuedBytes = QUEUE_S * o.sampleRate * 2;
    this.ended = new Promise((resolve) => (this.settle = resolve));
    try {
      this.child = spawn(this.program, opusencArgs(o.sampleRate), { stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (err) {
      queueMicrotask(() => this.end(`cannot start ${this.program}: ${errorMessage(err)}`));
      return;
    }
    const child = this.child;
    child.stdin!.on('error', () => {}); // EPIPE when it died: its exit says why
    child.stdout!.on('data', (b: Buffer) => {
      try {
        this.o.onData(b);
      } catch (err) {
        log.error('the Ogg data listener failed', err);
      }
    });
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (s: string) => (this.stderr = (this.stderr + s).slice(-STDERR_CHARS)));
    child.on('error', (e: NodeJS.ErrnoException) => {
      if (child.pid !== undefined) return; // it runs, and a signal could not be sent: its exit reports
      this.end(e.code === 'ENOENT' ? `${this.program} not found (is opus-tools installed?)` : `cannot start ${this.program}: ${e.code ?? e.message}`);
    });
    child.on('close', (code, signal) => this.end(this.describeEnd(code, signal)));
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
  private describeEnd(code: number | null, signal: NodeJS.Signals | null): string | null {
    if (this.endError) return this.endError;
    if (this.killed) return null;
    if (code === 0) return this.finishing ? null : `${this.program} ended before its input did`;
    const said = this.stderr.trim().split('\n').pop()?.trim();
    return said || (signal ? `${this.program} was ended by ${signal}` : `${this.program} exited with code ${code}`);
  }

  private end(error: string | null): void {
    if (this.over) return;
    this.over = true;
    if (this.deadline) clearTimeout(this.deadline);
    this.settle(error);
    try {
      this.o.onEnd(error);
    } catch (err) {
      log.error('the encoder end listener failed', err);
    }
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
