import type { RigDriver } from './rig.js';
import type { RigLink } from './settings.js';
import { isFinal } from './civ-line.js';
import type { RigLine, RigLines } from './rig-line.js';
import type { Clock } from '../util/clock.js';
import { Reconnect } from '../util/reconnect.js';
import { RECONNECT } from './reconnect.js';
import { errorMessage } from '../util/errors.js';
import { logger } from '../util/logger.js';

// One radio's connection: open its line (CI-V on a serial device or the IC-705's LAN session,
// Yaesu CAT, a rigctld) with the model's driver, and when the line goes away (USB unplug, radio
// out of Wi-Fi range, rigctld gone) keep trying to reopen it with capped backoff, on the injected
// clock, until disconnect() says stop.

const log = logger('radio:link');

/** Reconnect timing: first retry after base, doubling to max. */
export interface RigLinkEvents {
  /** The line is open and the driver initialised (or init failed: error set, rig still usable). */
  up(rig: RigDriver, initError: string | null): void;
  /** The line went away (err) or we closed it (null). */
  down(err: string | null): void;
}

export class RigConnection {
  private line: RigLine | null = null;
  private rig: RigDriver | null = null;
  private want = false;
  private readonly retry: Reconnect;
  private opening: Promise<void> | null = null;
  /** Why the last open failed, for the runtime while we retry. */
  lastOpenError: string | null = null;

  constructor(
    private readonly d: { lines: RigLines; clock: Clock; link: () => RigLink },
    private readonly events: RigLinkEvents,
  ) {
    this.retry = new Reconnect(d.clock, RECONNECT);
  }

  get current(): RigDriver | null {
    return this.rig;
  }
  get wanted(): boolean {
    return this.want;
  }

  /** Opens now; on failure keeps retrying in the background and rejects with the reason. */
  async connect(): Promise<void> {
    this.want = true;
    this.retry.reset();
    this.retry.cancel();
    if (this.rig) return;
    await this.open();
  }

  async disconnect(): Promise<void> {
    this.want = false;
    this.retry.cancel();
    await this.opening?.catch(() => {});
    const line = this.line;
    this.drop(null);
    await line?.close();
  }

  private open(): Promise<void> {
    this.opening ??= this.tryOpen().finally(() => (this.opening = null));
    return this.opening;
  }

  private async tryOpen(): Promise<void> {
    const s = this.d.link();
    let line: RigLine;
    try {
      line = await this.d.lines.open(s);
    } catch (err) {
      this.lastOpenError = errorMessage(err);
      // A wrong password or an unsupported setting: retrying only hammers the radio.
      if (isFinal(err)) this.want = false;
      else this.scheduleRetry();
      throw err;
    }
    if (!this.want) {
      await line.close();
      return;
    }
    this.lastOpenError = null;
    this.retry.up();
    const rig = line.rig;
    this.line = line;
    this.rig = rig;
    line.onLost((why) => {
      if (this.line !== line) return;
      log.warn(`${line.label} went away: ${why}`);
      this.drop(`${why}; reconnecting`);
      void line.close().catch(() => {});
      if (this.want) this.scheduleRetry();
    });
    let initError: string | null = null;
    try {
      await rig.init();
    } catch (err) {
      initError = `the rig did not answer on ${line.label}: ${errorMessage(err)}`;
    }
    log.info(`${rig.capabilities.radio} on ${line.label}${s.transport === 'usb' ? ` at ${s.baud_rate} baud` : ''}${initError ? ` (${initError})` : ''}`);
    if (this.rig === rig) this.events.up(rig, initError);
  }

  private drop(err: string | null): void {
    const had = this.rig !== null;
    this.rig = null;
    this.line = null;
    if (had) this.events.down(err);
  }

  private scheduleRetry(): void {
    if (!this.want) return;
    this.retry.schedule(() => {
      if (this.want && !this.rig) this.open().catch(() => {});
    });
  }
}
