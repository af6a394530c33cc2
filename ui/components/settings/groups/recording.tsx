import { ResourceForm } from '../../ResourceForm';
import { RecordingDot, useRecorder } from '../../RecordingDot';
import { onlyWhen, type FieldSpec } from '../../../lib/schema-form';

// Pass recording (/api/v1/settings/recording): whether passes are recorded, from which audio,
// and how much of the card they may take. The recordings themselves are on /recordings.

const SOURCE_LABELS = { auto: 'auto (IC-705 LAN audio on Wi-Fi, else the sound card)', alsa: 'sound card (ALSA)', lan: 'IC-705 LAN audio' };

const FIELDS: FieldSpec[] = [
  { name: 'enabled', label: 'Record passes', help: 'Each pass the radio session or auto-track follows is recorded, with its timeline and the QSOs logged during it.' },
  { name: 'source', label: 'Audio from', optionLabels: SOURCE_LABELS },
  ...onlyWhen({ path: 'source', is: ['auto', 'alsa'] }, [{ name: 'alsa_device', label: 'ALSA device', help: 'The rig’s USB sound card as arecord names it: default, hw:1,0, plughw:CARD=CODEC,DEV=0.' }]),
  { name: 'sample_rate', unit: 'Hz', help: 'The saved audio’s rate; 16000 is plenty for FM voice.' },
  { name: 'min_elevation_deg', label: 'Above elevation', help: 'A pass is recorded while the satellite is above this.' },
  { name: 'pre_roll_s', label: 'Before and after', help: 'Recording starts this long before the satellite rises above that elevation and ends this long after it sets below it.' },
  { name: 'keep_mb', label: 'Space for recordings', unit: 'MiB', help: 'All recordings together; past it the oldest are deleted.' },
];

export default function RecordingGroup() {
  const rec = useRecorder();
  const rt = rec.data?.runtime;
  return (
    <>
      <p class="row">
        <RecordingDot rt={rt} />
        <a href="/recordings" class="btn">
          Recordings →
        </a>
      </p>
      {rt?.last_error && <p class="bad">Last recording error: {rt.last_error}</p>}
      <ResourceForm path="/api/v1/settings/recording" title="Recording" fields={FIELDS} />
    </>
  );
}
