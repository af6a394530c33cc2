import type { RadioService, RadioServiceDeps, ApplyRequest, ManualPair } from './radio-service.js';
import { restingSessionView, type SessionSelect, type SessionView, type TestPair } from './session.js';
import type { PortListing } from '../links/serial-driver.js';
import type { HamlibModelList } from './rigctld/hamlib-models.js';
import type { Vfo } from './rig.js';
import { defaultRadioRuntime, type RadioRuntime, type RadioStatusSource } from './types.js';
import type { RadioSettings } from './settings.js';
import { capabilitiesOf, restingLegs } from './rig-capabilities.js';
import type { ExternalControl, ExternalReading } from './external-control.js';
import { notConnected, radioDisabled } from './refusals.js';
import { EnabledArea } from '../util/enabled-area.js';

// Radio control as the routes, the station and the APRS side see it. The controller, the CI-V
// stack, the rig drivers, the serial binding, auto-track and the session (radio-service.ts and
// everything it imports) load when radio control is first enabled or first used, not at boot:
// a station without a rig never pays their memory. Until then the answers are the resting ones
// (not connected, no session), the same a loaded but idle radio gives (test/system/lazy-areas.test.ts).

export class RadioArea extends EnabledArea<RadioService, RadioSettings> implements RadioStatusSource {
  constructor(private readonly d: RadioServiceDeps) {
    super({
      name: 'radio',
      what: 'radio control',
      settings: d.store,
      enabled: (s) => s.enabled,
      load: async () => new (await import('./radio-service.js')).RadioService({ ...d, changed: () => this.updates.emit() }),
    });
  }

  /**
   * A session step: its view changed, even where the runtime did not (onUpdate: the runtime's news
   * are every controller patch; the session's AOS and LOS steps patch it).
   */
  private async stepped<T>(step: Promise<T>): Promise<T> {
    try {
      return await step;
    } finally {
      this.updates.emit();
    }
  }

  // --- what reads never load -----------------------------------------------------------------

  publicSettings(): RadioSettings {
    return this.d.store.publicView();
  }
  runtime(): RadioRuntime {
    if (this.current) return this.current.runtime();
    const s = this.settings();
    return { ...defaultRadioRuntime(), capabilities: capabilitiesOf(s), legs: restingLegs(s) };
  }
  session(): SessionView {
    return this.current?.session() ?? restingSessionView();
  }
  state() {
    return { settings: this.publicSettings(), runtime: this.runtime(), session: this.session() };
  }
  /** True while the pass-pinned session holds the rig; never before radio control is loaded. */
  holdsRig(): boolean {
    return this.current?.sessions.holdsRig() ?? false;
  }
  /** Serial devices on this machine: the serial binding only, not radio control. */
  listPorts(): Promise<PortListing[]> {
    return this.d.serial.list();
  }
  /** The radio models Hamlib drives on this machine (rigctl -l, run once), satellite radios first; not radio control. */
  async listRigModels(): Promise<HamlibModelList> {
    return (await import('./rigctld/hamlib-models.js')).listHamlibModels();
  }

  // --- Hamlib network clients (issue 26): never load radio control; while it is off there is no rig

  private external(): ExternalControl {
    const e = this.current;
    if (!e) throw this.settings().enabled ? notConnected() : radioDisabled();
    return e.external;
  }
  /**
   * The rig as Hamlib clients see it: two bands that receive and transmit at once ('rigB': an
   * IC-9700, or two radios) or one radio's VFOs with split ('rigA' and every other single radio).
   */
  rigModel(): 'rigA' | 'rigB' {
    const s = this.settings();
    return s.rig_model === 'rigB' || s.uplink_rig ? 'rigB' : 'rigA';
  }
  async externalRead(): Promise<ExternalReading> {
    return this.external().read();
  }
  async externalSetFrequency(vfo: Vfo, hz: number, client: string): Promise<void> {
    return this.external().setFrequency(vfo, hz, client);
  }
  async externalSetMode(vfo: Vfo, mode: string, client: string): Promise<void> {
    return this.external().setMode(vfo, mode, client);
  }
  async externalSetSplit(on: boolean, client: string): Promise<void> {
    return this.external().setSplit(on, client);
  }
  async externalSetPtt(on: boolean, client: string): Promise<void> {
    return this.external().setPtt(on, client);
  }
  async externalReadPtt(): Promise<boolean> {
    return this.external().readPtt();
  }
  externalRelease(client: string): void {
    this.current?.external.release(client);
  }
  /** The emergency stop's share: PTT off and external control dropped; loads nothing. */
  async dropExternal(): Promise<void> {
    await this.current?.external.drop();
  }

  // --- what acts loads it --------------------------------------------------------------------

  async connect(): Promise<void> {
    if (!this.settings().enabled) throw radioDisabled();
    await (await this.engine()).connect();
  }
  async disconnect(): Promise<void> {
    await this.current?.disconnect();
  }
  /** Drops PTT over CI-V (APRS emergency stop); false when no rig answers, or none was ever loaded. */
  async pttOff(): Promise<boolean> {
    return this.current?.pttOff() ?? false;
  }
  async poll() {
    return (await this.engine()).poll();
  }
  async writeFrequency(vfo: Vfo, freq_hz: number) {
    return (await this.engine()).writeFrequency(vfo, freq_hz);
  }
  async writePair(p: ManualPair) {
    return (await this.engine()).writePair(p);
  }
  async apply(b: ApplyRequest) {
    return (await this.engine()).apply(b);
  }
  async startAutoTrack(sat_id: string, interval_ms: number | undefined, column?: number) {
    return (await this.engine()).startAutoTrack(sat_id, interval_ms, column);
  }
  /** Nothing tracks before radio control is loaded, so there is nothing to stop. */
  stopAutoTrack(): void {
    this.current?.stopAutoTrack();
  }
  async restore(): Promise<boolean> {
    return (await this.engine()).restore();
  }
  async selectSession(b: SessionSelect): Promise<SessionView> {
    return this.stepped(this.engine().then((e) => e.selectSession(b)));
  }
  async setTestPair(p: Omit<TestPair, 'source' | 'ctcss_hz'> | null): Promise<SessionView> {
    return this.stepped(this.engine().then((e) => e.setTestPair(p)));
  }
  async testSession(): Promise<SessionView> {
    return this.stepped(this.engine().then((e) => e.sessions.test()));
  }
  async confirmTest(): Promise<void> {
    await this.stepped(this.engine().then((e) => e.sessions.confirm()));
  }
  async startSession(): Promise<void> {
    await this.stepped(this.engine().then((e) => e.sessions.start()));
  }
  async stopSession(): Promise<void> {
    await this.stepped(this.engine().then((e) => e.sessions.stop()));
  }
  async clearSession(): Promise<void> {
    await this.stepped(this.engine().then((e) => e.sessions.clear()));
  }
}
