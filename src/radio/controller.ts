import { RigConnection } from './rig-connection.js';
import { TwoRadioConnection } from './two-radio-connection.js';
import type { LegName } from './leg-error.js';
import { capabilitiesOf, restingLegs, shortRigName } from './rig-capabilities.js';
import { notConnected, rigFault } from './rig-errors.js';
import { defaultRadioRuntime, type RadioRuntime, type RuntimeCapabilities } from './types.js';
import type { Readback, RigDriver, RigPair, RigSnapshot, Vfo } from './rig.js';
import { mainLink, type RadioSettings } from './settings.js';
import type { RigLines } from './rig-line.js';
import { rigBandOf } from '../guidance/eligibility.js';
import { iso, type Clock, type Timer } from '../util/clock.js';
import { OneAtATime } from '../util/queue.js';
import { AppError, badRequest, errorMessage } from '../util/errors.js';
import { logger } from '../util/logger.js';
import { Listeners } from '../util/listeners.js';

// The rig controller: connection, the poll loop, and every write (direct VFO, pair, satellite
// extras, snapshot and restore), one operation at a time so a poll never reads a pair half
// written. Faults never escape as crashes: they land in runtime.last_error and the next poll
// or reconnect recovers. Auto-track and the session drive the rig through this class.

const log = logger('radio');

export interface ControllerDeps {
  clock: Clock;
  lines: RigLines;
  settings: () => RadioSettings;
  /** The rig went away (unplug): auto-track rewrites the whole pair once it is back. */
  onDown?: () => void;
  /** The runtime changed (every patch): the push hub's radio topic. */
  changed?: () => void;
}

const TX_VFO: Vfo = 'B';
/** A restore timed out: run once more (Controller.restore). */
const RESTORE_ATTEMPTS = 2;

/** A receive-frequency observation (readback or transceive broadcast), for knob-follow. */
export type RxObserver = (rx_hz: number, source: 'poll' | 'broadcast') => void;

export class RadioController {
  private rt: RadioRuntime = defaultRadioRuntime();
  /** The runtime whose legs are filled in, and the legs' version then (runtime() derives them once per change). */
  private legsOf: RadioRuntime | null = null;
  private legsVersion = -1;
  /** What the last readbacks said of PTT: the transmit radio, and the receive one with two radios (null: not known). */
  private readonly ptt: { rx: boolean | null; tx: boolean | null } = { rx: null, tx: null };
  private connection: RigConnection | TwoRadioConnection;
  private readonly ops = new OneAtATime(8);
  private pollTimer: Timer | null = null;
  /** 'link' faults clear when the rig answers again; 'op' faults stay until the next operation. */
  private errorKind: 'link' | 'op' | null = null;
  private readonly rxObservers = new Listeners<[rx_hz: number, source: 'poll' | 'broadcast']>(log, 'rx frequency');
  private unlisten: () => void = () => {};
  private lastRead = -Infinity;
  private polling: Promise<Readback> | null = null;

  constructor(private readonly d: ControllerDeps) {
    this.connection = this.makeConnection();
  }

  /** One radio's connection, or two radios' (uplink_rig set) as one rig. */
  private makeConnection(): RigConnection | TwoRadioConnection {
    const events = {
      up: (rig: RigDriver, initError: string | null) => this.onUp(rig, initError),
      down: (err: string | null) => this.onDown(err),
      leg: (leg: LegName, err: string | null) => this.onLeg(leg, err),
    };
    const d = this.d;
    if (d.settings().uplink_rig) return new TwoRadioConnection({ lines: d.lines, clock: d.clock, settings: d.settings }, events);
    return new RigConnection({ lines: d.lines, clock: d.clock, link: () => mainLink(d.settings()) }, events);
  }

