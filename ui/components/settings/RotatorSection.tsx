import { ResourceForm } from '../ResourceForm';
import { StatusBadge } from '../StatusBadge';
import { usePoll } from '../usePoll';
import { onlyWhen, type FieldSpec } from '../../lib/schema-form';
import { SERIAL_PROTOCOLS, type RotatorState } from '../../lib/rotator';

// The antenna rotator's settings (/api/v1/settings/rotator), as three forms that each save on
// their own (the API merges partial bodies): the controller and how it is reached (a serial
// protocol's port and speed, or rotctld's address, only what the chosen protocol uses), its
// mechanical limits, and how it follows a pass. Pointing and tracking live on /radio.

const SERIAL = { path: 'protocol', is: SERIAL_PROTOCOLS };
const ROTCTLD = { path: 'protocol', is: ['rotctld'] };
const PROTOCOL_LABELS = { gs232a: 'Yaesu GS-232A', gs232b: 'Yaesu GS-232B', easycomm2: 'EasyComm II', rot2prog: 'SPID Rot2Prog', rotctld: 'Hamlib rotctld (TCP)' };

const CONTROLLER_FIELDS: FieldSpec[] = [
  { name: 'enabled', label: 'Rotator control', help: 'Off: nothing of the rotator is loaded and no controller is opened.' },
  { name: 'protocol', help: 'What the controller speaks. rotctld: Hamlib’s rotator daemon over TCP (any rotator Hamlib knows).', optionLabels: PROTOCOL_LABELS },
  ...onlyWhen(SERIAL, [
    { name: 'serial_device', help: 'The controller’s serial port, e.g. /dev/ttyUSB0 or a /dev/serial/by-id/… name.' },
    { name: 'baud_rate', help: 'As set on the controller (GS-232 and EasyComm usually 9600, Rot2Prog 600).' },
  ]),
  ...onlyWhen(ROTCTLD, [
    { name: 'rotctld_host', label: 'rotctld host', help: 'Where rotctld runs; 127.0.0.1 when on this machine.' },
    { name: 'rotctld_port', label: 'rotctld port', help: 'rotctld’s TCP port (4533 by default).' },
  ]),
];
const LIMIT_FIELDS: FieldSpec[] = [
  { name: 'az_min_deg', label: 'Azimuth minimum' },
  { name: 'az_max_deg', label: 'Azimuth maximum', help: '360, or up to 450 for a rotator with overlap.' },
  { name: 'az_stop', label: 'Azimuth end stop', help: 'Where the mechanical stop is. north: the range runs 0…max; south: it is centred on north.' },
  { name: 'el_min_deg', label: 'Elevation minimum' },
  { name: 'el_max_deg', label: 'Elevation maximum', help: '90, or up to 180 for a rotator that can tilt over the top.' },
  { name: 'flip', label: 'Over the top', help: 'auto: take a pass over the top when that avoids the stop or the swing at the zenith (needs elevation up to 180). never: azimuth follows.' },
];
const TRACKING_FIELDS: FieldSpec[] = [
  { name: 'deadband_deg', label: 'Deadband', help: 'A new target is sent only when the antenna is off by more than this (a tiny deadband wears out the relays).' },
  { name: 'lead_s', label: 'Lead', help: 'Point where the satellite will be this far ahead, so a slow rotator does not lag.' },
  { name: 'update_interval_ms', label: 'Update interval', help: 'At most one command per interval.' },
  { name: 'preposition_s', label: 'Preposition', help: 'This long before AOS the antenna turns to the AOS azimuth.' },
  { name: 'park_az_deg', label: 'Park azimuth' },
  { name: 'park_el_deg', label: 'Park elevation' },
  { name: 'park_after_pass', label: 'Park after the pass' },
  { name: 'follow_radio_session', label: 'Follow the radio session', help: 'The pass-pinned radio session arms, tracks and releases the rotator with the rig.' },
];

export function RotatorSection() {
  const st = usePoll<RotatorState>('/api/v1/rotator/state', 10_000, undefined, { topic: 'rotator' });
  const rt = st.data?.runtime;
  const saved = () => st.refresh();
  return (
    <>
      {st.data && rt && (
        <p class="row" data-rotator-status>
          <StatusBadge tone={rt.last_error ? 'bad' : rt.connected ? 'ok' : 'idle'}>{!st.data.settings.enabled ? 'disabled' : rt.connected ? 'connected' : 'not connected'}</StatusBadge>
          <a href="/radio" class="btn">
            Radio page (rotator)
          </a>
        </p>
      )}
      {rt?.last_error && <p class="bad">Last rotator error: {rt.last_error}</p>}
      <ResourceForm path="/api/v1/settings/rotator" title="Controller" fields={CONTROLLER_FIELDS} onSaved={saved} />
      <ResourceForm path="/api/v1/settings/rotator" title="Limits" fields={LIMIT_FIELDS} onSaved={saved} />
      <ResourceForm path="/api/v1/settings/rotator" title="Following a pass" fields={TRACKING_FIELDS} onSaved={saved} />
    </>
  );
}
