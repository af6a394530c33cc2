import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeAx25, type Ax25Address, type Ax25Frame } from '../../src/aprs/codec/ax25.js';
import { toTnc2 } from '../../src/aprs/codec/tnc2.js';
import { AfskModulator, RADIO_STREAM_RATE } from '../../src/aprs/modem/afsk.js';
import { wavBytes } from '../../src/aprs/modem/wav.js';
import { resolveTncBinary } from '../../src/aprs/tnc/tnc-binary.js';
import { mulberry32 } from '../helpers/prng.js';

// Our Bell 202 transmit modem against an independent receiver: Dire Wolf's `atest`, which runs
// Dire Wolf's own 1200 bd demodulator (its default profile, no bit fixing) over a WAV file. 100
// seeded packets of varied addresses, paths and info (all printable ASCII, random bytes, runs of
// 0xFF/0x7E/0x7C that make the most stuffing), each its own transmission with the default TXDELAY
// and tail, separated by silence. `atest -h` prints every decoded frame as hex, so the bytes are
// compared exactly, not only counted.

const atest = resolveTncBinary('atest');
const required = process.env.REQUIRE_DIREWOLF === '1';
const skip = !atest.installed && !required ? 'atest (Dire Wolf) is not on PATH (apt-get install direwolf); set REQUIRE_DIREWOLF=1 to make this a failure' : false;

const N = 100;
const GAP_MS = 150;
const CALL_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const PRINTABLE = Array.from({ length: 0x7f - 0x20 }, (_, i) => 0x20 + i);
const HEAVY = [0xff, 0x7e, 0x7c, 0xfe, 0x3f, 0x7f, 0xff, 0xff];

const prng = mulberry32;

