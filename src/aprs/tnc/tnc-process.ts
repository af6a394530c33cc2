import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Clock, Timer } from '../../util/clock.js';
import { Reconnect } from '../../util/reconnect.js';
import { Listeners } from '../../util/listeners.js';
import { errorMessage } from '../../util/errors.js';
import { logger } from '../../util/logger.js';
import { diagnoseExit, diagnoseOutput, isErrorLine, type DirewolfDiagnosis } from './direwolf-diagnosis.js';

// Driver: the TNC child process (Dire Wolf). Writes its configuration atomically, starts it,
// keeps the last lines it printed, finds the KISS pseudo-terminal it announces, restarts it with
// capped backoff when it dies while wanted, and stops it. Never throws: start() answers with a
// result, failures land in status().last_error.
//
// Failures in the operator's words: the first lines of each run are read by direwolf-diagnosis.ts
// (no sound card, PTT device missing...); last_error is that diagnosis (a short summary, the
// restart count and delay, then the fix) rather than the raw ALSA text, which stays in
// output_tail, across restarts and after the process is gone. A run whose output says it cannot
// work (an audio device that does not open: Dire Wolf 1.6 sometimes sits there instead of
// exiting) is ended and counts as a failed start.
//
// Signals: Dire Wolf 1.6 installs a handler for SIGINT only (direwolf.c cleanup_linux): it drops
// PTT on every channel (ptt_term), closes Hamlib, sleeps a second and exits. SIGTERM or SIGKILL
// end it without dropping PTT, which can leave a CAT-keyed rig or a CM108 GPIO transmitting. So
// stop() and kill() send SIGINT first, then SIGKILL after a grace (kill(): a short one).
// Dire Wolf 1.6 often dies of SIGSEGV inside that handler (after a failed audio open, every
// time): a run we sent SIGINT that then ends by a signal other than our SIGKILL has stopped as
// asked. It reads "stopped" in the output, last_exit and the log, never as a crash: the operator's
// problem is what made us stop it (the diagnosis), not how Dire Wolf's handler ended.

const log = logger('aprs:tnc');

export const TAIL_LINES = 50;
export const TAIL_LINE_CHARS = 200;
/** Restart timing: first retry after base, doubling to max; a run this long resets the backoff. */
export const TNC_RESTART = { base_ms: 1000, max_ms: 60_000, stable_ms: 30_000 } as const;
/** Lines at the start of each run read for a diagnosis (Dire Wolf explains a failed start within these). */
export const DIAGNOSIS_LINES = 80;

export type TncState = 'stopped' | 'starting' | 'running' | 'failing';

export interface TncStatus {
  /** stopped; starting (no pseudo-terminal yet); running; failing (its output says it cannot work, or a restart waits). */
  state: TncState;
  running: boolean;
  pid: number | null;
  command: string[];
  pty_path: string | null;
  restarts: number;
  last_exit: string | null;
  last_error: string | null;
  output_tail: string[];
  /** Dire Wolf said "PTT not configured" (or Hamlib failed): it cannot key the transmitter. */
  ptt_unavailable: boolean;
  /** What is wrong, in plain words with the fix: this run's problem, or the last failed run's. */
  diagnosis: DirewolfDiagnosis | null;
  /** Runs in a row that failed (ended while wanted); a run of stable_ms resets it. */
  failures: number;
  /** When the next restart is due (epoch ms on the clock), while one waits. */
  next_restart_at: number | null;
}

export type TncStartResult = { ok: true; pid: number } | { ok: false; error: string };

export interface TncProcessOptions {
  binary: string;
  /** Arguments, excluding the binary (direwolfLaunch().args). */
  args: string[];
  configPath: string;
  configText: string;
  clock: Clock;
  /** Environment for the child (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /**
   * The child's standard input. 'ignore' (/dev/null, the default); 'hold': a pipe this side keeps
   * open and never writes (ADEVICE stdin that must not end); a file descriptor (a test's FIFO).
   */
  stdin?: 'ignore' | 'hold' | number;
  restart?: { base_ms: number; max_ms: number; stable_ms: number };
  /** stop(): SIGINT, then SIGKILL after this long (Dire Wolf sleeps 1 s in its SIGINT handler). */
  stopGraceMs?: number;
  /** kill(): SIGINT (drops PTT at once), then SIGKILL after this long. */
  killGraceMs?: number;
}