  runtime(): RadioRuntime {
    const conn = this.connection;
    const version = conn instanceof TwoRadioConnection ? conn.version : 0;
    if (this.legsOf !== this.rt || this.legsVersion !== version) {
      const rt = this.rt;
      const t = rt.targets;
      // Two radios: each leg its own radio's state. One radio carries both sides: downlink is its
      // receive VFO (A), uplink its transmit VFO (B).
      // An uplink radio set since this connection was made names its side until the next connect
      // makes two radios' connection of it.
      const status =
        conn instanceof TwoRadioConnection
          ? conn.legs()
          : { downlink: { rig: shortRigName(rt.capabilities ?? this.capabilities()), connected: rt.connected, last_error: rt.last_error } };
      const s = this.d.settings();
      const up = 'uplink' in status ? status.uplink : s.uplink_rig ? restingLegs(s).uplink : status.downlink;
      this.rt = {
        ...rt,
        legs: {
          downlink: { ...status.downlink, freq_hz: t.vfo_a_freq_hz, mode: t.vfo_a_mode, ptt: conn instanceof TwoRadioConnection ? this.ptt.rx : this.ptt.tx },
          uplink: { ...up, freq_hz: t.vfo_b_freq_hz, mode: t.vfo_b_mode, ptt: this.ptt.tx },
        },
      };
      this.legsOf = this.rt;
      this.legsVersion = version;
    }
    return this.rt;
  }

  get rig(): RigDriver | null {
    return this.connection.current;
  }

  capabilities(): RuntimeCapabilities {
    return this.connection.current?.capabilities ?? capabilitiesOf(this.d.settings());
  }

  /** The runtime a caller may hold on to (auto-track status is patched in by its owner). */
  patch(p: Partial<RadioRuntime>): void {
    this.rt = { ...this.rt, ...p };
    // Whoever sets another control mode has taken the rig from an external client.
    if (p.control_mode !== undefined && p.control_mode !== 'external') this.rt.external_client = null;
    this.d.changed?.();
  }

  /** When the last readback that brought the rig's frequencies arrived (clock ms); -Infinity before. */
  get lastReadMs(): number {
    return this.lastRead;
  }

  fail(kind: 'link' | 'op', message: string): void {
    if (this.rt.last_error !== message) log.warn(message);
    this.errorKind = kind;
    this.patch({ last_error: message });
  }

  clearOpError(): void {
    if (this.errorKind === 'op') {
      this.errorKind = null;
      this.patch({ last_error: null });
    }
  }

  onRx(fn: RxObserver): () => void {
    return this.rxObservers.add(([hz, source]) => fn(hz, source));
  }

  // --- connection ---------------------------------------------------------------------------

  async connect(): Promise<void> {
    const s = this.d.settings();
    this.d.lines.check(mainLink(s));
    if (s.uplink_rig) this.d.lines.check(s.uplink_rig, 'uplink_rig.');
    if (!this.connection.current) {
      // Not connected: the settings may now name one radio or two, or other radios.
      await this.connection.disconnect();
      this.connection = this.makeConnection();
    }
    try {
      await this.connection.connect();
    } catch (err) {
      this.fail('link', `cannot open the rig: ${errorMessage(err)}; retrying`);
      throw rigFault(err, 'connect');
    }
  }

  async disconnect(): Promise<void> {
    await this.connection.disconnect();
    this.stopPolling();
    // The operator let go of the rig: a link fault of that connection (a radio perhaps no longer configured) is over.
    if (this.errorKind === 'link') {
      this.errorKind = null;
      this.patch({ last_error: null });
    }
    this.patch({ connected: false, control_mode: 'idle', active_sat_id: null, capabilities: this.capabilities() });
  }

  private onUp(rig: RigDriver, initError: string | null): void {
    this.patch({ connected: true, capabilities: rig.capabilities, raw_state: { ...this.rt.raw_state, selected_vfo: rig.selectedVfo() } });
    if (initError) this.fail('link', initError);
    else if (this.errorKind === 'link') this.patch({ last_error: null });
    this.unlisten = rig.watchRx((hz) => this.onBroadcast(hz));
    this.schedulePoll(0);
  }

  /** One of two radios came (err null) or went while the other stays: the pair is written whole once both are there. */
  private onLeg(leg: LegName, err: string | null): void {
    this.patch({ capabilities: this.capabilities() });
    if (err) this.fail('link', err);
    else if (this.errorKind === 'link') {
      this.errorKind = null;
      this.patch({ last_error: null });
    }
    log.info(`${leg} radio ${err ? `went away: ${err}` : 'is back'}`);
    this.d.onDown?.();
  }