function makeFrames(seed: number): Ax25Frame[] {
  const rnd = prng(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  const call = (min: number) => Array.from({ length: min + int(7 - min) }, () => CALL_CHARS[int(CALL_CHARS.length)]).join('');
  const address = (withSsid: boolean): Ax25Address => ({ call: call(1), ssid: withSsid ? 1 + int(15) : 0, repeated: false });
  const frames: Ax25Frame[] = [];
  for (let i = 0; i < N; i++) {
    const len = i === 0 ? 1 : i === 1 ? 200 : i === 2 ? 256 : 1 + int(200);
    const info = new Uint8Array(len);
    const kind = i % 5;
    let p = int(PRINTABLE.length);
    for (let k = 0; k < len; k++) {
      if (kind === 0) info[k] = PRINTABLE[p++ % PRINTABLE.length]; // every printable character over the set
      else if (kind === 1) info[k] = int(256);
      else if (kind === 2) info[k] = rnd() < 0.7 ? HEAVY[int(HEAVY.length)] : int(256);
      else if (kind === 3) info[k] = PRINTABLE[int(PRINTABLE.length)];
      else info[k] = [0x00, 0xff, 0x7e, 0x55, 0xaa, 0x0d, 0x0a, 0xc0, 0xdb, 0x80][int(10)];
    }
    const nDigis = int(3);
    const repeated = int(nDigis + 1);
    const path = Array.from({ length: nDigis }, (_, k) => {
      const r = rnd();
      const a: Ax25Address = r < 0.3 ? { call: 'WIDE1', ssid: 1, repeated: false } : r < 0.5 ? { call: 'WIDE2', ssid: 2, repeated: false } : address(rnd() < 0.5);
      a.repeated = k < repeated;
      return a;
    });
    const source = address(i % 2 === 1);
    const destination = { ...address(rnd() < 0.3), repeated: true };
    frames.push({ destination, source, path, control: 0x03, pid: 0xf0, info });
  }
  return frames;
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** One transmission per entry of `groups` (each a list of AX.25 frames), silence between and around. */
function renderWav(groups: Uint8Array[][], rate: number): { pcm: Int16Array; tone: Array<[number, number]> } {
  const mod = new AfskModulator({ sampleRate: rate });
  const gap = Math.round((GAP_MS * rate) / 1000);
  const total = groups.reduce((n, g) => n + mod.samplesFor(g) + gap, gap);
  const pcm = new Int16Array(total);
  const tone: Array<[number, number]> = [];
  let at = gap;
  for (const g of groups) {
    const audio = mod.modulate(g);
    pcm.set(audio, at);
    tone.push([at, at + audio.length]);
    at += audio.length + gap;
  }
  assert.equal(at, total);
  return { pcm, tone };
}

/** White Gaussian noise (seeded, Box–Muller) at `snrDb` below the mean power of the tone portions. */
function addNoise(pcm: Int16Array, tone: Array<[number, number]>, snrDb: number, seed: number): Int16Array {
  let power = 0;
  let n = 0;
  for (const [a, b] of tone) for (let i = a; i < b; i++) (power += pcm[i] * pcm[i]), n++;
  power /= n;
  const sigma = Math.sqrt(power / 10 ** (snrDb / 10));
  const rnd = prng(seed);
  const out = new Int16Array(pcm.length);
  let clipped = 0;
  for (let i = 0; i < pcm.length; i += 2) {
    const r = Math.sqrt(-2 * Math.log(1 - rnd())) * sigma;
    const th = 2 * Math.PI * rnd();
    for (const [j, g] of [
      [i, r * Math.cos(th)],
      [i + 1, r * Math.sin(th)],
    ]) {
      if (j >= pcm.length) break;
      const v = Math.round(pcm[j] + g);
      if (v > 32767 || v < -32768) clipped++;
      out[j] = Math.max(-32768, Math.min(32767, v));
    }
  }
  assert.equal(clipped, 0, 'no clipping: the noise is measured as added');
  return out;
}

interface Decoded {
  line: string;
  bytes: string;
}
interface AtestResult {
  frames: Decoded[];
  reported: number;
}

// ANSI colour sequences atest writes even into a pipe.
const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;

function runAtest(dir: string, name: string, pcm: Int16Array, rate: number): AtestResult {
  const file = join(dir, `${name}.wav`);
  writeFileSync(file, wavBytes(pcm, rate));
  const r = spawnSync(atest.resolvedBinary, ['-B', '1200', '-h', file], { encoding: 'latin1', maxBuffer: 64 * 1024 * 1024, timeout: 20_000 });
  assert.equal(r.error, undefined, String(r.error));
  const lines = (r.stdout + r.stderr).replace(ANSI, '').split('\n');
  const summary = lines.map((l) => /^(\d+) packets decoded in /.exec(l)).find((m) => m);
  assert.ok(summary, `atest printed no summary:\n${lines.slice(-20).join('\n')}`);
  // Each frame: "DECODED[n] ...", "[0] SRC>DST...:info", "------", header lines, "  000:  hex...", "------".
  const frames: Decoded[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^DECODED\[\d+\]/.test(lines[i])) continue;
    const mon = /^\[\d[^\]]*\] (.*)$/.exec(lines[i + 1] ?? '');
    assert.ok(mon, `no monitor line after ${lines[i]}`);
    let bytes = '';
    let j = i + 2;
    while (j < lines.length && lines[j] !== '------') j++;
    for (j++; j < lines.length && lines[j] !== '------'; j++) {
      const m = /^ {2}[0-9a-f]{3}: {2}/.exec(lines[j]);
      if (m) bytes += (lines[j].slice(m[0].length, m[0].length + 48).match(/[0-9a-f]{2}/g) ?? []).join('');
    }
    frames.push({ line: mon[1].replace(/\r$/, ''), bytes });
    i = j;
  }
  assert.equal(frames.length, Number(summary[1]), 'every decoded frame parsed from the output');
  return { frames, reported: Number(summary[1]) };
}