const PTY_RE = /Virtual KISS TNC is available on (\/dev\/\S+)/;
const NO_CONFIG_RE = /Could not open config file/;
const PTT_MISSING_RE = /^(Note: PTT not configured|Hamlib Rig open error)/;
// eslint-disable-next-line no-control-regex
const ANSI_RE = /\x1b\[[0-9;?]*[A-Za-z]/g;

/** Children still alive when this process exits get SIGINT (drop PTT): the only thing sync code can do. */
const live = new Set<ChildProcess>();
let exitHook = false;
function track(child: ChildProcess): void {
  live.add(child);
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => {
      for (const c of live) {
        try {
          c.kill('SIGINT');
        } catch {
          /* gone */
        }
      }
    });
  }
}

/** Splits a byte stream into lines, each capped, the partial line bounded too. */
class LineSplitter {
  private part = '';
  private over = false;
  constructor(private readonly onLine: (line: string) => void) {}
  push(s: string): void {
    let start = 0;
    for (;;) {
      const nl = s.indexOf('\n', start);
      const piece = s.slice(start, nl < 0 ? undefined : nl);
      if (!this.over) {
        this.part += piece;
        if (this.part.length > TAIL_LINE_CHARS) {
          this.part = this.part.slice(0, TAIL_LINE_CHARS);
          this.over = true;
        }
      }
      if (nl < 0) return;
      this.emit();
      start = nl + 1;
    }
  }
  flush(): void {
    if (this.part || this.over) this.emit();
  }
  private emit(): void {
    const line = this.part.replace(ANSI_RE, '').replace(/[\r\x00-\x08\x0b-\x1f\x7f]/g, '').trimEnd();
    this.part = '';
    this.over = false;
    this.onLine(line);
  }
}

export class TncProcess {
  private child: ChildProcess | null = null;
  private holdStdin: ChildProcess['stdin'] = null;
  /** Audio bytes dropped because the child fell behind (bounded pipe). */
  stdinDropped = 0;
  private want = false;
  private readonly retry: Reconnect;
  private killTimer: Timer | null = null;
  /** The child we last sent SIGINT (stop, kill, or a run that said it cannot work). */
  private interrupted: ChildProcess | null = null;
  private startedAt = 0;
  /** An error line was printed during the current run. */
  private runError = false;
  /** The first lines of the current run, and what they say is wrong. */
  private runLines: string[] = [];
  private runDiagnosis: DirewolfDiagnosis | null = null;
  /** Why the last failed run failed (kept until a run comes up clean). */
  private lastFailure: DirewolfDiagnosis | null = null;
  private failures = 0;
  /** The current run ended or said it cannot work (each listener hears it once). */
  private readonly endFns = new Listeners<void>(log, 'TNC run end');
  private exited: Promise<void> = Promise.resolve();
  private readonly ptyFns = new Listeners<string | null>(log, 'TNC pseudo-terminal');
  private readonly exitFns = new Listeners<string>(log, 'TNC exit');
  private readonly st: TncStatus;

  constructor(private readonly o: TncProcessOptions) {
    // A run that lasted stable_ms was working: its death starts the backoff over.
    this.retry = new Reconnect(o.clock, o.restart ?? TNC_RESTART);
    this.st = {
      state: 'stopped',
      running: false,
      pid: null,
      command: [o.binary, ...o.args],
      pty_path: null,
      restarts: 0,
      last_exit: null,
      last_error: null,
      output_tail: [],
      ptt_unavailable: false,
      diagnosis: null,
      failures: 0,
      next_restart_at: null,
    };
  }

