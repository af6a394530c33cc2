import { errorMessage } from '../util/errors.js';
import { logger } from '../util/logger.js';
import { OneAtATime } from '../util/queue.js';

// Driver: the systemd notify socket (sd_notify(3)): READY=1, STOPPING=1, STATUS=…, WATCHDOG=1.
//
// Node has no datagram Unix sockets (dgram is UDP only, net is streams), so each message is sent
// by running systemd-notify(1), which ships with systemd itself. The unit sets NotifyAccess=all
// because the sender is a child of the main process, not the main process. systemd attributes a
// datagram to a unit through the sender's PID (SCM_CREDENTIALS → /proc/PID/cgroup); a sender
// that has exited and been reaped before PID 1 reads its datagram is dropped ("Cannot find unit
// for notify message"). systemd-notify (systemd ≥ 246) closes that race itself: unless given
// --no-block it follows the message with BARRIER=1 and waits (up to 5 s) until PID 1 has
// processed everything it sent. So we never pass --no-block.
//
// Messages go out one at a time in order (a READY must not overtake a STATUS, STOPPING must come
// last); while a keep-alive waits in the queue another is not added. The keep-alive timer lives
// on the event loop: a blocked loop sends nothing and systemd's watchdog restarts the service.
// Without NOTIFY_SOCKET (development, tests, npm start) every call is a no-op. Never throws.

const log = logger('system:notify');

/** What is spawned; `child_process.spawn`'s shape, narrowed to what is used. */
export type SpawnFn = (
  cmd: string,
  args: string[],
  opts: { env: NodeJS.ProcessEnv; stdio: 'ignore' },
) => { once(event: 'exit', fn: (code: number | null, signal: NodeJS.Signals | null) => void): unknown; once(event: 'error', fn: (err: Error) => void): unknown };

export interface TimerClock {
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface SdNotifyOptions {
  env?: NodeJS.ProcessEnv;
  spawn?: SpawnFn;
  clock?: TimerClock;
  pid?: number;
  /** The sender program; looked up on the environment's PATH. */
  command?: string;
  /**
   * Remove NOTIFY_SOCKET, WATCHDOG_USEC and WATCHDOG_PID from `env` once read (sd_notify's
   * unset_environment), so Dire Wolf and other children cannot talk to systemd for us.
   */
  unsetEnvironment?: boolean;
}

export interface SdNotifyStats {
  /** Messages handed to the sender and confirmed (exit 0). */
  sent: number;
  /** Sender failed to start or exited non-zero. */
  failed: number;
  /** Keep-alives queued (sent or pending). */
  keepAlives: number;
  queued: number;
}

const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

const realClock: TimerClock = {
  setInterval: (fn, ms) => {
    const t = setInterval(fn, ms);
    t.unref(); // a keep-alive never keeps the process alive by itself
    return t;
  },
  clearInterval: (h) => clearInterval(h as NodeJS.Timeout),
};

type Message = { args: string[]; keepAlive: boolean };

export class SdNotify {
  /** NOTIFY_SOCKET was set: messages are sent. */
  readonly enabled: boolean;
  /** Watchdog timeout for this process in µs (0: no watchdog asked for, or meant for another PID). */
  readonly watchdogUsec: number;
  private readonly socket: string;
  private readonly path: string;
  /** The sender's spawn: injected, or child_process's, loaded with the first message (loadSpawn()). */
  private spawnFn: SpawnFn | null;
  private spawnLoad: Promise<void> | null = null;
  private readonly clock: TimerClock;
  private readonly command: string;
  /** Unbounded like systemd's own queue: only a keep-alive repeats, and it is never queued twice. */
  private readonly queue = new OneAtATime(Number.POSITIVE_INFINITY);
  /** A WATCHDOG=1 waits in the queue (not yet handed to the sender). */
  private keepAliveWaiting = false;
  private timer: unknown = null;
  private warnedSpawn = false;
  private readonly counts = { sent: 0, failed: 0, keepAlives: 0 };

  constructor(o: SdNotifyOptions = {}) {
    const env = o.env ?? process.env;
    this.socket = env.NOTIFY_SOCKET ?? '';
    this.enabled = this.socket !== '';
    this.path = env.PATH || DEFAULT_PATH;
    const usec = Number(env.WATCHDOG_USEC ?? '');
    const wpid = env.WATCHDOG_PID;
    const pid = o.pid ?? process.pid;
    // sd_watchdog_enabled(3): WATCHDOG_PID, when set, names the process the watchdog is for.
    const forUs = wpid === undefined || wpid === '' || Number(wpid) === pid;
    this.watchdogUsec = this.enabled && forUs && Number.isFinite(usec) && usec > 0 ? Math.floor(usec) : 0;
    if (o.unsetEnvironment) {
      delete env.NOTIFY_SOCKET;
      delete env.WATCHDOG_USEC;
      delete env.WATCHDOG_PID;
    }
    this.spawnFn = o.spawn ?? null;
    this.clock = o.clock ?? realClock;
    this.command = o.command ?? 'systemd-notify';
  }

