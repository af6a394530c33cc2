import { ResourceForm } from '../../ResourceForm';
import type { FieldSpec } from '../../../lib/schema-form';

const GPS_FIELDS: FieldSpec[] = [
  { name: 'connection_mode', help: 'How the GPS process reaches the receiver; none: location from the profile only.' },
  { name: 'serial_device', help: 'A /dev path, e.g. /dev/ttyACM0 (serial mode).' },
  { name: 'baud_rate' },
  { name: 'bluetooth_address', help: 'AA:BB:CC:DD:EE:FF (bluetooth mode).' },
  { name: 'bluetooth_channel', label: 'Bluetooth RFCOMM channel' },
];

export default function GpsGroup() {
  return <ResourceForm path="/api/v1/settings/gps" title="Connection" fields={GPS_FIELDS} />;
}
