// One-line radio and APRS summaries from the lite snapshot's radioControl and aprs blocks, each
// with a few words (short) for a 480-pixel footer: the whole line is one tap away there.

export interface RadioSummary {
  enabled: boolean;
  /** The radios by name ("IC-705", "FT-818 + IC-705"); absent in a snapshot cached by an older build. */
  rig?: string;
  connected: boolean;
  control_mode: string;
  /** Who holds the rig while control_mode is 'external' (a Hamlib client), when the block says. */
  external_client?: string | null;
  selected_sat_id: string | null;
  control_state: string;
  last_error: string | null;
}

export interface AprsSummary {
  callsign: string;
  station_valid: boolean;
  operating_mode: string;
  listen_only: boolean;
  connected: boolean;
  can_transmit: boolean;
  tx_block_reason: string | null;
  last_error: string | null;
}

type Tone = 'ok' | 'warn' | 'bad' | 'idle';

/**
 * The rig's control mode in words: "manual applied", or for a Hamlib network client holding the
 * rig (issue 26) who it is, "external: rigctld 127.0.0.1:50122", since the operator needs to know
 * which program will answer for the next retune. Takes any block with the runtime's fields.
 */
export function controlWords(rt: { control_mode: string; external_client?: unknown }): string {
  if (rt.control_mode !== 'external') return rt.control_mode.replace(/_/g, ' ');
  return typeof rt.external_client === 'string' && rt.external_client ? `external: ${rt.external_client}` : 'external client';
}

/**
 * The radio line: the radios by name ("radio: FT-818 + IC-705 connected · …") once radio control
 * is on, and what they do; a few words for 480 pixels.
 */
export function radioLine(r: RadioSummary | null | undefined): { text: string; tone: Tone; short: string } {
  if (!r) return { text: 'radio: unknown', tone: 'idle', short: 'radio ?' };
  const rig = r.rig ? `${r.rig} ` : '';
  if (r.last_error) return { text: `radio: ${r.rig ? `${r.rig} · ` : ''}${r.last_error}`, tone: 'bad', short: 'radio error' };
  if (!r.enabled) return { text: 'radio: disabled', tone: 'idle', short: 'radio off' };
  if (!r.connected) return { text: `radio: ${rig}not connected`, tone: 'idle', short: 'no rig' };
  const what = r.selected_sat_id ? ` · ${r.control_state.replace(/_/g, ' ')} ${r.selected_sat_id}` : ` · ${controlWords(r)}`;
  return { text: `radio: ${rig}connected${what}`, tone: 'ok', short: r.selected_sat_id ? `rig: ${r.selected_sat_id}` : 'rig on' };
}

export function aprsLine(a: AprsSummary | null | undefined): { text: string; tone: Tone; short: string } {
  if (!a) return { text: 'aprs: unknown', tone: 'idle', short: 'APRS ?' };
  if (a.last_error) return { text: `aprs: ${a.last_error}`, tone: 'bad', short: 'APRS error' };
  const who = a.station_valid ? a.callsign : 'no callsign';
  if (!a.connected) return { text: `aprs: off · ${who}`, tone: 'idle', short: 'APRS off' };
  if (a.listen_only) return { text: `aprs: listen only · ${who}`, tone: 'idle', short: 'APRS rx' };
  return a.can_transmit
    ? { text: `aprs: can transmit · ${who}`, tone: 'ok', short: 'APRS tx' }
    : { text: `aprs: blocked · ${a.tx_block_reason ?? ''}`, tone: 'bad', short: 'APRS blocked' };
}
