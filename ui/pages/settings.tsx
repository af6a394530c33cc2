import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ResourceForm } from '../components/ResourceForm';
import { Shell } from '../components/Shell';
import { StatusBadge } from '../components/StatusBadge';
import { CatalogSection, SnapshotsSection } from '../components/settings/CatalogSection';
import { LocationSection } from '../components/settings/LocationSection';
import { PassFilterSection } from '../components/settings/PassFilterSection';
import { RadioSection } from '../components/settings/RadioSection';
import { AprsSection } from '../components/settings/AprsSection';
import { RotatorSection } from '../components/settings/RotatorSection';
import { HamlibSection } from '../components/settings/HamlibSection';
import { ProfilesSection } from '../components/settings/ProfilesSection';
import { LogbookSection } from '../components/settings/LogbookSection';
import { AccessSection, LockBadge, useAccess } from '../components/settings/AccessSection';
import { mount } from '../components/mount';
import { usePoll } from '../components/usePoll';
import { useNow } from '../components/useNow';
import type { FieldSpec } from '../lib/schema-form';
import type { Zone } from '../lib/time';
import './settings.css';

// Settings grouped as the API groups them; each group saves on its own and shows the API's
// field errors under the field. Flat resources are ResourceForms bound to their /docs schema;
// location, favourites and the catalog are actions and have their own components.
// Radio, APRS and the rotator each have a section of their own.

/** IANA zones the browser knows, as suggestions (the API decides what it accepts). */
const ZONES: readonly string[] = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];

// Field lists with wording the schema cannot give; constants so the forms' memo holds.
const TZ_FIELDS: FieldSpec[] = [{ name: 'display_timezone', label: 'Display timezone', help: 'An IANA zone such as Europe/Berlin, or UTC. Every time on every page is shown in it.' }];
const ISS_FIELDS: FieldSpec[] = [
  { name: 'iss_display_mode', label: 'Mode', help: 'auto: the Earth-view stream while the ISS is sunlit and the stream is up, else its track. video/track: always that.' },
  { name: 'stream_url', label: 'Stream URL', help: 'An http(s) embed URL' },
];
const GPS_FIELDS: FieldSpec[] = [
  { name: 'connection_mode', help: 'How the GPS process reaches the receiver; none: location from the profile only.' },
  { name: 'serial_device', help: 'A /dev path, e.g. /dev/ttyACM0 (serial mode).' },
  { name: 'baud_rate' },
  { name: 'bluetooth_address', help: 'AA:BB:CC:DD:EE:FF (bluetooth mode).' },
  { name: 'bluetooth_channel', label: 'Bluetooth RFCOMM channel' },
];
const DEV_FIELDS: FieldSpec[] = [
  { name: 'enabled', label: 'Enabled', help: 'Nothing below applies unless this is on.' },
  { name: 'force_scene', label: 'Force scene' },
  { name: 'force_sat_id', label: 'Force satellite', help: 'A sat_id such as iss or ao-91; empty: not forced.' },
  { name: 'simulate_pass_phase', label: 'Simulate pass phase' },
  { name: 'force_iss_video_eligible' },
  { name: 'force_iss_stream_healthy' },
  { name: 'show_debug_badge' },
];
const NET_FIELDS: FieldSpec[] = [{ name: 'offline', label: 'Offline', help: 'On: no refresh, status lookup or iGate connection leaves the appliance.' }];

const SECTIONS: Array<[string, string]> = [
  ['access', 'Access'],
  ['location', 'Location'],
  ['display', 'Display'],
  ['passes', 'Pass filter'],
  ['gps', 'GPS'],
  ['radio', 'Radio'],
  ['aprs', 'APRS'],
  ['rotator', 'Rotator'],
  ['hamlib', 'Hamlib'],
  ['profiles', 'Frequency profiles'],
  ['logbook', 'Logbook'],
  ['catalog', 'Catalog'],
  ['snapshots', 'Snapshots'],
  ['network', 'Network'],
  ['developer', 'Developer'],
];

function Section(props: { id: string; title: string; children: ComponentChildren }) {
  return (
    <section class="panel" id={props.id} aria-labelledby={`${props.id}-h`}>
      <h2 id={`${props.id}-h`}>{props.title}</h2>
      {props.children}
    </section>
  );
}

/** The offline switch, and whether the appliance is online now and why (switch, no interface). */
function NetworkSection() {
  const net = usePoll<{ online: boolean; reason: string }>('/api/v1/network', 30_000);
  return (
    <>
      {net.data && (
        <p data-network>
          <StatusBadge tone={net.data.online ? 'ok' : 'idle'}>{net.data.online ? 'online' : 'offline'}</StatusBadge> <span class="muted">{net.data.reason}</span>
        </p>
      )}
      <ResourceForm path="/api/v1/network" title="Offline switch" fields={NET_FIELDS} onSaved={() => net.refresh()} />
    </>
  );
}

function Page() {
  const now = useNow();
  const tz = usePoll<{ state: { display_timezone: string } }>('/api/v1/settings/timezone', 60_000);
  const zone: Zone = { name: tz.data?.state.display_timezone ?? 'UTC' };
  const [refreshes, setRefreshes] = useState(0);
  const access = useAccess();
  return (
    <Shell title="Settings" status={<LockBadge access={access.data} />}>
      <nav class="toc" aria-label="Sections">
        {SECTIONS.map(([id, label]) => (
          <a key={id} href={`#${id}`} class="btn">
            {label}
          </a>
        ))}
        <a href="/lite/settings" class="btn">
          Tracked satellites
        </a>
      </nav>
      <div class="grid settings">
        <Section id="access" title="Operator access">
          <AccessSection access={access} />
        </Section>
        <Section id="location" title="Location">
          <LocationSection />
        </Section>
        <Section id="display" title="Display">
          <ResourceForm path="/api/v1/settings/timezone" title="Timezone" fields={TZ_FIELDS} suggest={{ display_timezone: ZONES }} onSaved={() => tz.refresh()} />
          <ResourceForm path="/api/v1/settings/iss-display-mode" title="ISS display" fields={ISS_FIELDS} />
        </Section>
        <Section id="passes" title="Pass filter">
          <PassFilterSection />
        </Section>
        <Section id="gps" title="GPS receiver">
          <ResourceForm path="/api/v1/settings/gps" title="Connection" fields={GPS_FIELDS} />
        </Section>
        <Section id="radio" title="Radio (CI-V)">
          <RadioSection />
        </Section>
        <Section id="aprs" title="APRS">
          <AprsSection />
        </Section>
        <Section id="rotator" title="Antenna rotator">
          <RotatorSection />
        </Section>
        <Section id="hamlib" title="Hamlib (network rig and rotator control)">
          <HamlibSection />
        </Section>
        <Section id="profiles" title="Frequency profiles">
          <ProfilesSection zone={zone} />
        </Section>
        <Section id="logbook" title="Logbook">
          <LogbookSection />
        </Section>
        <Section id="catalog" title="Catalog">
          <CatalogSection zone={zone} now={now} onRefreshed={() => setRefreshes((n) => n + 1)} />
        </Section>
        <Section id="snapshots" title="Snapshots">
          <SnapshotsSection zone={zone} generation={refreshes} />
        </Section>
        <Section id="network" title="Network">
          <NetworkSection />
        </Section>
        <Section id="developer" title="Developer overrides">
          <ResourceForm path="/api/v1/settings/developer-overrides" title="Kiosk overrides" fields={DEV_FIELDS} nullLabel="not forced" />
        </Section>
      </div>
    </Shell>
  );
}

mount(Page);
