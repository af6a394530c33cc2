// The operator's frequency-profile editor (issue 27) as data: a profile from
// GET /api/v1/frequency-guides/profiles turned into what the form shows (MHz as typed text,
// since an operator reads and dials MHz) and back into what POST takes (integer Hz). No checks
// beyond reading numbers: the API names each bad field, and the form shows it there.

import type { ListedProfile as ServedProfile } from '../../src/guidance/guidance-service';
import type { ProfileSource } from '../../src/guidance/profile-set';

export type { ProfileSource };

/** A profile as the API lists it (the fields the editor reads). */
export interface GuideProfile {
  mode: 'fm' | 'linear';
  correction_side: string;
  columns: Array<{ uplink_hz: number | null; downlink_hz: number; label: string }>;
  default_column_index?: number;
  uplink_step_hz: number;
  downlink_step_hz: number;
  uplink_mode: string;
  downlink_mode: string;
  ctcss_hz?: number;
  inverting?: boolean;
  receive_only?: boolean;
  baud?: number | null;
  description?: string;
  note?: string;
}

/** A listed profile as the API answers it, its profile read through GuideProfile (one flat shape for the form). */
export type ListedProfile = Omit<ServedProfile, 'profile'> & { profile: GuideProfile };

export interface DraftColumn {
  label: string;
  uplink_mhz: string;
  downlink_mhz: string;
}

/** The form's state: text as typed, switches as set. */
export interface ProfileDraft {
  mode: 'fm' | 'linear';
  receive_only: boolean;
  columns: DraftColumn[];
  default_column_index: number;
  uplink_mode: string;
  downlink_mode: string;
  ctcss_hz: string;
  inverting: boolean;
  uplink_step_hz: string;
  downlink_step_hz: string;
  note: string;
}

/** The source as the operator knows it: the transmitter data is SatNOGS DB's. */
export const SOURCE_NAMES: Record<ProfileSource, string> = { bundled: 'bundled', transmitters: 'SatNOGS', operator: 'operator' };

/** Hz as MHz text to the last non-zero Hz digit, at least 3 decimals: 145850000 → "145.850", 435812500 → "435.8125". */
export function mhzText(hz: number | null | undefined): string {
  if (hz == null) return '';
  const fixed = (hz / 1e6).toFixed(6);
  return fixed.replace(/(\.\d{3}\d*?)0+$/, '$1');
}

/**
 * MHz text → integer Hz. Unreadable text gives NaN, which JSON sends as null, so the API's
 * error names the field instead of the page guessing a value.
 */
export function hzFromMhz(text: string): number {
  const t = text.trim().replace(',', '.');
  if (!/^\d+(\.\d*)?$|^\.\d+$/.test(t)) return NaN;
  return Math.round(Number(t) * 1e6);
}

/** A number field's text → number (NaN when unreadable: the API names it). */
const num = (text: string): number => (text.trim() === '' ? NaN : Number(text.trim().replace(',', '.')));

const blankColumn = (): DraftColumn => ({ label: 'FM', uplink_mhz: '', downlink_mhz: '' });

/** The form for a satellite's profile, or a blank FM one for a satellite without any. */
export function draftFrom(p: GuideProfile | null): ProfileDraft {
  if (!p) {
    return { mode: 'fm', receive_only: false, columns: [blankColumn()], default_column_index: 0, uplink_mode: 'FM', downlink_mode: 'FM', ctcss_hz: '', inverting: false, uplink_step_hz: '5000', downlink_step_hz: '5000', note: '' };
  }
  return {
    mode: p.mode,
    receive_only: p.receive_only === true || (p.mode === 'fm' && p.columns[0]?.uplink_hz === null),
    columns: p.columns.map((c) => ({ label: c.label, uplink_mhz: mhzText(c.uplink_hz), downlink_mhz: mhzText(c.downlink_hz) })),
    default_column_index: p.default_column_index ?? 0,
    uplink_mode: p.uplink_mode,
    downlink_mode: p.downlink_mode,
    ctcss_hz: p.ctcss_hz != null ? String(p.ctcss_hz) : '',
    inverting: p.inverting === true,
    uplink_step_hz: String(p.uplink_step_hz),
    downlink_step_hz: String(p.downlink_step_hz),
    note: p.note ?? '',
  };
}

/** Columns an FM profile keeps: exactly one (its single pair); receive-only drops every uplink. */
export function withMode(d: ProfileDraft, mode: 'fm' | 'linear'): ProfileDraft {
  const columns = mode === 'fm' ? d.columns.slice(0, 1) : d.columns;
  return { ...d, mode, columns, receive_only: mode === 'fm' && d.receive_only, default_column_index: Math.min(d.default_column_index, columns.length - 1) };
}

/** The POST body: Hz, the receive-only switch as null uplinks, no tone on a receive-only channel. */
export function bodyFrom(sat_id: string, d: ProfileDraft): Record<string, unknown> {
  const receiveOnly = d.mode === 'fm' && d.receive_only;
  const body: Record<string, unknown> = {
    sat_id,
    mode: d.mode,
    columns: d.columns.map((c) => ({ label: c.label.trim(), uplink_hz: receiveOnly ? null : hzFromMhz(c.uplink_mhz), downlink_hz: hzFromMhz(c.downlink_mhz) })),
    default_column_index: d.default_column_index,
    uplink_step_hz: receiveOnly ? 0 : num(d.uplink_step_hz),
    downlink_step_hz: num(d.downlink_step_hz),
    uplink_mode: receiveOnly ? d.downlink_mode.trim() : d.uplink_mode.trim(),
    downlink_mode: d.downlink_mode.trim(),
  };
  if (!receiveOnly && d.ctcss_hz.trim() !== '') body.ctcss_hz = num(d.ctcss_hz);
  if (d.mode === 'linear') body.inverting = d.inverting;
  if (d.note.trim()) body.note = d.note.trim();
  return body;
}

/** Rows whose name, sat_id or NORAD number holds the query (case-insensitive). */
export function matchesQuery(row: { sat_id: string; name: string; norad_id?: number }, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return row.name.toLowerCase().includes(q) || row.sat_id.includes(q) || (row.norad_id !== undefined && String(row.norad_id) === q);
}
