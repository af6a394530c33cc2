import { CivBus, type CivTimeouts } from '../civ-bus.js';
import { IcomLanSession, type LanSessionOptions } from './lan-session.js';
import { preflight } from './preflight.js';
import type { LanTimings } from './timings.js';
import { LAN_AUDIO_RATE_HZ, LAN_CIV_TIMEOUTS, LanOpenError, endpointKey, type LanEndpoint, type LanLease, type LanLeaser } from './lan-types.js';
import type { Clock } from '../../util/clock.js';
import { logger } from '../../util/logger.js';
import { Listeners } from '../../util/listeners.js';

// One LAN session per radio, shared. The IC-705 serves one network client at a time, and radio
// control (Doppler) and APRS (PTT, audio) may both want it: the first lease opens the session
// (preflight first, then login), later leases share it, the last release closes it cleanly.
// CI-V goes through one CivBus per session, so commands from both owners queue one at a time.

const log = logger('radio:lan');

interface Entry {
  key: string;
  session: IcomLanSession;
  bus: CivBus;
  radioName: string;
  holders: Set<Holder>;
  closing: Promise<void> | null;
}
interface Holder {
  owner: string;
  lost: Listeners<string>;
}

export interface LanHubDeps {
  clock: Clock;
  civTimeouts?: CivTimeouts;
  timings?: Partial<LanTimings>;
  preflightTimeoutMs?: number;
  /** Tests point this at the emulator's session class options; production uses the defaults. */
  sessionOptions?: Partial<LanSessionOptions>;
}

export class LanHub implements LanLeaser {
  readonly name = 'lan';
  private readonly entries = new Map<string, Entry>();
  private readonly opening = new Map<string, Promise<Entry>>();

  constructor(private readonly d: LanHubDeps) {}

  /** Sessions open now, for status. */
  get openKeys(): string[] {
    return [...this.entries.keys()];
  }

  async lease(owner: string, e: LanEndpoint, rigAddr: number): Promise<LanLease> {
    const key = endpointKey(e);
    let entry = this.entries.get(key);
    if (!entry || entry.closing) {
      await entry?.closing;
      let p = this.opening.get(key);
      if (!p) {
        p = this.open(key, e, rigAddr).finally(() => this.opening.delete(key));
        this.opening.set(key, p);
      }
      entry = await p;
    }
    const holder: Holder = { owner, lost: new Listeners(log, `${owner} session lost`) };
    entry.holders.add(holder);
    const ent = entry;
    let released = false;
    return {
      key,
      session: ent.session,
      bus: ent.bus,
      radioName: ent.radioName,
      onLost: (fn) => void holder.lost.add(fn),
      release: async () => {
        if (released) return;
        released = true;
        ent.holders.delete(holder);
        if (ent.holders.size === 0 && this.entries.get(key) === ent) await this.close(ent);
      },
    };
  }

  /** Closes every session (shutdown). */
  async stop(): Promise<void> {
    await Promise.all([...this.entries.values()].map((e) => this.close(e)));
  }

  private async open(key: string, e: LanEndpoint, rigAddr: number): Promise<Entry> {
    if (!e.host) throw new LanOpenError(400, 'no_wifi_host', 'no rig address is set: enter the radio’s Wi-Fi address (wifi_host) in the settings', false);
    // Spec part 7: a short probe first; no answer means no login, no streams, nothing half set up.
    const probe = await preflight(e.host, e.port, { timeoutMs: this.d.preflightTimeoutMs });
    if (!probe.ok) throw new LanOpenError(504, 'rig_unreachable', probe.message, true);
    const session = new IcomLanSession({
      host: e.host,
      controlPort: e.port,
      username: e.username,
      password: e.password,
      clock: this.d.clock,
      timings: this.d.timings,
      audio: { sampleRate: LAN_AUDIO_RATE_HZ },
      ...this.d.sessionOptions,
    });
    const r = await session.open();
    switch (r.kind) {
      case 'open':
        break;
      case 'unreachable':
        throw new LanOpenError(504, 'rig_unreachable', r.message, true);
      case 'login_rejected':
        throw new LanOpenError(502, 'rig_login_rejected', `${r.message}: check the user name and password against the radio’s WLAN remote settings`, false);
      case 'busy':
        throw new LanOpenError(409, 'rig_busy', `${r.message}: another program (RS-BA1, wfview) holds the radio; disconnect it there first`, true);
      default:
        throw new LanOpenError(502, 'rig_lan_failed', r.message, true);
    }
    // The hub's clock, like the session's: real time in production, since the network is.
    const bus = new CivBus(session.civ, { rigAddr, timeouts: this.d.civTimeouts ?? LAN_CIV_TIMEOUTS, clock: this.d.clock });
    const entry: Entry = { key, session, bus, radioName: r.radio.name, holders: new Set(), closing: null };
    this.entries.set(key, entry);
    session.onLost((reason) => this.lost(entry, reason));
    log.info(`${r.radio.name} at ${key}: logged in`);
    return entry;
  }

  private lost(entry: Entry, reason: string): void {
    if (this.entries.get(entry.key) !== entry) return;
    this.entries.delete(entry.key);
    const why = `the LAN session with ${entry.key.slice(6)} was lost: ${reason}`;
    log.warn(why);
    entry.bus.close(new Error(why));
    const holders = [...entry.holders];
    entry.holders.clear();
    for (const h of holders) h.lost.emitOnce(why);
    void entry.session.close().catch(() => {});
  }

  private close(entry: Entry): Promise<void> {
    entry.closing ??= (async () => {
      entry.bus.close(new Error('disconnected'));
      await entry.session.close().catch((err) => log.warn(`closing ${entry.key}: ${String(err)}`));
      if (this.entries.get(entry.key) === entry) this.entries.delete(entry.key);
    })();
    return entry.closing;
  }
}
