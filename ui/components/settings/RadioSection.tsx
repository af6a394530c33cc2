import { ResourceForm } from '../ResourceForm';
import { StatusBadge } from '../StatusBadge';
import { usePoll } from '../usePoll';
import { onlyWhen, type FieldSpec } from '../../lib/schema-form';
import { LAN_LOGIN_FIELDS } from './lan-fields';
import { rigModelField } from './rig-fields';

// The rig's settings (/api/v1/settings/radio) and, above them, whether it is connected now.
// Connecting, writing and the pass session live on /radio. Each transport's own fields show
// only while it is chosen (USB: the serial port; Wi-Fi: the radio's LAN login).

const RADIO_FIELDS: FieldSpec[] = [
  { name: 'enabled', label: 'Radio control', help: 'Off: the appliance never opens the rig.' },
  rigModelField('The IC-705 is validated on a radio; the IC-9700 is not yet.'),
  { name: 'transport', help: 'usb: CI-V on a USB serial port. wifi: the IC-705’s LAN session (IC-705 only; the radio’s WLAN remote settings).' },
  ...onlyWhen({ path: 'transport', is: ['wifi'] }, LAN_LOGIN_FIELDS),
  ...onlyWhen({ path: 'transport', is: ['usb'] }, [
    { name: 'serial_device', help: "The rig's CI-V USB port, e.g. /dev/ttyACM0 or a stable /dev/serial/by-id/… name (the Radio page lists the ports found)." },
    { name: 'baud_rate', help: "The rig's CI-V USB baud rate (as set in its menu)." },
  ]),
  { name: 'civ_address', label: 'CI-V address', help: '0xA4 for the IC-705, 0xA2 for the IC-9700 (factory settings).' },
  { name: 'poll_interval_ms', label: 'Poll interval', unit: 'ms', help: 'How often the rig is read back while connected.' },
  { name: 'auto_connect', help: 'Connect at boot, and keep trying while the rig is not there yet.' },
  { name: 'auto_track_interval_ms', label: 'Auto-track interval', unit: 'ms', help: 'How often Doppler is reapplied while tracking.' },
  { name: 'default_apply_mode_and_tone', label: 'Apply mode and tone', help: 'Set modes and the CTCSS tone when a satellite is applied or tracked.' },
  { name: 'safe_tx_guard_enabled', label: 'Safe transmit guard', help: 'Never set a transmit frequency outside 144–148 / 420–450 MHz.' },
];

interface RadioState {
  runtime: { connected: boolean; last_error: string | null; capabilities: { radio: string; validated: boolean } | null };
}

export function RadioSection() {
  const st = usePoll<RadioState>('/api/v1/radio/state', 10_000);
  const rt = st.data?.runtime;
  return (
    <>
      {rt && (
        <p class="row" data-radio-status>
          <StatusBadge tone={rt.last_error ? 'bad' : rt.connected ? 'ok' : 'idle'}>{rt.connected ? 'connected' : 'not connected'}</StatusBadge>
          {rt.capabilities && !rt.capabilities.validated && <StatusBadge tone="warn">{rt.capabilities.radio} not validated</StatusBadge>}
          <a href="/radio" class="btn">
            Radio page
          </a>
        </p>
      )}
      {rt?.last_error && <p class="bad">Last rig error: {rt.last_error}</p>}
      <ResourceForm path="/api/v1/settings/radio" title="Rig" fields={RADIO_FIELDS} onSaved={() => st.refresh()} />
    </>
  );
}
