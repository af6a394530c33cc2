import { type ChildProcess } from 'node:child_process';
import { Listeners } from '../util/listeners.js';
import { logger } from '../util/logger.js';
import { startTool } from './tool-process.js';
import { monotonicMs } from '../util/monotonic.js';

// Driver: one arecord process capturing 16-bit mono from an ALSA device, its samples handed on as
// they come. Never throws: a failure (no arecord, a device that does not open, arecord dying)
// comes through onEnd, once; after stop(), onEnd(null).
//
// Paced to real time. A real sound card delivers at its rate, but ALSA's `file` plugin on the
// `null` slave (what the tests capture from) and a misconfigured device deliver as fast as the
// pipe drains, which would fill the SD card in seconds. So the samples handed on never run more
// than PACE_SLACK_S ahead of the time since the first ones came, on a monotonic clock: when they
// would, the rest waits, stdout is paused, and a timer hands it on as the clock catches up. arecord
// then blocks on the full pipe; nothing spins. The slack also absorbs a card's crystal running
// fast (100 ppm is 0.12 s over a 20-minute pass).

const log = logger('recording:alsa');

/** How far ahead of real time delivery may run. */
export const PACE_SLACK_S = 0.5;
/** While held back, the samples go on in pieces of this much audio (a period's worth: see ARECORD_BUFFERING). */
const PACE_STEP_S = 0.25;
/**
 * A quarter-second period in a two-second buffer: four wake-ups a second instead of ALSA's default
 * eight or more (each is a pipe read and a write to the encoder on a slow core), and two seconds
 * for the station to be busy before the card overruns. A recording has no use for low latency.
 */
const ARECORD_BUFFERING = ['--period-time=250000', '--buffer-time=2000000'];
/** stop(): SIGTERM, then SIGKILL after this long. */
const STOP_GRACE_MS = 1000;

export interface AlsaCaptureOptions {
  /** An ALSA PCM name as arecord's -D takes it (`default`, `plughw:1,0`). */
  device: string;
  sampleRate: number;
  /** Whole samples, in order; the array is the listener's to keep. */
  onPcm(pcm: Int16Array): void;
  /** Once, when arecord is gone: null after stop(), otherwise why it ended. */
  onEnd(error: string | null): void;
  /** Monotonic milliseconds (default util/monotonic.ts). */
  now?: () => number;
  arecordPath?: string;
  /** arecord's environment (default this process's); alsa-lib reads $XDG_CONFIG_HOME/alsa/asoundrc. */
  env?: NodeJS.ProcessEnv;
}

export interface AlsaCapture {
  /** Ends arecord (SIGTERM, SIGKILL after a second) and resolves once it is gone. Never rejects. */
  stop(): Promise<void>;
  readonly pid: number | null;
}

export function startAlsaCapture(o: AlsaCaptureOptions): AlsaCapture {
  return new ArecordRun(o);
}

/**
 * ALSA's complaint as the operator should read it: the last two lines arecord printed, without
 * the source locations ("ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) ", "arecord: main:831: ").
 */
function alsaMessage(stderr: string): string {
  return stderr
    .split('\n')
    .map((l) => l.replace(/^ALSA lib [^\s:]+:\d+:\([^)]*\)\s*/, '').replace(/^arecord: \w+:\d+:\s*/, '').trim())
    .filter((l) => l !== '' && !/^overrun!!!/.test(l))
    .slice(-2)
    .join('; ');
}

class ArecordRun implements AlsaCapture {
  private readonly program: string;
  private readonly now: () => number;
  private readonly child: ChildProcess | null = null;
  private stopping = false;
  private over = false;
  private readonly gone: Promise<void>;
  private settle: () => void = () => {};
  /** When the first samples came (the pace's start), and how many went on since. */
  private startedAt: number | null = null;
  private delivered = 0;
  /** Bytes that must wait for the clock (whole samples), while stdout is paused. */
  private held: Buffer | null = null;
  /** The odd byte of a chunk, the first half of a sample the next chunk finishes. */
  private oddByte: number | null = null;
  private paceTimer: NodeJS.Timeout | null = null;
  private killTimer: NodeJS.Timeout | null = null;
  // The caller's listeners, through Listeners: one that throws is logged, never our exception.
  private readonly pcmFns = new Listeners<Int16Array>(log, 'capture samples');
  private readonly endFns = new Listeners<string | null>(log, 'capture end');

