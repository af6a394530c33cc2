import * as v from 'valibot';
import { choice } from '../util/choice.js';

// Recording settings (issue 37): exactly the fields. The station owns the flat file from
// the start, so system state shows them while the recorder itself is not loaded.

export const RECORDING_SOURCES = ['auto', 'alsa', 'lan'] as const;
/** The rates the LAN stream, ALSA cards and Opus all take without surprises. */
export const RECORDING_RATES_HZ = [8000, 16000, 24000, 48000] as const;

/** An ALSA PCM name as arecord's -D takes it: `default`, `hw:1,0`, `plughw:CARD=CODEC,DEV=0`, `dsnoop:1`… */
const alsaDevice = () =>
  v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.minLength(1, 'must name an ALSA device, like default or hw:1,0'),
    v.maxLength(128, 'at most 128 characters'),
    // Handed to arecord as one argument (no shell), but a newline or a quote has no place in a PCM name.
    v.regex(/^[A-Za-z0-9_:,.=\-]+$/, 'must be an ALSA device name like default, hw:1,0 or plughw:CARD=CODEC,DEV=0'),
  );

export const RecordingSettingsSchema = v.object({
  enabled: v.boolean('must be true or false'),
  source: choice(RECORDING_SOURCES, {
    auto: "the IC-705's LAN receive audio when the radio is on Wi-Fi, otherwise the ALSA device (the rig's USB sound card)",
    alsa: 'the ALSA capture device alsa_device',
    lan: "the IC-705's receive audio over its Wi-Fi LAN session (the radio settings' wifi_host and login)",
  }),
  alsa_device: alsaDevice(),
  sample_rate: v.pipe(
    v.number('must be a number'),
    v.picklist(RECORDING_RATES_HZ, `must be one of ${RECORDING_RATES_HZ.join(', ')}`),
    v.description('Hz; the saved audio is at this rate whatever the source delivers'),
  ),
  min_elevation_deg: v.pipe(v.number('must be a number'), v.finite(), v.minValue(0, 'must be 0 to 90'), v.maxValue(90, 'must be 0 to 90')),
  pre_roll_s: v.pipe(v.number('must be a number'), v.integer('must be whole seconds'), v.minValue(0, 'must be 0 to 600'), v.maxValue(600, 'must be 0 to 600')),
  keep_mb: v.pipe(
    v.number('must be a number'),
    v.finite(),
    v.minValue(0.1, 'must be 0.1 to 1000000'),
    v.maxValue(1_000_000, 'must be 0.1 to 1000000'),
    v.description('MiB the recordings may take together; the oldest go first past it'),
  ),
});
export type RecordingSettings = v.InferOutput<typeof RecordingSettingsSchema>;

export const defaultRecordingSettings = (): RecordingSettings => ({
  enabled: false,
  source: 'auto',
  alsa_device: 'default',
  sample_rate: 16000,
  min_elevation_deg: 5,
  pre_roll_s: 5,
  keep_mb: 2048,
});
