import { RigConnection, type RigLinkEvents } from './rig-connection.js';
import { TwoRadioRig } from './two-radio-rig.js';
import { capabilitiesOf, shortRigName } from './rig-capabilities.js';
import type { LegName } from './leg-error.js';
import type { RigDriver } from './rig.js';
import type { RigLines } from './rig-line.js';
import { mainLink, type RadioSettings, type RigLink } from './settings.js';
import type { Clock } from '../util/clock.js';

// Two radios' connections, each with its own line and its own reconnect: the main rig carries the
// downlink, uplink_rig the uplink. The controller sees one rig (TwoRadioRig) while either radio
// is up, so the one still there keeps tracking when the other goes; each leg keeps its own state
// and last error for runtime.legs.

export interface LegStatus {
  rig: string;
  connected: boolean;
  last_error: string | null;
}

export interface TwoRadioEvents extends RigLinkEvents {
  /** One leg came or went while the other stays up (err: why it went). */
  leg(leg: LegName, err: string | null): void;
}

export class TwoRadioConnection {
  private readonly conns: Record<LegName, RigConnection>;
  private readonly errors: Record<LegName, string | null> = { downlink: null, uplink: null };
  /** Which legs the controller has been told are up (a line counts once its driver is initialised). */
  private readonly live: Record<LegName, boolean> = { downlink: false, uplink: false };
  /** Bumped whenever a leg's error changes, so the runtime's legs are derived again. */
  version = 0;
  readonly rig: TwoRadioRig;

  constructor(
    private readonly d: { lines: RigLines; clock: Clock; settings: () => RadioSettings },
    private readonly events: TwoRadioEvents,
  ) {
    const linkOf = (leg: LegName) => (): RigLink => (leg === 'downlink' ? mainLink(d.settings()) : (d.settings().uplink_rig ?? mainLink(d.settings())));
    const make = (leg: LegName) =>
      new RigConnection(
        { lines: d.lines, clock: d.clock, link: linkOf(leg) },
        {
          up: (_rig, initError) => this.legUp(leg, initError),
          down: (err) => this.legDown(leg, err),
        },
      );
    this.conns = { downlink: make('downlink'), uplink: make('uplink') };
    this.rig = new TwoRadioRig(
      {
        down: () => this.conns.downlink.current,
        up: () => this.conns.uplink.current,
        name: (leg) => this.name(leg),
        report: (leg, error) => {
          if (this.errors[leg] !== error) this.version++;
          this.errors[leg] = error;
        },
      },
      d.settings().rig_model,
    );
  }

  /** The pair while either radio is up. */
  get current(): RigDriver | null {
    return this.live.downlink || this.live.uplink ? this.rig : null;
  }

  /** Opens both; resolves when either opened (the other retries in the background), rejects when neither did. */
  async connect(): Promise<void> {
    const out = await Promise.allSettled([this.conns.downlink.connect(), this.conns.uplink.connect()]);
    out.forEach((r, i) => {
      if (r.status === 'rejected') this.errors[i === 0 ? 'downlink' : 'uplink'] = `cannot open: ${(r.reason as Error)?.message ?? r.reason}; retrying`;
    });
    if (out.every((r) => r.status === 'rejected')) throw (out[0] as PromiseRejectedResult).reason;
  }

  async disconnect(): Promise<void> {
    await Promise.all([this.conns.downlink.disconnect(), this.conns.uplink.disconnect()]);
    this.errors.downlink = this.errors.uplink = null;
  }

  legs(): Record<LegName, LegStatus> {
    const status = (leg: LegName): LegStatus => ({ rig: this.name(leg), connected: this.live[leg], last_error: this.errors[leg] ?? this.conns[leg].lastOpenError });
    return { downlink: status('downlink'), uplink: status('uplink') };
  }

  private name(leg: LegName): string {
    const s = this.d.settings();
    const caps = this.conns[leg].current?.capabilities ?? capabilitiesOf(leg === 'downlink' ? s : (s.uplink_rig ?? s));
    return shortRigName(caps);
  }

  private legUp(leg: LegName, initError: string | null): void {
    this.version++;
    this.errors[leg] = initError ? `${leg} radio (${this.name(leg)}): ${initError}` : null;
    const otherLive = this.live[leg === 'downlink' ? 'uplink' : 'downlink'];
    this.live[leg] = true;
    if (otherLive) this.events.leg(leg, this.errors[leg]);
    else this.events.up(this.rig, this.errors[leg]);
  }

  private legDown(leg: LegName, err: string | null): void {
    this.version++;
    const named = err ? `${leg} radio (${this.name(leg)}): ${err}` : null;
    this.errors[leg] = named;
    if (!this.live[leg]) return;
    this.live[leg] = false;
    if (this.current) this.events.leg(leg, named);
    else this.events.down(named);
  }
}
