import type { AprsSettings } from './settings.js';
import type { HeardStations, RecentPackets } from './heard.js';
import type { AprsLog } from './log/aprs-log.js';
import { decodeAx25, encodeAx25, formatAddress, parseAddress, type Ax25Frame } from './codec/ax25.js';
import { toTnc2, infoText } from './codec/tnc2.js';
import { decodeAprs, summarize, type AprsDecoded } from './codec/aprs-decode.js';
import { decideDigipeat } from './digipeater.js';
import { DedupeWindow, dupeKey } from './dedupe.js';
import { gateToIs } from './igate/is-rules.js';
import type { StationIdentity } from '../ham/callsign.js';
import { iso, type Clock } from '../util/clock.js';
import { errorMessage } from '../util/errors.js';
import { logger } from '../util/logger.js';

// The receive path: one AX.25 frame from the TNC → decoded → recent packets, heard stations,
// the stored log → digipeater → iGate. A malformed frame is counted and dropped; nothing in
// here may throw back into the transport.

const log = logger('aprs:rx');

export interface ReceiveCounters {
  rx: number;
  tx: number;
  digipeated: number;
  igated: number;
  dropped_policy: number;
  dropped_duplicate: number;
  /** Drops by reason (digipeater policy, undecodable frames, iGate rules). */
  by_reason: Record<string, number>;
  last_packet_at: string | null;
}

export interface ReceiverDeps {
  clock: Clock;
  settings(): AprsSettings;
  identity(): StationIdentity;
  recent: RecentPackets;
  heard: HeardStations;
  counters: ReceiveCounters;
  log: AprsLog;
  digipeaterActive(): boolean;
  transmit(ax25: Uint8Array): boolean;
  igate: { send(line: string): boolean };
  igateActive(): boolean;
}

const MAX_REASONS = 32;

export class AprsReceiver {
  private readonly dedupe: DedupeWindow;

  constructor(private readonly d: ReceiverDeps) {
    this.dedupe = new DedupeWindow(d.settings().digipeater.dedupe_window_s * 1000);
  }

  private drop(reason: string): void {
    const r = this.d.counters.by_reason;
    if (r[reason] !== undefined || Object.keys(r).length < MAX_REASONS) r[reason] = (r[reason] ?? 0) + 1;
  }

  receive(bytes: Uint8Array): void {
    try {
      this.handle(bytes);
    } catch (err) {
      // A bug here must not take down the transport: count it and carry on.
      this.drop('receive_error');
      log.warn(`receive path: ${errorMessage(err)}`);
    }
  }

  private handle(bytes: Uint8Array): void {
    const dec = decodeAx25(bytes);
    if (!dec.ok) return this.drop('undecodable');
    const f = dec.frame;
    const now = this.d.clock.now();
    const at = iso(now);
    const c = this.d.counters;
    c.rx++;
    c.last_packet_at = at;
    const source = formatAddress(f.source);
    const destination = formatAddress(f.destination);
    const path = f.path.map((a) => formatAddress(a, true));
    const info = infoText(f.info);
    const aprs = decodeAprs({ source, destination, path, info });
    const summary = summarize(aprs, info);
    const me = this.d.identity();
    const isMessage = aprs.kind === 'message' || aprs.kind === 'ack' || aprs.kind === 'reject';
    const addressee = isMessage ? (aprs as Extract<AprsDecoded, { addressee: string }>).addressee.trim() : null;
    const tnc2 = toTnc2(f);
    this.d.recent.add({
      at,
      direction: 'rx',
      source,
      destination,
      path,
      tnc2,
      kind: aprs.kind,
      summary,
      message: isMessage,
      addressee,
      to_us: addressee !== null && addressee.toUpperCase() === me.callsign,
    });
    this.d.heard.hear({
      // A third-party packet (}) was heard from its relay but is the originator's.
      callsign: aprs.third_party?.source ?? source,
      at,
      kind: aprs.kind,
      summary,
      lat: 'lat' in aprs && typeof aprs.lat === 'number' ? aprs.lat : null,
      lon: 'lon' in aprs && typeof aprs.lon === 'number' ? aprs.lon : null,
      direct: f.path.every((a) => !a.repeated),
    });
    const s = this.d.settings();
    if (s.log_enabled) {
      this.d.log.append({ received_at: at, source, destination, text: aprs.kind === 'message' ? aprs.text : info, message: isMessage });
    }
    this.dedupe.setWindow(s.digipeater.dedupe_window_s * 1000);
    const duplicate = this.dedupe.seen(dupeKey(f), now);
    if (this.d.digipeaterActive()) this.digipeat(f, s, me, duplicate);
    if (this.d.igateActive() && !duplicate) this.gate(source, destination, path, info, s, me);
  }

  private digipeat(f: Ax25Frame, s: AprsSettings, me: StationIdentity, duplicate: boolean): void {
    const myCall = parseAddress(me.callsign);
    if (!myCall) return;
    const digi = s.digipeater;
    const decision = decideDigipeat(f, {
      myCall,
      aliases: digi.aliases,
      maxHops: digi.max_hops,
      allowlist: digi.callsign_allowlist,
      blocklist: digi.path_blocklist,
    });
    if (decision.action === 'ignore') return;
    const c = this.d.counters;
    // A duplicate that we would have repeated is the flood the window exists for.
    if (duplicate) {
      c.dropped_duplicate++;
      return;
    }
    if (decision.action === 'drop') {
      c.dropped_policy++;
      this.drop(`digi_${decision.reason}`);
      return;
    }
    if (!this.d.transmit(encodeAx25(decision.frame))) return this.drop('digi_link_down');
    c.digipeated++;
    const at = iso(this.d.clock.now());
    this.d.recent.add({
      at,
      direction: 'digi',
      source: formatAddress(decision.frame.source),
      destination: formatAddress(decision.frame.destination),
      path: decision.frame.path.map((a) => formatAddress(a, true)),
      tnc2: toTnc2(decision.frame),
      kind: 'digipeated',
      summary: `digipeated via ${decision.via}`,
      message: false,
      addressee: null,
      to_us: false,
    });
  }

  private gate(source: string, destination: string, path: string[], info: string, s: AprsSettings, me: StationIdentity): void {
    // Satellite packets are what we heard through the bird: gated only when the operator allows.
    if (s.operating_mode === 'satellite' ? !s.igate.gate_satellite_rx : !s.igate.gate_terrestrial_rx) return;
    const call = s.igate.login_callsign || me.callsign;
    const g = gateToIs({ source, destination, path, info }, call, { qConstruct: 'qAR' });
    if (!g.gate) return this.drop(`igate_${g.reason.replace(/[^a-z0-9]+/gi, '_').toLowerCase().slice(0, 40)}`);
    if (this.d.igate.send(g.line)) this.d.counters.igated++;
  }
}

