// The Dire Wolf (1.6) configuration and command line for our TNC sidecar. Pure: the caller
// decides the PTT plan and where the file goes; tnc-process.ts writes it and starts the program.
//
// Facts from Dire Wolf 1.6's own source (src/config.c, audio.c, kiss.c) and `direwolf -h`:
// - A line is split on spaces; a token may be "quoted" (a quote inside doubled). A line whose
//   first token starts with # or * is a comment. Lines are read with fgets, so a newline in a
//   value would start a new command: every value is checked here, never pasted raw.
// - `ADEVICE in [out]`; Dire Wolf copies the names into 30-byte buffers (audio.c), so a name of
//   30 characters or more is silently truncated and the wrong device opened: refused here.
//   "stdin", "-" and "udp:…" are not sound cards (stdin reads audio from standard input, udp:
//   opens a UDP listener on every interface): refused unless audioFromStdin asks for stdin.
// - `PTT RIG model port [rate]`: model 1..9999 (or AUTO), port a serial device (host:port for
//   model 2, rigctld), rate optional. `PTT device RTS|DTR|-RTS|-DTR`. `PTT CM108 [[-]gpio] [/dev/hidrawN]`:
//   without a device Dire Wolf looks for the hidraw node of the audio output device.
// - `AGWPORT 0` / `KISSPORT 0` disable the AGW and KISS TCP servers. Without them Dire Wolf
//   listens on 8000 and 8001 on ALL interfaces, so anything on the LAN could key the transmitter.
//   The same defaults apply when the config file cannot be opened: tnc-process never starts
//   Dire Wolf without having written this file.
// - `-p` makes a KISS pseudo-terminal and prints "Virtual KISS TNC is available on /dev/pts/N";
//   `-t 0` turns off colour escapes; `-c file` names the configuration.
// - No PBEACON/CBEACON/IGSERVER/DIGIPEAT lines: beacons, the igate and the digipeater are ours.

import type { AprsSettings } from '../settings.js';

export type PttPlan =
  | { kind: 'hamlib'; model: number; device: string; baud: number }
  | { kind: 'serial-line'; device: string; line: 'RTS' | 'DTR' }
  | { kind: 'cm108'; device: string | null }
  | { kind: 'none' };

export interface DirewolfLaunch {
  configText: string;
  /** Arguments, excluding the program itself. */
  args: string[];
}

export interface DirewolfLaunchOptions {
  /** CALL-SSID, or 'N0CALL' when listening without a callsign. */
  mycall: string;
  /** ALSA device names; empty means 'default'. */
  audioIn: string;
  audioOut: string;
  ptt: PttPlan;
  configPath: string;
  /** Tests: read received audio from standard input instead of audioIn. */
  audioFromStdin?: boolean;
  /**
   * Wi-Fi transport: decode only. Received audio (16-bit mono at this rate) arrives on standard
   * input from the rig's LAN stream; output goes to ALSA's null device and no PTT exists, so this
   * Dire Wolf can never key anything (our own modem transmits).
   */
  decodeOnlyStdinRate?: number;
}

/** APRS settings keys a configuration error can name (the field the operator fixes). */
export type DirewolfConfigField = 'callsign' | 'serial_device' | 'rig_lib_model_id' | 'baud_rate' | 'ptt_device' | 'audio_input_device' | 'audio_output_device' | null;

/**
 * A value that cannot be written into a Dire Wolf configuration safely or correctly. `field` is
 * the APRS setting to fix; `missing` says it is empty where the chosen PTT method needs it.
 */
export class DirewolfConfigError extends Error {
  constructor(
    message: string,
    readonly field: DirewolfConfigField = null,
    readonly missing = false,
  ) {
    super(message);
    this.name = 'DirewolfConfigError';
  }
}

/** Longest ALSA device name Dire Wolf 1.6 keeps whole (char audio_in_name[30] in audio.c). */
export const DIREWOLF_MAX_AUDIO_NAME = 29;
/** Longest PTT device name it keeps whole (char ptt_device[100] in audio.h). */
export const DIREWOLF_MAX_PTT_DEVICE = 99;
/** Hamlib model numbers Dire Wolf 1.6 accepts after PTT RIG. */
export const DIREWOLF_MAX_HAMLIB_MODEL = 9999;

const CALL_RE = /^[A-Z0-9]{1,6}(-(1[0-5]|[0-9]))?$/;
const PRINTABLE_RE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/; // printable, no leading/trailing space

