import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { constants } from 'node:os';
import type { Clock } from '../../util/clock.js';
import { Listeners } from '../../util/listeners.js';
import { logger } from '../../util/logger.js';

// Driver: one rigctld process the station runs itself (the sidecar), and nothing else: start it,
// keep the last lines it printed, tell when it ends, stop it. Opening the radio through it, and
// what its failures mean to the operator, are hamlib-line.ts's.
//
// No rigctld outlives the station, however the station ends: rigctld runs under a small /bin/sh
// watchdog that holds a pipe from this process. When the pipe closes (stop(), or this process
// dying in any way, SIGKILL included, since the kernel closes its descriptors) the watchdog sends
// rigctld SIGTERM. stop() then waits for the watchdog to see rigctld gone, and after a grace kills
// the whole process group (sh and rigctld: detached, they have one of their own).

const log = logger('radio:rigctld');

export const TAIL_LINES = 20;
const TAIL_LINE_CHARS = 300;

/**
 * $1… is rigctld's command line. fd 3 keeps this process's pipe (a background list's stdin is
 * /dev/null in sh); rigctld gets neither it nor a terminal. The first line out is rigctld's pid.
 */
const WATCHDOG =
  'exec 3<&0; "$@" </dev/null 3<&- & p=$!; echo "pid $p"; (read _ <&3; kill "$p" 2>/dev/null) & w=$!; wait "$p"; s=$?; kill "$w" 2>/dev/null; exit "$s"';

/** How a run ended: sh's status is rigctld's, 128 + n when signal n ended it, 127 when sh found no such program, 126 when it cannot run it. */
export interface RigctldExit {
  code: number | null;
  /** "exited with code 2", "killed by SIGKILL", "not found". */
  desc: string;
}

export function describeExit(code: number | null, signal: NodeJS.Signals | null): RigctldExit {
  if (signal) return { code, desc: `killed by ${signal}` };
  if (code === 127) return { code, desc: 'not found' };
  if (code === 126) return { code, desc: 'not executable' };
  if (code !== null && code > 128) {
    const name = Object.entries(constants.signals).find(([, n]) => n === code - 128)?.[0];
    return { code, desc: `killed by ${name ?? `signal ${code - 128}`}` };
  }
  return { code, desc: `exited with code ${code}` };
}

/** A TCP port on 127.0.0.1 nobody listens on now (rigctld binds it next; a race lost makes it exit, and the open is retried). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface RigctldProcessOptions {
  /** The rigctld program: a name looked up on PATH, or a path. */
  program: string;
  args: string[];
  clock: Clock;
  /** stop(): SIGTERM, then SIGKILL after this long. */
  graceMs?: number;
}

export class RigctldProcess {
  /** rigctld's own pid, once the watchdog said it; null before, or when it never started. */
  pid: number | null = null;
  private readonly tail: string[] = [];
  private readonly exitFns = new Listeners<RigctldExit>(log, 'rigctld exit');
  private exitedWith: RigctldExit | null = null;
  private readonly exited: Promise<RigctldExit>;
  private readonly child: ChildProcess;

  constructor(private readonly o: RigctldProcessOptions) {
    this.child = spawn('/bin/sh', ['-c', WATCHDOG, 'rigctld-watchdog', o.program, ...o.args], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    this.child.stdin!.on('error', () => {});
    lines(this.child.stdout!, (l) => {
      const m = /^pid (\d+)$/.exec(l);
      if (m && this.pid === null) this.pid = Number(m[1]);
      else this.keep(l);
    });
    lines(this.child.stderr!, (l) => this.keep(l));
    this.exited = new Promise((resolve) => {
      // A failed spawn (no sh) has no exit event; 'close' also waits for the output to be read.
      this.child.once('error', (err) => this.end({ code: null, desc: `cannot start: ${err.message}` }, resolve));
      this.child.once('close', (code, signal) => this.end(describeExit(code, signal), resolve));
    });
    log.info(`starting ${[o.program, ...o.args].join(' ')}`);
  }

  /** The last lines rigctld printed (stdout and stderr), oldest first. */
  output(): string[] {
    return [...this.tail];
  }

  get exit(): RigctldExit | null {
    return this.exitedWith;
  }

  /** Once, when the run ends (at once if it has). */
  onExit(fn: (e: RigctldExit) => void): () => void {
    if (this.exitedWith) {
      fn(this.exitedWith);
      return () => {};
    }
    return this.exitFns.add(fn);
  }

  /** SIGTERM (the watchdog's, on the pipe's end), SIGKILL to the group after the grace; resolves when it is gone. */
  async stop(): Promise<void> {
    if (this.exitedWith) return;
    this.child.stdin!.end();
    const timer = this.o.clock.setTimeout(() => {
      log.warn(`rigctld did not end within ${this.o.graceMs ?? 2000} ms of SIGTERM: SIGKILL`);
      try {
        process.kill(-this.child.pid!, 'SIGKILL');
      } catch {
        /* gone meanwhile */
      }
    }, this.o.graceMs ?? 2000);
    await this.exited;
    timer.cancel();
  }

  private keep(line: string): void {
    if (line === '') return;
    this.tail.push(line.slice(0, TAIL_LINE_CHARS));
    if (this.tail.length > TAIL_LINES) this.tail.shift();
    log.debug(() => `rigctld: ${line}`);
  }

  private end(e: RigctldExit, resolve: (e: RigctldExit) => void): void {
    if (this.exitedWith) return;
    this.exitedWith = e;
    log.info(`rigctld ${e.desc}`);
    resolve(e);
    this.exitFns.emitOnce(e);
  }
}

/** Calls fn with each line of a text stream (CR and trailing blanks dropped). */
function lines(stream: NodeJS.ReadableStream, fn: (line: string) => void): void {
  let part = '';
  stream.setEncoding('utf8');
  stream.on('data', (s: string) => {
    const all = (part + s).split('\n');
    part = all.pop()!.slice(-TAIL_LINE_CHARS * 4);
    for (const l of all) fn(l.replace(/\r/g, '').trimEnd());
  });
  stream.on('end', () => part && fn(part.trimEnd()));
}
