import { ResourceForm } from '../ResourceForm';
import { StatusBadge } from '../StatusBadge';
import { usePoll } from '../usePoll';
import { onlyWhen, type FieldSpec } from '../../lib/schema-form';
import { LAN_LOGIN_FIELDS } from './lan-fields';
import { rigModelField } from './rig-fields';

// The APRS station's settings (/api/v1/settings/aprs), one resource shown as a few forms that
// each save on their own (the API merges partial objects; a nested group is sent whole), and
// above them whether the station is connected and may transmit now. Connecting, sending and
// the log live on /aprs. Passcode and Wi-Fi password are never shown in a save summary.
// The transport form shows only what the chosen transport uses: USB the TNC, PTT line and sound
// cards; Wi-Fi the radio's LAN login and our modem's timing (Dire Wolf still decodes there).

const STATION_FIELDS: FieldSpec[] = [
  { name: 'callsign', help: 'Your callsign without SSID (up to 6 letters/digits). Empty: the station cannot transmit.' },
  { name: 'ssid', label: 'SSID', help: '0–15; 0 sends the bare callsign.' },
  { name: 'listen_only', help: 'On: receive only, nothing is ever sent (the transmit gate stays closed).' },
  { name: 'operating_mode', help: 'terrestrial: the regional frequency. satellite: the selected satellite channel, transmit only in a pass.' },
];
const USB = { path: 'transport_mode', is: ['usb'] };
const WIFI = { path: 'transport_mode', is: ['wifi'] };
const TRANSPORT_FIELDS: FieldSpec[] = [
  { name: 'transport_mode', help: 'usb: a TNC on this machine or the network. wifi: the IC-705’s LAN session — our own modem transmits, Dire Wolf decodes, no sound card.' },
  rigModelField('Wi-Fi needs the IC-705.'),
  ...onlyWhen(USB, [
    { name: 'kiss_host', label: 'KISS TNC host', help: 'Empty: run our own Dire Wolf sidecar. A host: use your own KISS TNC there; no sidecar is started.' },
    { name: 'kiss_port', label: 'KISS TNC port' },
  ]),
  { name: 'tnc_binary', label: 'TNC program', help: 'The Dire Wolf program (direwolf, or a path to it).' },
  ...onlyWhen(USB, [
    { name: 'rig_lib_model_id', label: 'Rig library model', help: 'The rig-control library’s model number for CAT PTT (3085: IC-705).' },
    { name: 'serial_device', help: 'The rig’s CAT USB port for PTT, e.g. /dev/ttyACM0.' },
    { name: 'baud_rate' },
    { name: 'ptt_method', label: 'PTT method', help: 'cat: through the rig library; rts/dtr: that line of the PTT device; cm108: a sound card GPIO; vox: the rig’s data VOX.' },
    { name: 'ptt_device', label: 'PTT device', help: 'A /dev path for rts, dtr or cm108; empty: the default.' },
    { name: 'audio_input_device', help: 'The sound card the TNC listens on (e.g. plughw:1,0); empty: the default.' },
    { name: 'audio_output_device', help: 'The sound card the TNC transmits on; empty: the default.' },
  ]),
  ...onlyWhen(WIFI, [
    { name: 'civ_address', label: 'CI-V address', help: '0xA4 for the IC-705 (factory setting).' },
    ...LAN_LOGIN_FIELDS,
    { name: 'afsk_txdelay_ms', label: 'TX delay', unit: 'ms', help: 'Flags sent before each packet while the transmitter settles.' },
    { name: 'afsk_tail_ms', label: 'TX tail', unit: 'ms', help: 'Flags after each packet so its end is not cut off.' },
  ]),
];
const RF_FIELDS: FieldSpec[] = [
  { name: 'terrestrial_manual_frequency_hz', label: 'Terrestrial frequency', help: 'Empty: the regional APRS frequency for your location (144.800 MHz in Europe, 144.390 MHz in North America…).' },
  { name: 'terrestrial_path', help: 'Comma-separated, e.g. WIDE1-1,WIDE2-1; empty: direct only.' },
  { name: 'satellite_path', help: 'Empty: the channel’s own default (ARISS for the ISS).' },
  { name: 'terrestrial_beacon_comment', help: 'Sent with a position on the terrestrial frequency (43 characters).' },
  { name: 'satellite_beacon_comment', help: 'Sent with a position through a satellite (43 characters).' },
  { name: 'position_fudge_lat_deg', label: 'Position offset latitude', help: 'Moves the position you send (up to ±1°), to not give away your exact location.' },
  { name: 'position_fudge_lon_deg', label: 'Position offset longitude' },
];
const LOG_FIELDS: FieldSpec[] = [
  { name: 'log_enabled', label: 'Keep a log', help: 'Store received packets on this appliance (export and clear on the APRS page).' },
  { name: 'log_max_records', label: 'Log size', help: 'Entries kept; the oldest go first.' },
  { name: 'notify_incoming_messages', label: 'Highlight messages to me' },
  { name: 'notify_all_packets', label: 'Notify every packet' },
];
const DIGI_FIELDS: FieldSpec[] = [
  { name: 'digipeater.enabled', label: 'Digipeater', help: 'Repeat packets asking for our aliases. Terrestrial only; never while listen-only or blocked.' },
  { name: 'digipeater.aliases', label: 'Aliases', help: 'Comma-separated, e.g. WIDE1-1.' },
  { name: 'digipeater.max_hops', label: 'Max hops' },
  { name: 'digipeater.dedupe_window_s', label: 'Duplicate window' },
  { name: 'digipeater.callsign_allowlist', label: 'Only these stations', help: 'Empty: everyone.' },
  { name: 'digipeater.path_blocklist', label: 'Never repeat paths with', help: 'e.g. TCPIP, NOGATE.' },
];
const IGATE_FIELDS: FieldSpec[] = [
  { name: 'igate.enabled', label: 'iGate', help: 'Pass what we hear to APRS-IS (needs internet and a valid login).' },
  { name: 'igate_auto_enable_with_internet', label: 'Turn on when internet is up' },
  { name: 'igate.server_host', label: 'Server' },
  { name: 'igate.server_port', label: 'Port' },
  { name: 'igate.login_callsign', label: 'Login callsign', help: 'Empty: the station callsign.' },
  { name: 'igate.passcode', label: 'Passcode', help: 'Your APRS-IS passcode; -1 logs in receive-only.', secret: true },
  { name: 'igate.filter', label: 'Filter', help: 'An APRS-IS server filter, e.g. m/50 (50 km around you).' },
  { name: 'igate.connect_timeout_s', label: 'Connect timeout' },
  { name: 'igate.gate_terrestrial_rx', label: 'Gate terrestrial packets' },
  { name: 'igate.gate_satellite_rx', label: 'Gate satellite packets' },
];