  constructor(private readonly o: AlsaCaptureOptions) {
    this.pcmFns.add(o.onPcm);
    this.endFns.add(o.onEnd);
    this.program = o.arecordPath ?? 'arecord';
    this.now = o.now ?? (() => monotonicMs());
    this.gone = new Promise((resolve) => (this.settle = resolve));
    const args = ['-q', '-D', o.device, '-f', 'S16_LE', '-r', String(o.sampleRate), '-c', '1', '-t', 'raw', ...ARECORD_BUFFERING];
    this.child = startTool({
      program: this.program,
      args,
      spawn: { stdio: ['ignore', 'pipe', 'pipe'], env: o.env ?? process.env },
      debianPackage: 'alsa-utils',
      asked: () => this.stopping,
      describe: (code, signal, stderr) => this.describeEnd(code, signal, stderr),
      onEnd: (error) => this.end(error),
    });
    this.child?.stdout!.on('data', (chunk: Buffer) => this.take(chunk));
  }

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  stop(): Promise<void> {
    if (!this.over && !this.stopping && this.child) {
      this.stopping = true;
      this.held = null;
      if (this.paceTimer) clearTimeout(this.paceTimer);
      // Unread audio no longer matters, and a paused pipe must not keep arecord (and 'close') waiting.
      this.child.stdout?.destroy();
      this.signal('SIGTERM');
      this.killTimer = setTimeout(() => this.signal('SIGKILL'), STOP_GRACE_MS);
    }
    return this.gone;
  }

  private take(chunk: Buffer): void {
    if (this.stopping) return;
    let bytes = chunk;
    if (this.oddByte !== null) {
      bytes = Buffer.concat([Buffer.of(this.oddByte), chunk]);
      this.oddByte = null;
    }
    if (bytes.length % 2 === 1) {
      this.oddByte = bytes[bytes.length - 1];
      bytes = bytes.subarray(0, bytes.length - 1);
    }
    if (bytes.length === 0) return;
    this.startedAt ??= this.now();
    this.held = this.held ? Buffer.concat([this.held, bytes]) : bytes;
    this.pace();
  }

  /** Hands on what the clock allows; holds the rest (stdout paused) until a timer says it is due. */
  private pace(): void {
    this.paceTimer = null;
    const held = this.held;
    if (!held || this.stopping || this.startedAt === null) return;
    const rate = this.o.sampleRate;
    const allowed = Math.floor(((this.now() - this.startedAt) / 1000 + PACE_SLACK_S) * rate) - this.delivered;
    const have = held.length / 2;
    const n = Math.max(0, Math.min(have, allowed));
    if (n > 0) this.deliver(held.subarray(0, 2 * n));
    if (n === have) {
      this.held = null;
      this.child?.stdout?.resume();
      return;
    }
    this.held = held.subarray(2 * n);
    this.child?.stdout?.pause();
    const next = Math.min(have - n, Math.ceil(rate * PACE_STEP_S));
    const dueAt = this.startedAt + ((this.delivered + next) / rate - PACE_SLACK_S) * 1000;
    this.paceTimer = setTimeout(() => this.pace(), Math.max(1, Math.ceil(dueAt - this.now())));
  }

  private deliver(bytes: Buffer): void {
    // A view when the bytes sit on a sample boundary in memory; a copy otherwise (an Int16Array must).
    let pcm: Int16Array;
    if (bytes.byteOffset % 2 === 0) pcm = new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2);
    else {
      pcm = new Int16Array(bytes.length / 2);
      new Uint8Array(pcm.buffer).set(bytes);
    }
    this.delivered += pcm.length;
    this.pcmFns.emit(pcm);
  }

  private signal(sig: NodeJS.Signals): void {
    try {
      this.child?.kill(sig);
    } catch {
      /* already gone */
    }
  }

  /** null when it ended as asked. */
  private describeEnd(code: number | null, signal: NodeJS.Signals | null, stderr: string): string | null {
    if (this.stopping) return null;
    const said = alsaMessage(stderr);
    if (said) return `${this.program}: ${said}`;
    if (signal) return `${this.program} was ended by ${signal}`;
    return code === 0 ? `${this.program} ended on its own` : `${this.program} exited with code ${code}`;
  }

  private end(error: string | null): void {
    if (this.over) return;
    this.over = true;
    this.held = null;
    if (this.paceTimer) clearTimeout(this.paceTimer);
    if (this.killTimer) clearTimeout(this.killTimer);
    this.settle();
    this.endFns.emitOnce(error);
  }
}
