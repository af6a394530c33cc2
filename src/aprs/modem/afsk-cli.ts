// Dev and field tool: TNC2 monitor-format packets → Bell 202 AFSK audio in a WAV file, through the
// same modulator the service streams to the radio. Each packet is one transmission (TXDELAY flags,
// frame, tail flags), packets separated by silence.
//   npm run afsk -- [--rate 48000] --out FILE.wav [--txdelay MS] [--tail MS] [--gap MS] 'SRC>DST,PATH:info' ...
// Exit status: 0 written, 1 the file could not be written, 2 a bad option or packet.
import { writeFileAtomicSync } from '../../store/atomic-file.js';
import { encodeAx25 } from '../codec/ax25.js';
import { parseTnc2, toTnc2 } from '../codec/tnc2.js';
import {
  AFSK_DEFAULT_TAIL_MS,
  AFSK_DEFAULT_TXDELAY_MS,
  AFSK_MAX_RATE,
  AFSK_MAX_TAIL_MS,
  AFSK_MAX_TXDELAY_MS,
  AFSK_MIN_RATE,
  AfskModulator,
  samplesToMs,
} from './afsk.js';
import { wavBytes } from './wav.js';

const DEFAULT_RATE = 48000;
const DEFAULT_GAP_MS = 500;
const MAX_GAP_MS = 60_000;

const USAGE = `usage: npm run afsk -- [options] --out FILE.wav 'SRC>DST,PATH:info' ...
  Writes each TNC2 packet as one Bell 202 (1200 bd AFSK) transmission into a 16-bit mono WAV.
  --out FILE     the WAV file to write (required)
  --rate HZ      sample rate, ${AFSK_MIN_RATE}..${AFSK_MAX_RATE} (default ${DEFAULT_RATE}; the IC-705 LAN stream is 24000)
  --txdelay MS   flags before each frame, 0..${AFSK_MAX_TXDELAY_MS} ms (default ${AFSK_DEFAULT_TXDELAY_MS})
  --tail MS      flags after each frame, 0..${AFSK_MAX_TAIL_MS} ms (default ${AFSK_DEFAULT_TAIL_MS})
  --gap MS       silence between packets, 0..${MAX_GAP_MS} ms (default ${DEFAULT_GAP_MS})
  --help         this text
  Packets: SRC>DEST[,DIGI...]:info as TNC2 monitor text; info characters U+0000..U+00FF are sent as those bytes.`;

class UsageError extends Error {}

interface CliOptions {
  out: string;
  rate: number;
  txDelayMs: number;
  tailMs: number;
  gapMs: number;
  packets: string[];
}

function number(opt: string, text: string, min: number, max: number, integer: boolean): number {
  const v = text.trim() === '' ? NaN : Number(text);
  if (!Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) {
    throw new UsageError(`${opt} must be ${integer ? 'an integer' : 'a number'} in ${min}..${max}, got '${text}'`);
  }
  return v;
}

function parseArgs(argv: string[]): CliOptions | 'help' {
  const o = { out: '', rate: DEFAULT_RATE, txDelayMs: AFSK_DEFAULT_TXDELAY_MS, tailMs: AFSK_DEFAULT_TAIL_MS, gapMs: DEFAULT_GAP_MS, packets: [] as string[] };
  let optionsDone = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (optionsDone || !arg.startsWith('--')) {
      o.packets.push(arg);
      continue;
    }
    if (arg === '--') {
      optionsDone = true;
      continue;
    }
    if (arg === '--help' || arg === '-h') return 'help';
    const eq = arg.indexOf('=');
    const name = eq >= 0 ? arg.slice(0, eq) : arg;
    const value = (): string => {
      if (eq >= 0) return arg.slice(eq + 1);
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${name} needs a value`);
      return v;
    };
    if (name === '--out') o.out = value();
    else if (name === '--rate') o.rate = number(name, value(), AFSK_MIN_RATE, AFSK_MAX_RATE, true);
    else if (name === '--txdelay') o.txDelayMs = number(name, value(), 0, AFSK_MAX_TXDELAY_MS, false);
    else if (name === '--tail') o.tailMs = number(name, value(), 0, AFSK_MAX_TAIL_MS, false);
    else if (name === '--gap') o.gapMs = number(name, value(), 0, MAX_GAP_MS, false);
    else throw new UsageError(`unknown option ${name}`);
  }
  if (!o.out) throw new UsageError('--out FILE.wav is required');
  if (o.packets.length === 0) throw new UsageError('give at least one packet');
  return o;
}

function main(argv: string[]): number {
  let opts: CliOptions | 'help';
  try {
    opts = parseArgs(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`afsk: ${err.message}\n${USAGE}`);
    return 2;
  }
  if (opts === 'help') {
    console.log(USAGE);
    return 0;
  }

  const shown: string[] = [];
  const frames: Uint8Array[] = [];
  for (let i = 0; i < opts.packets.length; i++) {
    const r = parseTnc2(opts.packets[i]);
    if (!r.ok) {
      console.error(`afsk: packet ${i + 1} '${opts.packets[i]}': ${r.error}`);
      return 2;
    }
    shown.push(toTnc2(r.frame));
    frames.push(encodeAx25(r.frame));
  }

  const mod = new AfskModulator({ sampleRate: opts.rate, txDelayMs: opts.txDelayMs, tailMs: opts.tailMs });
  const gap = Math.round((opts.gapMs * opts.rate) / 1000);
  const lengths = frames.map((f) => mod.samplesFor([f]));
  const total = lengths.reduce((a, b) => a + b, 0) + gap * (frames.length - 1);
  const pcm = new Int16Array(total); // zero-filled: the gaps are silence
  let at = 0;
  for (let i = 0; i < frames.length; i++) {
    if (i > 0) at += gap;
    const audio = mod.modulate([frames[i]]);
    pcm.set(audio, at);
    at += audio.length;
    console.log(`${i + 1}: ${shown[i]}  (${frames[i].length} bytes, ${mod.bitsFor([frames[i]])} bits, ${samplesToMs(audio.length, opts.rate).toFixed(1)} ms)`);
  }
  try {
    writeFileAtomicSync(opts.out, wavBytes(pcm, opts.rate)); // never a half-written WAV
  } catch (err) {
    console.error(`afsk: cannot write ${opts.out}: ${(err as Error).message}`);
    return 1;
  }
  console.log(
    `wrote ${opts.out}: ${frames.length} packet${frames.length === 1 ? '' : 's'}, ${(samplesToMs(total, opts.rate) / 1000).toFixed(3)} s at ${opts.rate} Hz ` +
      `(TXDELAY ${mod.layout.leadFlags} flags, tail ${mod.layout.tailFlags} flags, gap ${opts.gapMs} ms)`,
  );
  return 0;
}

process.exitCode = main(process.argv.slice(2));