  status(): TncStatus {
    const diagnosis = this.runDiagnosis ?? (this.child && this.st.pty_path ? null : this.lastFailure);
    const state: TncState = !this.child ? (this.want ? 'failing' : 'stopped') : this.runDiagnosis?.fatal ? 'failing' : this.st.pty_path ? 'running' : 'starting';
    return {
      ...this.st,
      state,
      command: [...this.st.command],
      output_tail: [...this.st.output_tail],
      last_error: diagnosis ? this.describe(diagnosis) : this.st.last_error,
      diagnosis,
      failures: this.failures,
      next_restart_at: this.retry.nextAt,
    };
  }

  /** The diagnosis as one line: summary, how often and when it is retried, then the fix. */
  private describe(d: DirewolfDiagnosis): string {
    const times = this.failures > 1 ? `, ${this.failures} times in a row` : '';
    const at = this.retry.nextAt;
    const retry = at !== null ? `; retrying in ${Math.max(1, Math.ceil((at - this.o.clock.now()) / 1000))} s` : '';
    return `${d.summary}${times}${retry}. ${d.fix}`;
  }

  get wanted(): boolean {
    return this.want;
  }

  /** The pseudo-terminal path when Dire Wolf announces it, null when the process ends. */
  onPty(fn: (path: string | null) => void): void {
    this.ptyFns.add(fn);
  }

  /** Each exit, described ("exited with code 1", "killed by SIGKILL"). */
  onExit(fn: (desc: string) => void): void {
    this.exitFns.add(fn);
  }

  /** Resolves with the pty path once announced, or null after timeoutMs on the clock. */
  waitForPty(timeoutMs: number): Promise<string | null> {
    if (this.st.pty_path) return Promise.resolve(this.st.pty_path);
    if (!this.child || this.runDiagnosis?.fatal) return Promise.resolve(null);
    return new Promise((resolve) => {
      let done = false;
      const t = this.o.clock.setTimeout(() => finish(null), timeoutMs);
      const finish = (p: string | null) => {
        if (done) return;
        done = true;
        t.cancel();
        offPty();
        offEnd();
        resolve(p);
      };
      const offPty = this.ptyFns.add((p) => {
        if (p) finish(p);
      });
      // A run that ends (or says it cannot work) will announce nothing: answer now, not at the timeout.
      const offEnd = this.endFns.add(() => finish(null));
    });
  }

  /** Wants it running: starts it now (unless it runs), and restarts it when it dies until stop(). */
  async start(): Promise<TncStartResult> {
    this.want = true;
    this.retry.reset();
    this.retry.cancel();
    if (this.child) return { ok: true, pid: this.child.pid ?? 0 };
    this.st.last_error = null;
    this.failures = 0;
    this.lastFailure = null;
    return this.launch();
  }

  /** SIGINT (Dire Wolf drops PTT and exits), SIGKILL after the grace; resolves when it is gone. */
  async stop(): Promise<void> {
    this.want = false;
    this.retry.cancel();
    const child = this.child;
    if (!child) return;
    this.signal(child, 'SIGINT');
    this.armKill(child, this.o.stopGraceMs ?? 3000);
    await this.exited;
  }

  /** Emergency stop: SIGINT now (PTT off within milliseconds), SIGKILL shortly after. No restart. */
  kill(): void {
    this.want = false;
    this.retry.cancel();
    const child = this.child;
    if (!child) return;
    this.signal(child, 'SIGINT');
    this.armKill(child, this.o.killGraceMs ?? 250);
  }

