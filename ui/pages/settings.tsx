import { ResourceForm } from '../components/ResourceForm';
import { Shell } from '../components/Shell';
import { CatalogSection, SnapshotsSection } from '../components/settings/CatalogSection';
import { LocationSection } from '../components/settings/LocationSection';
import { PassFilterSection } from '../components/settings/PassFilterSection';
import { mount } from '../components/mount';
import { usePoll } from '../components/usePoll';
import { useNow } from '../components/useNow';
import type { Zone } from '../lib/time';
import './settings.css';

// Settings grouped as the API groups them; each group saves on its own and shows the API's
// field errors under the field. Radio and APRS settings join with their issues.

/** IANA zones the browser knows, for suggestions (the API decides what it accepts). */
const ZONES: readonly string[] = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];

function Page() {
  const now = useNow();
  const tz = usePoll<{ state: { display_timezone: string } }>('/api/v1/settings/timezone', 60_000);
  const zone: Zone = { name: tz.data?.state.display_timezone ?? 'UTC' };
  const section = (id: string, title: string, body: preact.ComponentChildren) => (
    <section class="panel" id={id} aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{title}</h2>
      {body}
    </section>
  );
  return (
    <Shell title="Settings">
      <nav class="row toc" aria-label="Sections">
        {[
          ['location', 'Location'],
          ['display', 'Display'],
          ['passes', 'Pass filter'],
          ['gps', 'GPS'],
          ['catalog', 'Catalog'],
          ['snapshots', 'Snapshots'],
          ['network', 'Network'],
          ['developer', 'Developer'],
        ].map(([id, label]) => (
          <a key={id} href={`#${id}`} class="btn">
            {label}
          </a>
        ))}
        <a href="/lite/settings" class="btn">
          Tracked satellites
        </a>
      </nav>
      <div class="grid settings">
        {section('location', 'Location', <LocationSection />)}
        {section(
          'display',
          'Display',
          <>
            <ResourceForm path="/api/v1/settings/timezone" title="Display timezone" suggest={{ display_timezone: ZONES }} help={{ display_timezone: 'An IANA zone such as Europe/Berlin, or UTC.' }} onSaved={() => tz.refresh()} />
            <ResourceForm path="/api/v1/settings/iss-display-mode" title="ISS display" help={{ iss_display_mode: 'auto: the Earth-view stream when the ISS is sunlit and the stream is up, else its track.' }} />
          </>,
        )}
        {section('passes', 'Pass filter', <PassFilterSection />)}
        {section('gps', 'GPS receiver', <ResourceForm path="/api/v1/settings/gps" title="Connection" help={{ serial_device: 'A /dev path, e.g. /dev/ttyACM0.' }} />)}
        {section('catalog', 'Catalog', <CatalogSection zone={zone} now={now} />)}
        {section('snapshots', 'Snapshots', <SnapshotsSection zone={zone} />)}
        {section('network', 'Network', <ResourceForm path="/api/v1/network" title="Offline switch" help={{ offline: 'On: no refresh, status lookup or iGate connection leaves the appliance.' }} />)}
        {section(
          'developer',
          'Developer overrides',
          <ResourceForm path="/api/v1/settings/developer-overrides" title="Kiosk overrides" help={{ enabled: 'Nothing below applies unless this is on.' }} />,
        )}
      </div>
    </Shell>
  );
}

mount(Page);
