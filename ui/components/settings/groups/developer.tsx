import { ResourceForm } from '../../ResourceForm';
import type { FieldSpec } from '../../../lib/schema-form';

const DEV_FIELDS: FieldSpec[] = [
  { name: 'enabled', label: 'Enabled', help: 'Nothing below applies unless this is on.' },
  { name: 'force_scene', label: 'Force scene' },
  { name: 'force_sat_id', label: 'Force satellite', help: 'A sat_id such as iss or ao-91; empty: not forced.' },
  { name: 'simulate_pass_phase', label: 'Simulate pass phase' },
  { name: 'force_iss_video_eligible' },
  { name: 'force_iss_stream_healthy' },
  { name: 'show_debug_badge' },
];

export default function DeveloperGroup() {
  return <ResourceForm path="/api/v1/settings/developer-overrides" title="Kiosk overrides" fields={DEV_FIELDS} nullLabel="not forced" />;
}
