// What Dire Wolf's output means, in the operator's words. Pure: lines in, a diagnosis out.
//
// Dire Wolf 1.6 explains its failures in several lines: ALSA's own library chatter first
// ("ALSA lib confmisc.c:855:(parse_card) cannot find card '0'", half a dozen of them), then its
// sentence ("Could not open audio device default for input"), then strerror ("No such file or
// directory"), then "Pointless to continue without audio device." None of that says which
// setting to change. The patterns below are Dire Wolf 1.6's wording (audio.c, ptt.c, kissnet.c,
// server.c, config.c), checked against the real program's output (test/aprs/fixtures/direwolf/).
//
// "Note: PTT not configured for channel 0. (Ignore this if using VOX.)" is not an error: Dire
// Wolf prints it whenever no PTT line is configured, which is right for VOX and for our
// decode-only receiver (Wi-Fi). It only matters when we asked for a PTT, and then the line
// before it says what failed.

export type DiagnosisKind =
  | 'no_sound_card'
  | 'audio_input'
  | 'audio_output'
  | 'ptt_device_missing'
  | 'ptt_permission'
  | 'ptt_device'
  | 'hamlib'
  | 'port_in_use'
  | 'config'
  | 'crash';

export interface DirewolfDiagnosis {
  kind: DiagnosisKind;
  /** One short line: what is wrong (a one-liner shows this). */
  summary: string;
  /** What to do about it: the setting, and how to find the right value. */
  fix: string;
  /** Dire Wolf cannot work like this (it exits, or sits useless); otherwise it runs degraded. */
  fatal: boolean;
}

const WHERE = '/settings → APRS';

const AUDIO_OPEN_RE = /^Could not open audio device (.+?) for (input|output)\b/;
/** ALSA found no card at all (the default device points at card 0, which is not there). */
const NO_CARD_RE = /cannot find card '0'|no soundcards found/i;
const UNKNOWN_PCM_RE = /Unknown PCM (\S+)/;
const NO_AUDIO_RE = /^Pointless to continue without audio device/;
const PTT_OPEN_RE = /^ERROR can't open device (.+?) for channel \d+ PTT control/;
const HAMLIB_RE = /^Hamlib Rig open error (-?\d+)/;
const HAMLIB_PORT_RE = /Unable to open (\S+) - (.+)$/;
const PORT_RE = /^Some other application is probably already using port (\d+)/;
const PORT_SETTING_RE = /with (KISSPORT|AGWPORT)/;
const CONFIG_RE = /^(Config file line \d+:|Line \d+:)\s*(.*)$/;
const ERRNO_RE = /^(No such file or directory|Permission denied|Device or resource busy|No such device|Input\/output error|Address already in use)$/;
const CRASH_SIGNALS = new Set(['SIGSEGV', 'SIGBUS', 'SIGABRT', 'SIGILL', 'SIGFPE', 'SIGTRAP', 'SIGSYS']);

/** The strerror line Dire Wolf prints right after a failed open, if any. */
function errnoAfter(lines: readonly string[], i: number): string | null {
  const next = lines[i + 1]?.trim() ?? '';
  return ERRNO_RE.test(next) ? next : null;
}

function audioDiagnosis(lines: readonly string[], i: number, device: string, dir: 'input' | 'output'): DirewolfDiagnosis {
  const errno = errnoAfter(lines, i);
  // ALSA writes to stderr and Dire Wolf to stdout: through two pipes their order is not kept, so
  // ALSA's evidence may come before or after Dire Wolf's sentence.
  const alsa = lines.filter((l) => l.startsWith('ALSA lib'));
  const list = dir === 'input' ? 'arecord -l' : 'aplay -l';
  const setting = dir === 'input' ? 'Audio input device' : 'Audio output device';
  if (errno === 'Device or resource busy')
    return {
      kind: dir === 'input' ? 'audio_input' : 'audio_output',
      summary: `Sound card "${device}" is busy: another program has it open`,
      fix: `Stop the other program (fuser -v /dev/snd/* shows it), or pick another card as ${setting} in ${WHERE} (${list} lists them).`,
      fatal: true,
    };
  if (device === 'default' && alsa.some((l) => NO_CARD_RE.test(l)))
    return {
      kind: 'no_sound_card',
      summary: `No sound card found for Dire Wolf (audio ${dir} "${device}")`,
      fix: `Plug in the radio's USB audio (or a USB sound card), then set ${setting} in ${WHERE} to it: ${list} lists the cards (e.g. plughw:1,0).`,
      fatal: true,
    };
  const missing = alsa.some((l) => /Cannot get card index/.test(l) || UNKNOWN_PCM_RE.exec(l)?.[1] === device);
  return {
    kind: dir === 'input' ? 'audio_input' : 'audio_output',
    summary: missing ? `Sound card "${device}" (audio ${dir}) not found` : `Dire Wolf cannot open the audio ${dir} "${device}"${errno ? ` (${errno.toLowerCase()})` : ''}`,
    fix: `Set ${setting} in ${WHERE} to a card that exists: ${list} lists them (e.g. plughw:1,0 for card 1, device 0).`,
    fatal: true,
  };
}

