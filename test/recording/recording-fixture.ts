import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTone } from '../helpers/tone.js';

// An ALSA capture device that reads a file, for the recorder's tests: ALSA's `file` plugin on the
// `null` slave, named `satfile`, in an asoundrc that alsa-lib loads from $XDG_CONFIG_HOME. The
// server's arecord gets that environment (AppOptions.recording.env), nothing else changes.

export interface AlsaFileDevice {
  /** The environment arecord runs with. */
  env: NodeJS.ProcessEnv;
  device: 'satfile';
  dir: string;
  remove(): void;
}

/** `seconds` of a `hz` tone at `rate` as the device's input (16-bit LE mono), then silence (the plugin's zeros). */
export function alsaFileDevice(o: { rate?: number; hz?: number; seconds?: number } = {}): AlsaFileDevice {
  const dir = mkdtempSync(join(tmpdir(), 'satstation-alsa-'));
  const tone = makeTone(o.rate ?? 16000, o.hz ?? 1000, o.seconds ?? 3);
  writeFileSync(join(dir, 'in.raw'), Buffer.from(tone.buffer, tone.byteOffset, tone.byteLength));
  mkdirSync(join(dir, 'alsa'));
  writeFileSync(join(dir, 'alsa', 'asoundrc'), `pcm.satfile {\n  type file\n  slave.pcm "null"\n  file "/dev/null"\n  infile "${join(dir, 'in.raw')}"\n  format "raw"\n}\n`);
  return { env: { ...process.env, XDG_CONFIG_HOME: dir }, device: 'satfile', dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The samples of an audio file as the station saved it: WAV read directly, Ogg Opus decoded by opusdec at `rate`. */
export function decodeAudio(path: string, format: 'ogg' | 'wav', rate: number): Int16Array {
  let wav = path;
  if (format === 'ogg') {
    wav = `${path}.decoded.wav`;
    const r = spawnSync('opusdec', ['--quiet', '--rate', String(rate), path, wav]);
    if (r.status !== 0) throw new Error(`opusdec failed: ${r.stderr}`);
  }
  const b = readFileSync(wav);
  const data = b.subarray(44);
  return new Int16Array(data.buffer.slice(data.byteOffset, data.byteOffset + (data.byteLength & ~1)));
}
