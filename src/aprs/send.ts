import type { AprsSettings } from './settings.js';
import type { AprsTarget } from './schemas.js';
import type { RecentPackets } from './heard.js';
import type { ReceiveCounters } from './receive.js';
import { APRS_TOCALL, applyFudge, encodeMessage, encodePosition, encodeStatus, type EncodeResult } from './codec/aprs-encode.js';
import { encodeAx25, parseAddress, type Ax25Address, type Ax25Frame } from './codec/ax25.js';
import { toTnc2, infoBytes } from './codec/tnc2.js';
import type { StationIdentity } from '../ham/callsign.js';
import { iso, type Clock } from '../util/clock.js';
import { badRequest } from '../util/errors.js';

// Sends: message, status, position. Each passes the transmit gate (the target's can_transmit),
// the connection, and the flood guard, then is encoded and handed to the transport. A blocked
// send is not an HTTP error: the answer says sent false and why (spec part 7).

/**
 * Flood guard: the least time between two of our own transmissions on one target. Satellites are
 * stricter: a digipeater overhead is shared by a continent for ten minutes, so one packet a
 * minute (the usual ISS APRS etiquette) leaves room for everyone.
 */
export const MIN_TX_INTERVAL_MS = { terrestrial: 10_000, satellite: 60_000 } as const;

export type SendKind = 'message' | 'status' | 'position';

export interface SendResult {
  sent: boolean;
  tx_block_reason: string | null;
  packet_type: SendKind;
  raw_tnc2: string | null;
}

export interface SenderDeps {
  clock: Clock;
  settings(): AprsSettings;
  identity(): StationIdentity;
  location(): { lat: number; lon: number };
  recent: RecentPackets;
  counters: ReceiveCounters;
  transmit(ax25: Uint8Array): boolean;
}

/** House symbol on the primary table: a fixed station; portable operators change it later. */
const SYMBOL = { table: '/', code: '-' };

export class AprsSender {
  private last = { at_ms: 0, target: '', type: null as string | null, text: null as string | null, raw: null as string | null };
  private msgSeq: number;

  constructor(private readonly d: SenderDeps) {
    // Message numbers restart from the clock so a restart does not reuse recent ones.
    this.msgSeq = Math.floor(d.clock.now() / 1000) % 90_000;
  }

  lastTx() {
    return {
      last_tx_at: this.last.at_ms ? iso(this.last.at_ms) : null,
      last_tx_packet_type: this.last.type,
      last_tx_text: this.last.text,
      last_tx_raw_tnc2: this.last.raw,
    };
  }

  private key(t: AprsTarget): string {
    return `${t.operating_mode}/${t.sat_id ?? ''}/${t.channel_id ?? ''}`;
  }

  /** When the flood guard lets the next send go on this target (null: now). */
  nextAllowedAt(t: AprsTarget): string | null {
    const at = this.nextAllowedMs(t);
    return at > this.d.clock.now() ? iso(at) : null;
  }

  private nextAllowedMs(t: AprsTarget): number {
    if (!this.last.at_ms || this.last.target !== this.key(t)) return 0;
    return this.last.at_ms + MIN_TX_INTERVAL_MS[t.operating_mode];
  }

  private encode(kind: SendKind, body: { to?: string; text?: string; comment?: string }): EncodeResult & { shown?: string } {
    const s = this.d.settings();
    if (kind === 'message') {
      const to = (body.to ?? '').trim().toUpperCase();
      this.msgSeq = (this.msgSeq % 99_999) + 1;
      return { ...encodeMessage({ addressee: to, text: body.text ?? '', msgId: String(this.msgSeq) }), shown: `to ${to}: ${body.text ?? ''}` };
    }
    if (kind === 'status') return { ...encodeStatus(body.text ?? ''), shown: body.text ?? '' };
    const loc = this.d.location();
    const f = applyFudge(loc.lat, loc.lon, s.position_fudge_lat_deg, s.position_fudge_lon_deg);
    const comment = body.comment ?? (s.operating_mode === 'satellite' ? s.satellite_beacon_comment : s.terrestrial_beacon_comment);
    return { ...encodePosition({ lat: f.lat, lon: f.lon, symbolTable: SYMBOL.table, symbolCode: SYMBOL.code, comment, messaging: true }), shown: comment };
  }

  send(kind: SendKind, body: { to?: string; text?: string; comment?: string }, target: AprsTarget, path: string, blocked: string | null): SendResult {
    // Bad input is the caller's mistake: a 400 before any gate is looked at.
    const enc = this.encode(kind, body);
    if (!enc.ok) throw badRequest(`cannot encode the ${kind}: ${enc.error}`, { field: kind === 'message' ? 'text' : kind === 'status' ? 'text' : 'comment' }, 'bad_packet');
    const no = (reason: string): SendResult => ({ sent: false, tx_block_reason: reason, packet_type: kind, raw_tnc2: null });
    if (!target.can_transmit) return no(target.tx_block_reason ?? 'transmit not allowed');
    if (blocked) return no(blocked);
    const now = this.d.clock.now();
    const next = this.nextAllowedMs(target);
    if (now < next) return no(`flood guard: one transmission per ${MIN_TX_INTERVAL_MS[target.operating_mode] / 1000} s on this target; next at ${iso(next)}`);
    const id = this.d.identity();
    const source = parseAddress(id.callsign);
    const dest = parseAddress(APRS_TOCALL);
    const digis = path ? path.split(',').map((p) => parseAddress(p)) : [];
    if (!source || !dest || digis.some((x) => x === null)) return no(`path or callsign cannot be encoded: ${id.callsign} via ${path}`);
    const frame: Ax25Frame = { destination: dest, source, path: digis as Ax25Address[], control: 0x03, pid: 0xf0, info: infoBytes(enc.info) };
    const raw = toTnc2(frame);
    if (!this.d.transmit(encodeAx25(frame))) return no('the TNC link is down');
    this.last = { at_ms: now, target: this.key(target), type: kind, text: enc.shown ?? enc.info, raw };
    this.d.counters.tx++;
    this.d.recent.add({
      at: iso(now),
      direction: 'tx',
      source: id.callsign,
      destination: APRS_TOCALL,
      path: path ? path.split(',') : [],
      tnc2: raw,
      kind: kind === 'message' ? 'message' : kind,
      summary: `${kind} ${enc.shown ?? ''}`.trim(),
      message: kind === 'message',
      addressee: kind === 'message' ? (body.to ?? '').trim().toUpperCase() : null,
      to_us: false,
    });
    return { sent: true, tx_block_reason: null, packet_type: kind, raw_tnc2: raw };
  }
}
