import { CivBus, type CivTimeouts } from './civ-bus.js';
import { Ic705Driver } from './rig-ic705.js';
import { Ic9700Driver } from './rig-ic9700.js';
import type { RigDriver } from './rig.js';
import type { RadioSettings } from './settings.js';
import type { SerialConnection, SerialDriver } from './link/serial-driver.js';
import type { Clock, Timer } from '../util/clock.js';
import { backoffMs } from '../util/queue.js';
import { errorMessage } from '../util/errors.js';
import { logger } from '../util/logger.js';

// The rig's connection: open the serial device, build the CI-V bus and the model's driver, and
// when the device goes away (USB unplug) keep trying to reopen it with capped backoff, on the
// injected clock, until disconnect() says stop.

const log = logger('radio:link');

/** Reconnect timing: first retry after base, doubling to max. */
export const RECONNECT = { base_ms: 500, max_ms: 10_000 } as const;

export interface RigLinkEvents {
  /** The port is open and the driver initialised (or init failed: error set, rig still usable). */
  up(rig: RigDriver, initError: string | null): void;
  /** The port went away (err) or we closed it (null). */
  down(err: string | null): void;
}

export function driverFor(model: RadioSettings['rig_model'], bus: CivBus): RigDriver {
  return model === 'rigB' ? new Ic9700Driver(bus) : new Ic705Driver(bus);
}

export const civAddressByte = (s: string): number => parseInt(s.slice(2), 16);

export class RigLink {
  private conn: SerialConnection | null = null;
  private rig: RigDriver | null = null;
  private want = false;
  private attempt = 0;
  private retry: Timer | null = null;
  private opening: Promise<void> | null = null;
  /** Why the last open failed, for the runtime while we retry. */
  lastOpenError: string | null = null;

  constructor(
    private readonly d: { serial: SerialDriver; clock: Clock; settings: () => RadioSettings; timeouts?: CivTimeouts },
    private readonly events: RigLinkEvents,
  ) {}

  get current(): RigDriver | null {
    return this.rig;
  }
  get wanted(): boolean {
    return this.want;
  }

  /** Opens now; on failure keeps retrying in the background and rejects with the reason. */
  async connect(): Promise<void> {
    this.want = true;
    this.attempt = 0;
    this.cancelRetry();
    if (this.rig) return;
    await this.open();
  }

  async disconnect(): Promise<void> {
    this.want = false;
    this.cancelRetry();
    await this.opening?.catch(() => {});
    const conn = this.conn;
    this.drop(null);
    await conn?.close();
  }

  private open(): Promise<void> {
    this.opening ??= this.tryOpen().finally(() => (this.opening = null));
    return this.opening;
  }

  private async tryOpen(): Promise<void> {
    const s = this.d.settings();
    if (!s.serial_device) throw new Error('no serial device is set in the radio settings');
    let conn: SerialConnection;
    try {
      conn = await this.d.serial.open(s.serial_device, s.baud_rate);
    } catch (err) {
      this.lastOpenError = errorMessage(err);
      this.scheduleRetry();
      throw err;
    }
    if (!this.want) {
      await conn.close();
      return;
    }
    this.lastOpenError = null;
    this.attempt = 0;
    const bus = new CivBus(conn, { rigAddr: civAddressByte(s.civ_address), timeouts: this.d.timeouts });
    const rig = driverFor(s.rig_model, bus);
    this.conn = conn;
    this.rig = rig;
    conn.onClose((err) => {
      if (this.conn !== conn) return;
      log.warn(`${conn.path} went away: ${err ? err.message : 'closed'}`);
      this.drop(err ? `serial device ${conn.path} went away (${err.message}); reconnecting` : null);
      if (this.want) this.scheduleRetry();
    });
    let initError: string | null = null;
    try {
      await rig.init();
    } catch (err) {
      initError = `the rig did not answer on ${conn.path}: ${errorMessage(err)}`;
    }
    log.info(`${rig.capabilities.radio} on ${conn.path} at ${s.baud_rate} baud${initError ? ` (${initError})` : ''}`);
    if (this.rig === rig) this.events.up(rig, initError);
  }

  private drop(err: string | null): void {
    const had = this.rig !== null;
    this.rig?.bus.close(new Error(err ?? 'disconnected'));
    this.rig = null;
    this.conn = null;
    if (had) this.events.down(err);
  }

  private scheduleRetry(): void {
    if (!this.want || this.retry) return;
    const ms = backoffMs(this.attempt++, RECONNECT.base_ms, RECONNECT.max_ms);
    this.retry = this.d.clock.setTimeout(() => {
      this.retry = null;
      if (this.want && !this.rig) this.open().catch(() => {});
    }, ms);
  }

  private cancelRetry(): void {
    this.retry?.cancel();
    this.retry = null;
  }
}
