import { ResourceForm, type Suggestion } from '../ResourceForm';
import { StatusBadge } from '../StatusBadge';
import { usePoll } from '../usePoll';
import type { FieldSpec } from '../../lib/schema-form';
import { linkFields, linksOnTheirTransport, UPLINK_RIG_START } from './rig-fields';

// The rig's settings (/api/v1/settings/radio) and, above them, whether it is connected now.
// Connecting, writing and the pass session live on /radio. One radio, or two: the main rig
// receives the downlink and a second one (uplink_rig) transmits the uplink, each on its own link.
// Each link shows only the fields its model and transport use (the CI-V address for the Icoms,
// the LAN login for the IC-705 on Wi-Fi, Hamlib's model and rigctld for a radio through Hamlib).

const RADIO_FIELDS: FieldSpec[] = [
  { name: 'enabled', label: 'Radio control', help: 'Off: the appliance never opens the rig.' },
  ...linkFields('', 'The IC-705 is validated on a radio; the others not yet. The Yaesus speak their 5-byte CAT on USB; any other radio goes through Hamlib.'),
  {
    name: 'uplink_rig',
    label: 'Uplink radio (transmits)',
    presence: { label: 'Radios', none: 'One radio', set: 'Two radios', initial: UPLINK_RIG_START },
    help: 'One radio receives and transmits (split). Two radios: the rig above receives the downlink and the uplink radio below transmits, each on its own link.',
    fields: linkFields('uplink_rig.', 'The radio that transmits the uplink.'),
  },
  { name: 'poll_interval_ms', label: 'Poll interval', unit: 'ms', help: 'How often the rig is read back while connected.' },
  { name: 'auto_connect', help: 'Connect at boot, and keep trying while the rig is not there yet.' },
  { name: 'auto_track_interval_ms', label: 'Auto-track interval', unit: 'ms', help: 'How often Doppler is reapplied while tracking.' },
  { name: 'default_apply_mode_and_tone', label: 'Apply mode and tone', help: 'Set modes and the CTCSS tone when a satellite is applied or tracked.' },
  { name: 'safe_tx_guard_enabled', label: 'Safe transmit guard', help: 'Never set a transmit frequency outside 144–148 / 420–450 MHz.' },
];

interface HamlibModels {
  available: boolean;
  note: string | null;
  items: Array<{ model: number; manufacturer: string; name: string; satellite: boolean }>;
}

/** Hamlib's models (rigctl -l, satellite radios first) offered beside both radios' hamlib_model. */
function modelSuggestions(m: HamlibModels | null): Record<string, readonly Suggestion[]> | undefined {
  if (!m?.available) return undefined;
  const list = m.items.map((i) => ({ value: String(i.model), label: `${i.manufacturer} ${i.name}${i.satellite ? ' (satellite)' : ''}` }));
  return { hamlib_model: list, 'uplink_rig.hamlib_model': list };
}

interface RadioState {
  runtime: { connected: boolean; last_error: string | null; capabilities: { radio: string; validated: boolean } | null };
}

export function RadioSection() {
  const st = usePoll<RadioState>('/api/v1/radio/state', 10_000, undefined, { topic: 'radio' });
  const rt = st.data?.runtime;
  // Read once: the list changes only when Hamlib is installed or upgraded.
  const models = usePoll<HamlibModels>('/api/v1/radio/hamlib-models', 3_600_000);
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
      {models.data && !models.data.available && <p class="muted" data-hamlib-models-note>Hamlib's model list: {models.data.note}</p>}
      <ResourceForm path="/api/v1/settings/radio" title="Rig" fields={RADIO_FIELDS} normalize={linksOnTheirTransport} suggest={modelSuggestions(models.data)} onSaved={() => st.refresh()} />
    </>
  );
}