function pttDiagnosis(device: string, errno: string | null): DirewolfDiagnosis {
  if (errno === 'Permission denied')
    return {
      kind: 'ptt_permission',
      summary: `No permission to open the PTT device ${device}: receive only`,
      fix: 'Add the service user to the dialout group (sudo usermod -aG dialout <service user>), then restart the service.',
      fatal: false,
    };
  if (errno === 'No such file or directory' || errno === 'No such device')
    return {
      kind: 'ptt_device_missing',
      summary: `PTT device ${device} not found: receive only`,
      fix: `Plug in the radio's USB cable, or set the PTT device in ${WHERE} (ls /dev/serial/by-id lists the serial ports).`,
      fatal: false,
    };
  return {
    kind: 'ptt_device',
    summary: `Dire Wolf cannot open the PTT device ${device}${errno ? ` (${errno.toLowerCase()})` : ''}: receive only`,
    fix: `Check the PTT device in ${WHERE}, and that no other program holds it.`,
    fatal: false,
  };
}

/**
 * Reads the lines of one Dire Wolf run (in the order printed) into the problem they show, or
 * null when there is none. A fatal problem wins over a degraded one; otherwise the first wins.
 */
export function diagnoseOutput(lines: readonly string[]): DirewolfDiagnosis | null {
  let degraded: DirewolfDiagnosis | null = null;
  const keep = (d: DirewolfDiagnosis) => {
    degraded ??= d;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    const audio = AUDIO_OPEN_RE.exec(line);
    if (audio) return audioDiagnosis(lines, i, audio[1], audio[2] as 'input' | 'output');
    const config = CONFIG_RE.exec(line);
    if (config)
      return { kind: 'config', summary: `Dire Wolf refused its configuration: ${config[2] || line}`, fix: `Check the APRS settings in ${WHERE}.`, fatal: true };
    const ptt = PTT_OPEN_RE.exec(line);
    if (ptt) {
      keep(pttDiagnosis(ptt[1], errnoAfter(lines, i)));
      continue;
    }
    const hamlib = HAMLIB_RE.exec(line);
    if (hamlib) {
      // Hamlib's debug chatter follows; its "Unable to open <dev> - <why>" names the port.
      const port = lines.slice(i, i + 40).map((l) => HAMLIB_PORT_RE.exec(l)).find(Boolean);
      keep(
        port && /No such file/.test(port[2])
          ? pttDiagnosis(port[1], 'No such file or directory')
          : port && /Permission denied/.test(port[2])
            ? pttDiagnosis(port[1], 'Permission denied')
            : {
                kind: 'hamlib',
                summary: `Dire Wolf could not open the rig for CAT PTT (Hamlib error ${hamlib[1]}${port ? `: ${port[2]}` : ''}): receive only`,
                fix: `Check the CAT serial device, rig model and baud rate in ${WHERE}, and that no other program holds the port.`,
                fatal: false,
              },
      );
      continue;
    }
    const port = PORT_RE.exec(line);
    if (port) {
      const which = PORT_SETTING_RE.exec(lines[i + 1] ?? '')?.[1] === 'AGWPORT' ? 'AGW' : 'KISS';
      keep({
        kind: 'port_in_use',
        summary: `Port ${port[1]} (${which} network server) is in use by another program`,
        fix: `Stop the program holding it (ss -ltnp 'sport = :${port[1]}' shows it), or start no other TNC.`,
        fatal: false,
      });
      continue;
    }
    if (NO_AUDIO_RE.test(line))
      return {
        kind: 'no_sound_card',
        summary: 'Dire Wolf has no usable audio device',
        fix: `Set the audio input and output devices in ${WHERE}: arecord -l and aplay -l list the cards.`,
        fatal: true,
      };
  }
  return degraded;
}

/** How a run ended, when its output said nothing: a crash is named as one. */
export function diagnoseExit(exit: { code: number | null; signal: string | null }): DirewolfDiagnosis | null {
  if (exit.signal && CRASH_SIGNALS.has(exit.signal))
    return {
      kind: 'crash',
      summary: `Dire Wolf crashed (${exit.signal})`,
      fix: 'It is restarted with a growing pause. If it keeps crashing, check the sound card and the Dire Wolf version (direwolf -h), and the output below.',
      fatal: true,
    };
  return null;
}

/** Lines a status one-liner may show as they are: errors Dire Wolf printed that no pattern above knows. */
const ERROR_LINE_RE = /^(ERROR\b|Could not |Can't |Hamlib Rig open error|Fatal)/i;
const NOT_AN_ERROR_RE = /^Note: PTT not configured/;

export function isErrorLine(line: string): boolean {
  return ERROR_LINE_RE.test(line) && !NOT_AN_ERROR_RE.test(line);
}
