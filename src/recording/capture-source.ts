import { LAN_AUDIO_RATE_HZ, openWifiRig, type LanLeaser, type WifiRigSettings } from '../radio/radio-api.js';
import { errorMessage } from '../util/errors.js';
import { startAlsaCapture } from './alsa-capture.js';
import type { CaptureSource } from './schemas.js';
import type { RecordingSettings } from './settings.js';

// Where a recording's audio comes from: the ALSA device through arecord, or the IC-705's LAN
// receive stream (one more lease of the session radio control and APRS may already hold). Either
// way the recorder sees one shape: PCM blocks at a known rate, and one end (an error or null).

export interface OpenCapture {
  kind: 'open';
  source: CaptureSource;
  /** The rate the blocks arrive at (the LAN stream's is fixed; ALSA's plug layer gives the one asked for). */
  rateHz: number;
  /** What it is, for the log and the journal's first note. */
  what: string;
  stop(): Promise<void>;
}
export type CaptureResult = OpenCapture | { kind: 'failed'; error: string };

export interface CaptureNeeds {
  /** The radio's Wi-Fi link when the radio is set up on Wi-Fi (an IC-705); null otherwise. */
  radioOnWifi(): WifiRigSettings | null;
  lan: LanLeaser;
  /** The ALSA input device the Dire Wolf TNC holds now; null when no TNC runs on a sound card. */
  tncAudioDevice(): string | null;
  /** Tests run arecord with an ALSA configuration of their own (XDG_CONFIG_HOME). */
  env?: NodeJS.ProcessEnv;
  /** The monotonic clock ALSA capture is paced by (real time; the bench runs a 15-minute pass faster). */
  paceClock?: () => number;
}

/** The source a recording takes now: `auto` is the LAN stream when the radio is on Wi-Fi, else ALSA. */
export function captureSourceOf(s: RecordingSettings, onWifi: boolean): CaptureSource {
  return s.source === 'auto' ? (onWifi ? 'lan' : 'alsa') : s.source;
}

/** `hw:1,0`, `plughw:CARD=CODEC,DEV=0`: the card and device a hardware name opens; null for any other PCM. */
export function hardwareOf(name: string): { card: string; dev: string } | null {
  const m = /^(?:plug)?hw:(?:CARD=)?([A-Za-z0-9_]+)(?:,(?:DEV=)?(\d+))?$/.exec(name);
  return m ? { card: m[1], dev: m[2] ?? '0' } : null;
}

/**
 * The PCM the recorder opens for the operator's device. A hardware name (`hw:`, `plughw:`) would
 * take the card for itself, and Dire Wolf may need it for APRS: it goes through ALSA's dsnoop
 * instead, which lets every dsnoop reader share the capture. ALSA's own `default` for a USB card
 * (the rig's sound card) already captures through dsnoop, and named PCMs are the operator's own.
 */
export function sharedCaptureDevice(name: string): string {
  const hw = hardwareOf(name);
  return hw ? `plug:'dsnoop:CARD=${hw.card},DEV=${hw.dev}'` : name;
}

/** Why the recorder must keep off the card: Dire Wolf holds it exclusively (a hardware name on the same card). */
export function tncConflict(recorderDevice: string, tncDevice: string | null): string | null {
  if (!tncDevice) return null;
  const ours = hardwareOf(recorderDevice);
  const theirs = hardwareOf(tncDevice);
  const sameCard = theirs !== null && (ours === null ? recorderDevice === 'default' || recorderDevice.includes(`CARD=${theirs.card}`) : ours.card === theirs.card);
  if (!sameCard) return null;
  return (
    `Dire Wolf holds ${tncDevice} for APRS on its own, so recording from ${recorderDevice} would take its audio away: ` +
    `set the APRS audio_input_device to default:CARD=${theirs!.card} (ALSA shares a USB card's capture through dsnoop) and both can listen`
  );
}

export async function openCapture(
  s: RecordingSettings,
  n: CaptureNeeds,
  onPcm: (pcm: Int16Array) => void,
  onEnd: (error: string | null) => void,
): Promise<CaptureResult> {
  const wifi = n.radioOnWifi();
  const source = captureSourceOf(s, wifi !== null);
  if (source === 'lan') {
    if (!wifi) return { kind: 'failed', error: "source is lan but the radio is not on Wi-Fi: set the radio's transport to wifi (an IC-705) or record from alsa" };
    try {
      const rig = await openWifiRig(n.lan, 'recording', wifi);
      let ended = false;
      const unsubscribe = rig.onAudio(onPcm);
      rig.onLost((reason) => {
        if (ended) return;
        ended = true;
        unsubscribe();
        onEnd(`the radio's LAN audio stopped: ${reason}`);
      });
      return {
        kind: 'open',
        source,
        rateHz: LAN_AUDIO_RATE_HZ,
        what: `${rig.radioName} LAN receive audio at ${wifi.wifi_host}`,
        stop: async () => {
          if (ended) return;
          ended = true;
          unsubscribe();
          await rig.release().catch(() => {});
          onEnd(null);
        },
      };
    } catch (err) {
      return { kind: 'failed', error: `the radio's LAN audio could not be opened: ${errorMessage(err)}` };
    }
  }
  const conflict = tncConflict(s.alsa_device, n.tncAudioDevice());
  if (conflict) return { kind: 'failed', error: conflict };
  const device = sharedCaptureDevice(s.alsa_device);
  const cap = startAlsaCapture({ device, sampleRate: s.sample_rate, onPcm, onEnd, env: n.env, now: n.paceClock });
  return { kind: 'open', source, rateHz: s.sample_rate, what: `ALSA ${device}`, stop: () => cap.stop() };
}