  private launch(): Promise<TncStartResult> {
    const fail = (error: string): TncStartResult => {
      this.st.last_error = error;
      log.warn(error);
      this.scheduleRestart();
      return { ok: false, error };
    };
    try {
      writeAtomic(this.o.configPath, this.o.configText);
    } catch (err) {
      // Never start Dire Wolf without its file: its built-in defaults listen on 8000/8001 on every interface.
      return Promise.resolve(fail(`cannot write the TNC configuration ${this.o.configPath}: ${errorMessage(err)}`));
    }
    let child: ChildProcess;
    try {
      const stdin = this.o.stdin ?? 'ignore';
      child = spawn(this.o.binary, this.o.args, {
        stdio: [stdin === 'hold' ? 'pipe' : stdin, 'pipe', 'pipe'],
        env: this.o.env ?? process.env,
      });
    } catch (err) {
      return Promise.resolve(fail(`cannot start ${this.o.binary}: ${errorMessage(err)}`));
    }
    this.child = child;
    this.holdStdin = this.o.stdin === 'hold' ? child.stdin : null;
    this.holdStdin?.on('error', () => {});
    this.st.pty_path = null;
    this.st.ptt_unavailable = false;
    this.runError = false;
    this.runLines = [];
    this.runDiagnosis = null;
    const out = new LineSplitter((l) => this.line(child, l));
    const err = new LineSplitter((l) => this.line(child, l));
    child.stdout!.setEncoding('utf8');
    child.stderr!.setEncoding('utf8');
    child.stdout!.on('data', (s: string) => out.push(s));
    child.stderr!.on('data', (s: string) => err.push(s));
    child.stdout!.on('end', () => out.flush());
    child.stderr!.on('end', () => err.flush());
    let settle: (r: TncStartResult) => void = () => {};
    const result = new Promise<TncStartResult>((resolve) => (settle = resolve));
    this.exited = new Promise<void>((resolve) => {
      child.once('spawn', () => {
        track(child);
        this.startedAt = this.o.clock.now();
        this.st.running = true;
        this.retry.up();
        this.st.pid = child.pid ?? null;
        log.info(`started ${this.st.command.join(' ')} (pid ${child.pid})`);
        settle({ ok: true, pid: child.pid ?? 0 });
      });
      child.on('error', (e: NodeJS.ErrnoException) => {
        // After a spawn, an error means a signal could not be sent: the exit (if any) reports.
        if (this.child === child && this.st.running) return log.warn(`signalling ${this.o.binary}: ${e.message}`);
        // Spawn failed (ENOENT, EACCES): no 'exit' follows.
        const msg = `cannot start ${this.o.binary}: ${e.code ?? e.message}`;
        this.gone(child, msg, msg, null);
        settle({ ok: false, error: msg });
        resolve();
      });
      child.once('exit', (code, signal) => {
        // Asked to stop (SIGINT) and ended by a signal that is not our SIGKILL: Dire Wolf 1.6's handler crashing.
        const stopped = this.interrupted === child && signal !== null && signal !== 'SIGKILL';
        const desc = stopped ? 'stopped' : signal ? `killed by ${signal}` : `exited with code ${code}`;
        if (stopped) this.gone(child, desc, null, null, `its SIGINT handler ended in ${signal}, as Dire Wolf 1.6's does`);
        else this.gone(child, desc, null, { code, signal });
        settle({ ok: false, error: `${this.o.binary} ${desc} at once` });
        resolve();
      });
    });
    return result;
  }

  /**
   * Feeds the child's standard input ('hold' mode): the Wi-Fi transport's receive audio. While the
   * pipe holds more than maxQueued bytes the chunk is dropped (counted), so a stalled decoder can
   * never grow our memory. False when there is no pipe or the chunk was dropped.
   */
  writeStdin(bytes: Uint8Array, maxQueued = 96_000): boolean {
    const w = this.holdStdin;
    if (!w || w.destroyed || !w.writable) return false;
    if (w.writableLength > maxQueued) {
      this.stdinDropped += bytes.byteLength;
      return false;
    }
    w.write(bytes);
    return true;
  }