  private onDown(err: string | null): void {
    this.ptt.rx = this.ptt.tx = null;
    this.unlisten();
    this.stopPolling();
    this.patch({ connected: false });
    if (err) this.fail('link', err);
    this.d.onDown?.();
  }

  // --- polling ------------------------------------------------------------------------------

  private schedulePoll(ms: number): void {
    this.pollTimer?.cancel();
    this.pollTimer = this.d.clock.setTimeout(() => {
      this.pollTimer = null;
      if (!this.rig) return;
      const interval = this.d.settings().poll_interval_ms;
      const next = () => this.rig && this.schedulePoll(interval);
      // A readback someone else asked for (a Hamlib get) since counts as this one: the rig is
      // read once per interval however many clients ask.
      const age = this.d.clock.now() - this.lastRead;
      if (age < interval) return this.schedulePoll(interval - age);
      // A busy rig (a pair being written) skips this poll rather than queueing behind it.
      if (this.ops.busy) return next();
      this.sharedPoll().then(next, next);
    }, ms);
  }

  private stopPolling(): void {
    this.pollTimer?.cancel();
    this.pollTimer = null;
  }

  /** A readback, joining the one under way if there is one (the poll loop and Hamlib gets share it). */
  sharedPoll(): Promise<Readback> {
    this.polling ??= this.poll().finally(() => (this.polling = null));
    return this.polling;
  }

  /** One readback: targets normalized, raw state, last good values kept on a partial read. */
  async poll(): Promise<Readback> {
    const rig = this.requireRig();
    const r = await this.ops.run(() => rig.read());
    const t = this.rt.targets;
    const targets = {
      vfo_a_freq_hz: r.a_freq_hz ?? t.vfo_a_freq_hz,
      vfo_b_freq_hz: r.b_freq_hz ?? t.vfo_b_freq_hz,
      vfo_a_mode: r.a?.mode ?? t.vfo_a_mode,
      vfo_b_mode: r.b?.mode ?? t.vfo_b_mode,
    };
    const raw = this.rt.raw_state;
    const raw_state = {
      selected_vfo: r.selected_vfo ?? raw.selected_vfo,
      split_enabled: r.split_enabled ?? raw.split_enabled,
      scope_enabled: r.scope_enabled ?? raw.scope_enabled,
    };
    const gotAny = r.a_freq_hz !== null || r.b_freq_hz !== null;
    if (r.ptt !== undefined) this.ptt.tx = r.ptt;
    if (r.rx_ptt !== undefined) this.ptt.rx = r.rx_ptt;
    if (gotAny) this.lastRead = this.d.clock.now();
    this.patch({ targets, raw_state, last_poll_at: gotAny ? iso(this.d.clock.now()) : this.rt.last_poll_at });
    if (r.error) this.fail('link', `poll: ${r.error}`);
    else if (this.errorKind === 'link') {
      this.errorKind = null;
      this.patch({ last_error: null });
    }
    if (r.a_freq_hz !== null) this.rxObservers.emit([r.a_freq_hz, 'poll']);
    return r;
  }

  /** The rig told us its receive frequency by itself (the operator's knob, CI-V transceive). */
  private onBroadcast(hz: number): void {
    this.patch({ targets: { ...this.rt.targets, vfo_a_freq_hz: hz } });
    this.rxObservers.emit([hz, 'broadcast']);
  }

  // --- writes -------------------------------------------------------------------------------

  requireRig(): RigDriver {
    const rig = this.rig;
    if (!rig) throw notConnected();
    return rig;
  }

  /** Runs one rig operation in turn; a fault is recorded and answered as an HTTP error. */
  async operate<T>(what: string, fn: (rig: RigDriver) => Promise<T>): Promise<T> {
    const rig = this.requireRig();
    try {
      const out = await this.ops.run(() => fn(rig));
      this.clearOpError();
      return out;
    } catch (err) {
      const e = rigFault(err, what);
      this.fail(e.code === 'rig_timeout' ? 'link' : 'op', e.message);
      throw e;
    }
  }