/** One configuration token: checked, and quoted when it has a space or a quote in it. */
function token(value: string, what: string, maxLen: number, field: DirewolfConfigField): string {
  if (!PRINTABLE_RE.test(value)) throw new DirewolfConfigError(`${what} must be printable ASCII without control characters or surrounding spaces: ${JSON.stringify(value)}`, field);
  if (value.length > maxLen) throw new DirewolfConfigError(`${what} is ${value.length} characters; Dire Wolf 1.6 keeps only ${maxLen}: ${JSON.stringify(value)}`, field);
  return /[ "]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

function audioDevice(value: string, what: string, field: DirewolfConfigField): string {
  const v = value.trim() === '' ? 'default' : value;
  if (/^(stdin|-)$/i.test(v) || /^udp:/i.test(v)) throw new DirewolfConfigError(`${what} ${JSON.stringify(v)} is not a sound card (Dire Wolf reads standard input or opens a UDP listener for it)`, field);
  return token(v, what, DIREWOLF_MAX_AUDIO_NAME, field);
}

/** A device path after PTT (or after PTT CM108): must start with /, so it can never read as a keyword. */
function devicePath(value: string, what: string, field: DirewolfConfigField): string {
  if (!value.startsWith('/')) throw new DirewolfConfigError(`${what} must be a device path starting with /: ${JSON.stringify(value)}`, field);
  return token(value, what, DIREWOLF_MAX_PTT_DEVICE, field);
}

export function pttLine(ptt: PttPlan): string {
  switch (ptt.kind) {
    case 'hamlib': {
      if (!Number.isInteger(ptt.model) || ptt.model < 1 || ptt.model > DIREWOLF_MAX_HAMLIB_MODEL)
        throw new DirewolfConfigError(`Dire Wolf 1.6 takes a Hamlib model number 1..${DIREWOLF_MAX_HAMLIB_MODEL} after PTT RIG, got ${ptt.model}`, 'rig_lib_model_id');
      if (!Number.isInteger(ptt.baud) || ptt.baud < 1 || ptt.baud > 10_000_000) throw new DirewolfConfigError(`CAT baud rate must be a positive integer, got ${ptt.baud}`, 'baud_rate');
      if (!ptt.device) throw new DirewolfConfigError('PTT over CAT needs the rig’s serial device: choose it (serial_device), or pick another PTT method (VOX keys on audio)', 'serial_device', true);
      // Model 2 is Hamlib's NET rigctl: the port is host:port rather than a device.
      const port = ptt.model === 2 ? token(ptt.device, 'rigctld address', DIREWOLF_MAX_PTT_DEVICE, 'serial_device') : devicePath(ptt.device, 'CAT serial device', 'serial_device');
      return `PTT RIG ${ptt.model} ${port} ${ptt.baud}`;
    }
    case 'serial-line':
      if (ptt.line !== 'RTS' && ptt.line !== 'DTR') throw new DirewolfConfigError(`PTT line must be RTS or DTR, got ${String(ptt.line)}`);
      if (!ptt.device) throw new DirewolfConfigError(`PTT on ${ptt.line} needs the serial device whose ${ptt.line} line keys the radio: choose it (ptt_device)`, 'ptt_device', true);
      return `PTT ${devicePath(ptt.device, 'PTT serial device', 'ptt_device')} ${ptt.line}`;
    case 'cm108':
      return ptt.device ? `PTT CM108 ${devicePath(ptt.device, 'CM108 hidraw device', 'ptt_device')}` : 'PTT CM108';
    case 'none':
      return '# PTT: none (the transmitter keys on audio, VOX)';
  }
}

export function direwolfLaunch(o: DirewolfLaunchOptions): DirewolfLaunch {
  const mycall = o.mycall.trim().toUpperCase();
  if (!CALL_RE.test(mycall)) throw new DirewolfConfigError(`MYCALL must be a callsign like N0CALL or N0CALL-7, got ${JSON.stringify(o.mycall)}`, 'callsign');
  const rate = o.decodeOnlyStdinRate;
  if (rate !== undefined && (!Number.isInteger(rate) || rate < 8000 || rate > 192000)) throw new DirewolfConfigError(`audio sample rate must be 8000..192000 Hz, got ${rate}`);
  const input = o.audioFromStdin || rate ? 'stdin' : audioDevice(o.audioIn, 'audio input device', 'audio_input_device');
  const output = rate ? 'null' : audioDevice(o.audioOut, 'audio output device', 'audio_output_device');
  if (!o.configPath || /[\0\n\r]/.test(o.configPath)) throw new DirewolfConfigError('config path must be a plain file path');
  const lines = [
    '# Written by satstation on every start of the TNC; edits here are overwritten.',
    '# No beacons, igate or digipeater here: satstation does those itself.',
    `ADEVICE ${input} ${output}`,
    ...(rate ? [`ARATE ${rate}`] : []),
    'ACHANNELS 1',
    'CHANNEL 0',
    `MYCALL ${mycall}`,
    'MODEM 1200',
    rate ? '# PTT: none (decode only; satstation keys the rig over its LAN session)' : pttLine(o.ptt),
    '# No network servers: KISS goes over the pseudo-terminal (-p) only.',
    'AGWPORT 0',
    'KISSPORT 0',
  ];
  return {
    configText: lines.join('\n') + '\n',
    args: ['-c', o.configPath, '-p', '-t', '0'],
  };
}

/**
 * The PTT plan the settings describe. Listen-only gets no PTT at all, so even a frame that slipped
 * through to the TNC could not key the transmitter. The caller may decide otherwise (e.g. when
 * its own rig link already holds serial_device); this is the plain reading of the settings.
 */
export function pttPlanFor(s: Pick<AprsSettings, 'listen_only' | 'ptt_method' | 'ptt_device' | 'rig_lib_model_id' | 'serial_device' | 'baud_rate'>): PttPlan {
  if (s.listen_only) return { kind: 'none' };
  switch (s.ptt_method) {
    case 'cat':
      return { kind: 'hamlib', model: s.rig_lib_model_id, device: s.serial_device, baud: s.baud_rate };
    case 'rts':
      return { kind: 'serial-line', device: s.ptt_device, line: 'RTS' };
    case 'dtr':
      return { kind: 'serial-line', device: s.ptt_device, line: 'DTR' };
    case 'cm108':
      return { kind: 'cm108', device: s.ptt_device || null };
    case 'vox':
      return { kind: 'none' };
  }
}

/** MYCALL from the station identity: CALL or CALL-SSID, N0CALL when there is no callsign. */
export const mycallFor = (s: Pick<AprsSettings, 'callsign' | 'ssid'>): string => (s.callsign ? (s.ssid ? `${s.callsign}-${s.ssid}` : s.callsign) : 'N0CALL');