  /** The run ended (`desc`: "exited with code 1", "stopped"…); `stopNote` says why a stop ended as it did (logged, not shown). */
  private gone(child: ChildProcess, desc: string, error: string | null, exit: { code: number | null; signal: string | null } | null, stopNote?: string): void {
    if (this.child !== child) return;
    live.delete(child);
    this.child = null;
    this.holdStdin?.destroy();
    this.holdStdin = null;
    this.killTimer?.cancel();
    this.killTimer = null;
    const ranMs = this.st.running ? this.o.clock.now() - this.startedAt : 0;
    this.st.running = false;
    this.st.pid = null;
    this.st.last_exit = `${desc} at ${new Date(this.o.clock.now()).toISOString()}`;
    if (error) this.st.last_error = error;
    else if (this.want && !this.runError) this.st.last_error = `${this.o.binary} ${desc}`;
    // The end of the run stays readable in the output, between its lines and the next run's.
    this.pushTail(`--- ${this.o.binary} ${desc} ---`);
    // Ended while wanted, or ended by us because its output said it could not work: a failure.
    if (this.want || this.runDiagnosis?.fatal) {
      if (ranMs >= (this.o.restart ?? TNC_RESTART).stable_ms) this.failures = 0;
      this.failures++;
      this.lastFailure = this.runDiagnosis ?? (exit ? diagnoseExit(exit) : null) ?? this.lastFailure;
    }
    this.runDiagnosis = null;
    this.emitEnd();
    const hadPty = this.st.pty_path !== null;
    this.st.pty_path = null;
    if (stopNote) log.info(`${this.o.binary} stopped (${stopNote})`);
    else log[this.want ? 'warn' : 'info'](`${this.o.binary} ${desc}`);
    if (hadPty) this.emitPty(null);
    this.exitFns.emit(desc);
    if (this.want) this.scheduleRestart();
  }

  private pushTail(line: string): void {
    const tail = this.st.output_tail;
    tail.push(line);
    if (tail.length > TAIL_LINES) tail.splice(0, tail.length - TAIL_LINES);
  }

  private line(child: ChildProcess, line: string): void {
    if (line === '') return;
    this.pushTail(line);
    log.debug(() => `tnc: ${line}`);
    if (this.child !== child) return;
    if (this.runLines.length < DIAGNOSIS_LINES) this.diagnose(child, line);
    const pty = PTY_RE.exec(line);
    if (pty) {
      this.st.pty_path = pty[1];
      if (!this.runDiagnosis) this.lastFailure = null; // came up clean
      this.emitPty(pty[1]);
      return;
    }
    if (NO_CONFIG_RE.test(line)) {
      // It would run on built-in defaults, network servers included: never let it.
      this.st.last_error = `${this.o.binary} could not read its configuration (${line}); stopped it`;
      this.runError = true;
      this.signal(child, 'SIGKILL');
      return;
    }
    if (PTT_MISSING_RE.test(line)) this.st.ptt_unavailable = true;
    if (isErrorLine(line)) {
      this.st.last_error = line;
      this.runError = true;
    }
  }

  /** Reads the run's first lines; a run that says it cannot work is ended (SIGINT: PTT dropped first). */
  private diagnose(child: ChildProcess, line: string): void {
    this.runLines.push(line);
    const d = diagnoseOutput(this.runLines);
    if (!d) return;
    const wasFatal = this.runDiagnosis?.fatal ?? false;
    this.runDiagnosis = d;
    if (!d.fatal || wasFatal) return;
    log.warn(`${this.o.binary}: ${d.summary}; ending this run`);
    this.signal(child, 'SIGINT');
    this.armKill(child, this.o.stopGraceMs ?? 3000);
    this.emitEnd();
  }

  private emitEnd(): void {
    this.endFns.emitOnce();
  }

  private emitPty(path: string | null): void {
    this.ptyFns.emit(path);
  }

  private signal(child: ChildProcess, sig: NodeJS.Signals): void {
    if (sig === 'SIGINT') this.interrupted = child;
    try {
      child.kill(sig);
    } catch {
      /* already gone */
    }
  }

  private armKill(child: ChildProcess, ms: number): void {
    if (this.killTimer) {
      // kill() after stop(): keep whichever SIGKILL comes first
      this.killTimer.cancel();
    }
    this.killTimer = this.o.clock.setTimeout(() => {
      this.killTimer = null;
      if (this.child === child) this.signal(child, 'SIGKILL');
    }, ms);
  }

  private scheduleRestart(): void {
    if (!this.want) return;
    const ms = this.retry.schedule(() => {
      if (!this.want || this.child) return;
      this.st.restarts++;
      void this.launch();
    });
    if (ms !== null) log.info(`restarting ${this.o.binary} in ${ms} ms`);
  }
}

/** Write to a temporary name in the same folder, then rename: a reader never sees half a file. */
export function writeAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text, { mode: 0o644 });
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
