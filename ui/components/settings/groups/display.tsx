import { ResourceForm } from '../../ResourceForm';
import type { FieldSpec } from '../../../lib/schema-form';

/** IANA zones the browser knows, as suggestions (the API decides what it accepts). */
const ZONES: readonly string[] = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];

// Field lists with wording the schema cannot give; constants so the forms' memo holds.
const TZ_FIELDS: FieldSpec[] = [{ name: 'display_timezone', label: 'Display timezone', help: 'An IANA zone such as Europe/Berlin, or UTC. Every time on every page is shown in it.' }];
const ISS_FIELDS: FieldSpec[] = [
  { name: 'iss_display_mode', label: 'Mode', help: 'auto: the Earth-view stream while the ISS is sunlit and the stream is up, else its track. video/track: always that.' },
  { name: 'stream_url', label: 'Stream URL', help: 'An http(s) embed URL' },
];
const SUGGEST = { display_timezone: ZONES };

export default function DisplayGroup() {
  return (
    <>
      <ResourceForm path="/api/v1/settings/timezone" title="Timezone" fields={TZ_FIELDS} suggest={SUGGEST} />
      <ResourceForm path="/api/v1/settings/iss-display-mode" title="ISS display" fields={ISS_FIELDS} />
    </>
  );
}