  /** Direct VFO write (and its mode when given), not pass-aware; the transmit VFO is still held to the bands by the guard. */
  async writeFrequency(vfo: Vfo, hz: number, mode?: string): Promise<void> {
    const rig = this.requireRig();
    if (vfo === TX_VFO) this.guardTx(hz, `VFO ${vfo} is the transmit VFO`);
    await this.operate(`write VFO ${vfo}`, (r) => r.writeVfo(vfo, hz, mode));
    const t = vfo === 'A' ? { vfo_a_freq_hz: hz, vfo_a_mode: mode ?? this.rt.targets.vfo_a_mode } : { vfo_b_freq_hz: hz, vfo_b_mode: mode ?? this.rt.targets.vfo_b_mode };
    this.patch({ targets: { ...this.rt.targets, ...t }, raw_state: { ...this.rt.raw_state, selected_vfo: rig.selectedVfo() } });
  }

  /** A pair, in the rig's write order; `satellite` adds the target extras (squelch, scope, tone). */
  async writePair(pair: RigPair, o: { satellite: boolean; tone_hz?: number | null; what: string }): Promise<void> {
    if (pair.tx_hz !== null) this.guardTx(pair.tx_hz, 'uplink');
    await this.operate(o.what, async (rig) => {
      await rig.writePair(pair);
      if (o.satellite) await rig.prepareSatellite();
      if (o.tone_hz !== undefined && pair.tx_hz !== null) await rig.setTone(o.tone_hz);
    });
    const t = { ...this.rt.targets, vfo_a_freq_hz: pair.rx_hz, vfo_a_mode: pair.rx_mode ?? this.rt.targets.vfo_a_mode };
    if (pair.tx_hz !== null) Object.assign(t, { vfo_b_freq_hz: pair.tx_hz, vfo_b_mode: pair.tx_mode ?? t.vfo_b_mode });
    this.patch({ targets: t });
  }

  /**
   * PTT off, straight to the rig (not behind a queued operation): the emergency stop must not
   * wait for a tracking step. False when no rig is connected or it did not confirm.
   */
  async pttOff(): Promise<boolean> {
    const rig = this.rig;
    if (!rig) return false;
    try {
      await rig.pttOff();
      return true;
    } catch (err) {
      this.fail('op', `PTT off failed: ${errorMessage(err)}`);
      return false;
    }
  }

  /** safe_tx_guard_enabled: a transmit frequency outside the eligibility bands is refused. */
  guardTx(hz: number, what: string): void {
    if (!this.d.settings().safe_tx_guard_enabled || rigBandOf(hz)) return;
    throw badRequest(
      `${what} ${(hz / 1e6).toFixed(3)} MHz is outside the transmit bands (VHF 144.000–148.000 or UHF 420.000–450.000 MHz); the safe transmit guard refused it`,
      { freq_hz: hz },
      'tx_guard',
    );
  }

  txAllowed(hz: number): boolean {
    return !this.d.settings().safe_tx_guard_enabled || rigBandOf(hz) !== null;
  }

  snapshot(): Promise<RigSnapshot> {
    return this.operate('capture rig snapshot', (rig) => rig.snapshot());
  }

  /**
   * Never throws: a failed restore is reported in last_error and the caller carries on. A restore
   * whose reply did not come in time is run once more first: each of its steps writes an absolute
   * value (a frequency, a mode, split on or off), so repeating it is safe, and one late or lost
   * reply on a busy bus must not leave the operator's rig on a test pair.
   */
  async restore(s: RigSnapshot | null): Promise<boolean> {
    if (!s) return true;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.operate('restore rig snapshot', (rig) => rig.restore(s));
        return true;
      } catch (err) {
        if (attempt < RESTORE_ATTEMPTS && err instanceof AppError && err.code === 'rig_timeout') continue;
        this.fail('op', `restoring the rig snapshot failed: ${errorMessage(err)}`);
        return false;
      }
    }
  }

  async start(): Promise<void> {
    this.patch({ capabilities: this.capabilities() });
    const s = this.d.settings();
    // The rig's address: its serial device on USB, its host on Wi-Fi.
    const target = s.transport === 'wifi' ? s.wifi_host : s.serial_device;
    if (s.enabled && s.auto_connect && target) await this.connect().catch(() => {}); // retries in the background
  }

  async stop(): Promise<void> {
    await this.disconnect();
  }
}
