import { rigBandOf } from '../eligibility.js';
import type { Passband } from '../columns.js';
import type { Transmitter } from './record.js';
import { listenRank, rigModeFor } from './rig-mode.js';

// The selection rules: from one satellite's active transmitter records, the best linear
// transponder, the best two-way FM voice channel, and the best downlink to listen to.

export type { Passband } from '../columns.js';

export interface FmCandidate {
  kind: 'fm';
  uplink_hz: number;
  downlink_hz: number;
  ctcss_hz?: number;
  source: string;
  score: number;
}

export interface LinearCandidate {
  kind: 'linear';
  passband: Passband;
  source: string;
  score: number;
}

export interface DownlinkCandidate {
  kind: 'downlink';
  downlink_hz: number;
  rig_mode: string;
  baud: number | null;
  description: string;
  source: string;
  score: number;
}

export type Candidate = FmCandidate | LinearCandidate | DownlinkCandidate;

const crossBand = (up: number, down: number) => (up >= 400e6) !== (down >= 400e6);
const rigUsable = (up: number, down: number) => (rigBandOf(up) ? 1 : 0) + (rigBandOf(down) ? 1 : 0);
const sourceOf = (t: Transmitter) => `satnogs ${t.uuid} "${t.description}"`;

/** A record counts when SatNOGS says it is active and alive. */
export const isActive = (t: Transmitter) => t.status === 'active' && t.alive;

/** Centre of a record's downlink (a transponder's passband centre, else the single frequency). */
export function downlinkCentreHz(t: Transmitter): number | null {
  if (!t.downlink_low) return null;
  return t.downlink_high ? Math.round((t.downlink_low + t.downlink_high) / 2) : t.downlink_low;
}

function ctcssIn(text: string): number | undefined {
  if (/no ctcss/i.test(text)) return undefined;
  const m = /CTCSS\s*(\d+(?:\.\d+)?)/i.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** Highest score; the first record wins a tie, so the data order decides and the result is stable. */
function best<T extends { score: number }>(list: T[]): T | null {
  return list.length ? list.reduce((a, b) => (b.score > a.score ? b : a)) : null;
}

/** A two-frequency FM voice channel (repeater), not a simplex digipeater or telemetry. */
export function bestFm(tx: readonly Transmitter[]): FmCandidate | null {
  return best(
    tx
      .filter((t) => (t.mode === 'FM' || t.mode === 'FMN') && t.uplink_low && t.downlink_low && !t.uplink_high && !t.downlink_high)
      .filter((t) => t.uplink_low !== t.downlink_low && !/aprs|digi|sstv|imag/i.test(t.description))
      .map((t) => ({
        kind: 'fm' as const,
        uplink_hz: t.uplink_low!,
        downlink_hz: t.downlink_low!,
        ctcss_hz: ctcssIn(t.description),
        source: sourceOf(t),
        score: (crossBand(t.uplink_low!, t.downlink_low!) ? 4 : 0) + (/repeater|transponder|voice/i.test(t.description) ? 2 : 0) + rigUsable(t.uplink_low!, t.downlink_low!),
      })),
  );
}

/** A linear passband on both sides. Prefers the rig's bands, then SSB over CW-only records, then width. */
export function bestLinear(tx: readonly Transmitter[]): LinearCandidate | null {
  const list: LinearCandidate[] = [];
  for (const t of tx) {
    if (t.type !== 'Transponder' || !t.uplink_low || !t.uplink_high || !t.downlink_low || !t.downlink_high) continue;
    const width = t.uplink_high - t.uplink_low;
    if (!(width > 0)) continue;
    list.push({
      kind: 'linear',
      passband: { uplink_low_hz: t.uplink_low, uplink_high_hz: t.uplink_high, downlink_low_hz: t.downlink_low, downlink_high_hz: t.downlink_high, inverting: t.invert },
      source: sourceOf(t),
      score: rigUsable(t.uplink_low, t.downlink_low) * 4 + (/SB/.test(`${t.mode} ${t.uplink_mode}`) ? 2 : 0) + width / 1e9,
    });
  }
  return best(list);
}

/**
 * The downlink to listen to when there is nothing two-way: in a rig band, with a rig mode.
 * CW beacons first (heard by ear on any rig), then FM/SSB voice-like, then data; an Amateur
 * service record breaks a tie over an "Unknown" one.
 */
export function bestDownlink(tx: readonly Transmitter[]): DownlinkCandidate | null {
  const list: DownlinkCandidate[] = [];
  for (const t of tx) {
    const down = downlinkCentreHz(t);
    const rig_mode = rigModeFor(t.mode);
    if (down === null || !rigBandOf(down) || !rig_mode) continue;
    list.push({
      kind: 'downlink',
      downlink_hz: down,
      rig_mode,
      baud: t.baud && t.baud > 0 ? t.baud : null,
      description: t.description.slice(0, 200),
      source: sourceOf(t),
      score: listenRank(rig_mode) + (t.service === 'Amateur' ? 0.5 : 0),
    });
  }
  return best(list);
}

/** Why a satellite with records in a rig band got no downlink candidate. */
export function whyNoDownlink(tx: readonly Transmitter[]): string {
  const inBand = tx.filter((t) => {
    const d = downlinkCentreHz(t);
    return d !== null && rigBandOf(d);
  });
  if (!inBand.length) return 'only an uplink lies in a rig band; no downlink to listen to';
  const modes = [...new Set(inBand.map((t) => t.mode ?? 'none'))].join(', ');
  return `no rig mode for the in-band downlink modulation (${modes})`;
}