  /** Start-up finished (Type=notify): READY=1, with an optional status line. */
  ready(status?: string): void {
    this.enqueue({ args: ['--ready', ...(status ? [`--status=${clean(status)}`] : [])], keepAlive: false });
  }

  /** The service is shutting down: STOPPING=1 (and the keep-alives end). */
  stopping(status?: string): void {
    this.stopWatchdog();
    this.enqueue({ args: [...(status ? [`--status=${clean(status)}`] : []), 'STOPPING=1'], keepAlive: false });
  }

  /** A free-form status line `systemctl status` shows. */
  status(text: string): void {
    this.enqueue({ args: [`--status=${clean(text)}`], keepAlive: false });
  }

  /** Keep-alive interval in ms: half the watchdog timeout (0 when there is no watchdog). */
  get keepAliveMs(): number {
    return Math.floor(this.watchdogUsec / 2000);
  }

  /**
   * Sends WATCHDOG=1 now and then every WATCHDOG_USEC/2 from a timer on the event loop. Does
   * nothing without a watchdog for this process. Call after ready().
   */
  startWatchdog(): void {
    if (!this.watchdogUsec || this.timer !== null) return;
    this.keepAlive();
    this.timer = this.clock.setInterval(() => this.keepAlive(), Math.max(1, this.keepAliveMs));
  }

  stopWatchdog(): void {
    if (this.timer === null) return;
    this.clock.clearInterval(this.timer);
    this.timer = null;
  }

  /** One WATCHDOG=1, unless one is already waiting in the queue. */
  keepAlive(): void {
    if (!this.enabled) return;
    if (this.keepAliveWaiting) return;
    this.counts.keepAlives++;
    this.enqueue({ args: ['WATCHDOG=1'], keepAlive: true });
  }

  /** Resolves when everything queued has been sent (or failed), or after timeoutMs. */
  flush(timeoutMs = 2000): Promise<void> {
    let t: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (t = setTimeout(resolve, timeoutMs)));
    return Promise.race([this.queue.idle(), late]).finally(() => clearTimeout(t));
  }

  stats(): SdNotifyStats {
    return { ...this.counts, queued: this.queue.waiting + (this.queue.busy ? 1 : 0) };
  }

  private enqueue(m: Message): void {
    if (!this.enabled) return;
    if (m.keepAlive) this.keepAliveWaiting = true;
    void this.queue.run(() => {
      if (m.keepAlive) this.keepAliveWaiting = false;
      return this.send(m);
    });
  }

  /**
   * child_process (with net and the streams under it: ~15 ms of CPU here, a tenth of a second on
   * a Pi) is read with the first message, which comes after listen: never without systemd.
   */
  private loadSpawn(): Promise<void> {
    return (this.spawnLoad ??= import('node:child_process').then((cp) => {
      this.spawnFn = cp.spawn as unknown as SpawnFn;
    }));
  }

  /** One run of the sender; resolves when it has exited (or failed to start). Never rejects. */
  private send(m: Message): Promise<void> {
    const spawn = this.spawnFn;
    if (!spawn) return this.loadSpawn().then(() => this.send(m));
    return new Promise((resolve) => {
      let settled = false;
      const finish = (ok: boolean, why: string) => {
        if (settled) return;
        settled = true;
        if (ok) this.counts.sent++;
        else {
          this.counts.failed++;
          if (!this.warnedSpawn) {
            this.warnedSpawn = true; // once: a missing systemd-notify would otherwise log every ping
            log.warn(`${this.command} ${m.args.join(' ')}: ${why} (further failures are not logged)`);
          }
        }
        resolve();
      };
      try {
        const child = spawn(this.command, m.args, {
          // Only what the sender needs: the socket, and PATH for the lookup.
          env: { NOTIFY_SOCKET: this.socket, PATH: this.path },
          stdio: 'ignore',
        });
        child.once('error', (err) => finish(false, errorMessage(err)));
        child.once('exit', (code, signal) => finish(code === 0, signal ? `killed by ${signal}` : `exit ${code}`));
      } catch (err) {
        // spawn throws synchronously on EAGAIN/ENOMEM and bad arguments; the next message retries.
        finish(false, errorMessage(err));
      }
    });
  }
}

/** A status line is one line: newlines would start new assignments. */
function clean(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').slice(0, 200);
}