describe('AFSK modem against Dire Wolf atest', { skip }, () => {
  let dir = '';
  const ax25 = makeFrames(0x5a7a);
  const bytes = ax25.map((f) => encodeAx25(f));
  const expected = bytes.map(hex);
  const perPacket = bytes.map((b) => [b]);

  before(() => {
    if (!atest.installed) assert.fail('REQUIRE_DIREWOLF=1 but atest (Dire Wolf) is not on PATH');
    dir = mkdtempSync(join(tmpdir(), 'satstation-afsk-'));
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the packet set covers what it claims', () => {
    const seen = new Set<number>();
    for (const f of ax25) for (const b of f.info) seen.add(b);
    for (const c of PRINTABLE) assert.ok(seen.has(c), `printable 0x${c.toString(16)} in some info`);
    assert.ok(seen.size > 250, `bytes 0x00..0xFF used: ${seen.size}`);
    const lens = ax25.map((f) => f.info.length);
    assert.equal(Math.min(...lens), 1);
    assert.equal(Math.max(...lens), 256);
    assert.deepEqual(new Set(ax25.map((f) => f.path.length)), new Set([0, 1, 2]));
    assert.ok(ax25.some((f) => f.source.ssid === 0) && ax25.some((f) => f.source.ssid > 0));
    assert.equal(new Set(expected).size, N);
  });

  for (const rate of [48000, RADIO_STREAM_RATE]) {
    it(`decodes ${N} of ${N} at ${rate} Hz, byte for byte`, (t) => {
      const { pcm } = renderWav(perPacket, rate);
      const got = runAtest(dir, `clean-${rate}`, pcm, rate);
      t.diagnostic(`atest: ${got.reported} of ${N} decoded at ${rate} Hz`);
      assert.equal(got.reported, N);
      assert.deepEqual(
        got.frames.map((f) => f.bytes),
        expected,
      );
      // The monitor lines of all-printable packets read as our own TNC2 text.
      let compared = 0;
      for (let i = 0; i < N; i++) {
        if (!ax25[i].info.every((b) => b >= 0x20 && b < 0x7f)) continue;
        assert.equal(got.frames[i].line, toTnc2(ax25[i]));
        compared++;
      }
      assert.ok(compared >= 30, `${compared} monitor lines compared`);
    });
  }

  for (const rate of [48000, RADIO_STREAM_RATE]) {
    it(`decodes at least 98 of ${N} at ${rate} Hz with white Gaussian noise at 20 dB SNR`, (t) => {
      const { pcm, tone } = renderWav(perPacket, rate);
      const got = runAtest(dir, `noisy-${rate}`, addNoise(pcm, tone, 20, rate), rate);
      const want = new Set(expected);
      for (const f of got.frames) assert.ok(want.has(f.bytes), `a decoded frame is one of ours: ${f.line}`);
      const distinct = new Set(got.frames.map((f) => f.bytes)).size;
      t.diagnostic(`atest: ${distinct} of ${N} decoded at ${rate} Hz, 20 dB SNR`);
      assert.ok(distinct >= 98, `${distinct} of ${N} decoded`);
    });
  }

  it('decodes several frames in one transmission (one flag between them)', () => {
    const groups: Uint8Array[][] = [];
    for (let i = 0; i < 30; i += 3) groups.push(bytes.slice(i, i + 3));
    const { pcm } = renderWav(groups, RADIO_STREAM_RATE);
    const got = runAtest(dir, 'grouped', pcm, RADIO_STREAM_RATE);
    assert.deepEqual(
      got.frames.map((f) => f.bytes),
      expected.slice(0, 30),
    );
  });

  it('npm run afsk writes a WAV atest decodes', () => {
    const out = join(dir, 'cli.wav');
    const packets = ['N0CALL-7>APZ001,WIDE1-1,WIDE2-1:!4903.50N/07201.75W-Test 001234', 'N0CALL>APRS,RELAY*,WIDE2-1::WU2Z     :Testing{003', 'AB1C>CQ:>status'];
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/aprs/modem/afsk-cli.ts', '--rate', '24000', '--out', out, '--gap', '200', ...packets], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^1: N0CALL-7>APZ001/m);
    assert.match(r.stdout, /wrote .*cli\.wav: 3 packets, [\d.]+ s at 24000 Hz/);
    const res = spawnSync(atest.resolvedBinary, ['-B', '1200', out], { encoding: 'latin1' });
    const lines = (res.stdout + res.stderr).replace(ANSI, '').split('\n');
    const decoded = lines.flatMap((l) => /^\[\d[^\]]*\] (.*)$/.exec(l)?.[1] ?? []);
    assert.deepEqual(decoded, packets);
  });
});
