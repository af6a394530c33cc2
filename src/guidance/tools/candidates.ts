// Dev tool helpers: turn SatNOGS transmitter records (Hz) and JE9PEL rows (MHz text) into FM-repeater
// and linear-transponder candidates, and pick the best one per satellite. Not bundled.
import { rigBandOf } from '../eligibility.js';

export interface SatnogsTx {
  uuid: string;
  description: string;
  type: string;
  uplink_low: number | null;
  uplink_high: number | null;
  downlink_low: number | null;
  downlink_high: number | null;
  mode: string | null;
  uplink_mode: string | null;
  invert: boolean;
  norad_cat_id: number;
}

export interface Je9pelRow {
  name: string;
  norad_id: number;
  uplink: string;
  downlink: string;
  mode: string;
  status: string;
}

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
  passband: { uplink_low_hz: number; uplink_high_hz: number; downlink_low_hz: number; downlink_high_hz: number; inverting: boolean };
  source: string;
  score: number;
}

export type Candidate = FmCandidate | LinearCandidate;

/** JE9PEL statuses whose rows are taken as a usable record (the rest are dead, planned or not amateur). */
const USABLE_STATUS = new Set(['active', 'operational', 'unknown']);

export function parseJe9pelCsv(text: string): Je9pelRow[] {
  const [head, ...lines] = text.split(/\r?\n/);
  const cols = head.split(',');
  const at = (name: string) => cols.indexOf(name);
  return lines
    .filter((l) => l.trim())
    .map((l) => l.split(','))
    .map((f) => ({
      name: f[at('name')],
      norad_id: Number(f[at('norad_id')]),
      uplink: f[at('uplink')] ?? '',
      downlink: f[at('downlink')] ?? '',
      mode: f[at('mode')] ?? '',
      status: (f[at('status')] ?? '').trim(),
    }))
    .filter((r) => Number.isInteger(r.norad_id) && r.norad_id > 0);
}

const mhzToHz = (s: string) => Math.round(Number(s.trim()) * 1e6);

/** "145.850" → one frequency; lists ("a/b") and anything else → null (ambiguous pairing). */
function single(text: string): number | null {
  const t = text.replace(/\*/g, '').trim();
  return /^\d+\.\d+$/.test(t) ? mhzToHz(t) : null;
}

/** "145.935-145.995" → [low, high, reversed]; "435.670-435.610" is reversed (inverting transponder). */
function range(text: string): [number, number, boolean] | null {
  const m = /^\s*(\d+\.\d+)\s*-\s*(\d+\.\d+)\s*$/.exec(text.replace(/\*/g, ''));
  if (!m) return null;
  const a = mhzToHz(m[1]);
  const b = mhzToHz(m[2]);
  return a <= b ? [a, b, false] : [b, a, true];
}

const crossBand = (up: number, down: number) => (up >= 400e6) !== (down >= 400e6);
const rigUsable = (up: number, down: number) => (rigBandOf(up) ? 1 : 0) + (rigBandOf(down) ? 1 : 0);

function ctcssIn(text: string): number | undefined {
  if (/no ctcss/i.test(text)) return undefined;
  const m = /CTCSS\s*(\d+(?:\.\d+)?)/i.exec(text);
  return m ? Number(m[1]) : undefined;
}

function best<T extends { score: number }>(list: T[]): T | null {
  return list.length ? list.reduce((a, b) => (b.score > a.score ? b : a)) : null;
}

/** A two-frequency FM voice channel (repeater), not a simplex digipeater or telemetry. SatNOGS first, JE9PEL as a fallback. */
export function bestFm(tx: SatnogsTx[], rows: Je9pelRow[]): FmCandidate | null {
  const fromSatnogs: FmCandidate[] = tx
    .filter((t) => (t.mode === 'FM' || t.mode === 'FMN') && t.uplink_low && t.downlink_low && !t.uplink_high && !t.downlink_high)
    .filter((t) => t.uplink_low !== t.downlink_low && !/aprs|digi|sstv|imag/i.test(t.description))
    .map((t) => ({
      kind: 'fm',
      uplink_hz: t.uplink_low!,
      downlink_hz: t.downlink_low!,
      ctcss_hz: ctcssIn(t.description),
      source: `satnogs ${t.uuid} "${t.description}"`,
      score: (crossBand(t.uplink_low!, t.downlink_low!) ? 4 : 0) + (/repeater|transponder|voice/i.test(t.description) ? 2 : 0) + rigUsable(t.uplink_low!, t.downlink_low!),
    }));
  if (fromSatnogs.length) return best(fromSatnogs);
  const fromJe9pel: FmCandidate[] = [];
  for (const r of rows) {
    if (!USABLE_STATUS.has(r.status) || !/\bN?FM\b/.test(r.mode) || /aprs|sstv|imag/i.test(r.mode)) continue;
    const up = single(r.uplink);
    const down = single(r.downlink);
    if (up === null || down === null || up === down) continue;
    fromJe9pel.push({
      kind: 'fm',
      uplink_hz: up,
      downlink_hz: down,
      ctcss_hz: ctcssIn(r.mode),
      source: `je9pel ${r.name} "${r.uplink} / ${r.downlink} ${r.mode}"`,
      score: (crossBand(up, down) ? 4 : 0) + (/repeater/i.test(r.mode) ? 2 : 0) + rigUsable(up, down),
    });
  }
  return best(fromJe9pel);
}

/** A linear passband on both sides. Prefers the rig's bands, then SSB over CW-only records, then width. */
export function bestLinear(tx: SatnogsTx[], rows: Je9pelRow[]): LinearCandidate | null {
  const list: LinearCandidate[] = [];
  for (const t of tx) {
    if (t.type !== 'Transponder' || !t.uplink_low || !t.uplink_high || !t.downlink_low || !t.downlink_high) continue;
    const width = t.uplink_high - t.uplink_low;
    if (!(width > 0)) continue;
    list.push({
      kind: 'linear',
      passband: { uplink_low_hz: t.uplink_low, uplink_high_hz: t.uplink_high, downlink_low_hz: t.downlink_low, downlink_high_hz: t.downlink_high, inverting: t.invert },
      source: `satnogs ${t.uuid} "${t.description}"`,
      score: rigUsable(t.uplink_low, t.downlink_low) * 4 + (/SB/.test(`${t.mode} ${t.uplink_mode}`) ? 2 : 0) + width / 1e9,
    });
  }
  if (list.length) return best(list);
  for (const r of rows) {
    if (!USABLE_STATUS.has(r.status)) continue;
    const up = range(r.uplink);
    const down = range(r.downlink);
    if (!up || !down || up[2]) continue;
    list.push({
      kind: 'linear',
      passband: { uplink_low_hz: up[0], uplink_high_hz: up[1], downlink_low_hz: down[0], downlink_high_hz: down[1], inverting: down[2] },
      source: `je9pel ${r.name} "${r.uplink} / ${r.downlink} ${r.mode}"`,
      score: rigUsable(up[0], down[0]) * 4 + (/SSB/.test(r.mode) ? 2 : 0) + (up[1] - up[0]) / 1e9,
    });
  }
  return best(list);
}