interface AprsState {
  settings: { listen_only: boolean };
  identity: { valid: boolean; callsign: string; reason?: string };
  runtime: { connected: boolean; last_error: string | null };
  previewTarget: { can_transmit: boolean; tx_block_reason: string | null };
}

/**
 * Why the saved callsign cannot go on the air, as the server judges it (placeholders such as
 * N0CALL, an empty or malformed callsign), or null when it can.
 */
function identityWarning(id: AprsState['identity']): string | null {
  if (id.valid) return null;
  const why = id.reason ?? 'not a callsign';
  return `${why.charAt(0).toUpperCase()}${why.slice(1)}: nothing can be sent until you save your own callsign.`;
}

export function AprsSection() {
  const st = usePoll<AprsState>('/api/v1/aprs/state', 10_000, undefined, { topic: 'aprs' });
  const d = st.data;
  const saved = () => st.refresh();
  const form = (title: string, fields: FieldSpec[], warning?: string | null) => <ResourceForm path="/api/v1/settings/aprs" title={title} fields={fields} onSaved={saved} warning={warning} />;
  return (
    <>
      {d && (
        <p class="row" data-aprs-status>
          <StatusBadge tone={d.runtime.last_error ? 'bad' : d.runtime.connected ? 'ok' : 'idle'}>{d.runtime.connected ? 'connected' : 'not connected'}</StatusBadge>
          <StatusBadge tone={d.previewTarget.can_transmit ? 'ok' : 'bad'}>{d.previewTarget.can_transmit ? 'can transmit' : 'transmit blocked'}</StatusBadge>
          <a href="/aprs" class="btn">
            APRS page
          </a>
        </p>
      )}
      {d && !d.previewTarget.can_transmit && d.previewTarget.tx_block_reason && <p class="muted">Blocked: {d.previewTarget.tx_block_reason}</p>}
      {d?.runtime.last_error && <p class="bad">Last APRS error: {d.runtime.last_error}</p>}
      {form('Station', STATION_FIELDS, d && identityWarning(d.identity))}
      {form('Transport and PTT', TRANSPORT_FIELDS)}
      {form('Frequency, path and position', RF_FIELDS)}
      {form('Log and notifications', LOG_FIELDS)}
      {form('Digipeater', DIGI_FIELDS)}
      {form('iGate', IGATE_FIELDS)}
    </>
  );
}
