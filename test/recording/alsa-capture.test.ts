import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PACE_SLACK_S, startAlsaCapture, type AlsaCapture, type AlsaCaptureOptions } from '../../src/recording/alsa-capture.js';
import { makeTone, toneMagnitude } from '../helpers/tone.js';

// A real arecord capturing from ALSA's `file` plugin: its `infile` is a tone we wrote, its slave
// the `null` PCM, so it delivers as fast as the pipe drains (no sound card needed, nothing real
// time about it). alsa-lib reads $XDG_CONFIG_HOME/alsa/asoundrc, which each run points at a temp
// directory of its own.

const RATE = 16000;
const AMP = 8000;

let dir: string;
let env: NodeJS.ProcessEnv;
const tone = makeTone(RATE, 1000, 2, AMP);

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'satstation-alsa-'));
  mkdirSync(join(dir, 'alsa'));
  writeFileSync(join(dir, 'in.raw'), new Uint8Array(tone.buffer));
  writeFileSync(join(dir, 'alsa', 'asoundrc'), `pcm.satfile { type file  slave.pcm "null"  file "/dev/null"  infile "${join(dir, 'in.raw')}"  format "raw" }\n`);
  env = { ...process.env, XDG_CONFIG_HOME: dir };
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** Captures of the running test: stopped after it, so a failed assertion leaves no arecord behind. */
const started: AlsaCapture[] = [];
afterEach(() => Promise.all(started.splice(0).map((c) => c.stop())));

/** A capture with its samples and its ends collected. */
function capture(o: Partial<AlsaCaptureOptions> = {}) {
  const blocks: Int16Array[] = [];
  const ends: Array<string | null> = [];
  let ended: () => void = () => {};
  const end = new Promise<void>((resolve) => (ended = resolve));
  const cap = startAlsaCapture({
    device: 'satfile',
    sampleRate: RATE,
    env,
    onPcm: (pcm) => blocks.push(pcm),
    onEnd: (e) => {
      ends.push(e);
      ended();
    },
    ...o,
  });
  started.push(cap);
  const samples = () => {
    const all = new Int16Array(blocks.reduce((n, b) => n + b.length, 0));
    let k = 0;
    for (const b of blocks) {
      all.set(b, k);
      k += b.length;
    }
    return all;
  };
  return { cap, ends, end, samples, count: () => blocks.reduce((n, b) => n + b.length, 0) };
}

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('ALSA capture (arecord)', () => {
  it('hands on the tone of the input, paced to real time, and stop() ends arecord', async () => {
    const started = performance.now();
    const c = capture();
    const pid = c.cap.pid!;
    assert.ok(pid > 0);
    await sleep(1000);
    const elapsedS = (performance.now() - started) / 1000;
    const n = c.count();
    // The file plugin would give megabytes by now; the pace lets through real time plus the slack.
    assert.ok(n <= (elapsedS + PACE_SLACK_S) * RATE, `${n} samples after ${elapsedS.toFixed(2)} s`);
    assert.ok(n >= 0.5 * RATE, `only ${n} samples after ${elapsedS.toFixed(2)} s`);
    const got = c.samples();
    assert.deepEqual(got.subarray(0, RATE / 2), tone.subarray(0, RATE / 2), 'the input, sample for sample');
    const mag = toneMagnitude(got, RATE, 1000, 0, RATE / 2);
    assert.ok(Math.abs(mag - AMP) < AMP * 0.01, `1 kHz at ${mag.toFixed(0)}`);

    await c.cap.stop();
    assert.deepEqual(c.ends, [null], 'onEnd(null), once');
    assert.equal(isRunning(pid), false, 'arecord is gone');
    await c.cap.stop(); // again: nothing more
    assert.deepEqual(c.ends, [null]);
  });

  it("a device ALSA does not know ends with ALSA's own words", async () => {
    const c = capture({ device: 'nosuchpcm' });
    await c.end;
    assert.equal(c.ends.length, 1);
    assert.match(c.ends[0]!, /Unknown PCM nosuchpcm/);
    assert.ok(!/ALSA lib|main:\d+/.test(c.ends[0]!), `source locations left out: ${c.ends[0]}`);
    await c.cap.stop(); // after the end: resolves at once
    assert.equal(c.ends.length, 1);
  });

  it('no arecord: onEnd says so, and stop() still resolves', async () => {
    const c = capture({ arecordPath: join(dir, 'no-such-arecord') });
    await c.end;
    assert.match(c.ends[0]!, /not found/);
    await c.cap.stop();
    assert.equal(c.ends.length, 1);
  });

  it('a sample split across two chunks arrives whole', async () => {
    // A stand-in that writes 01 | 00 02 | 00 (samples 1 and 2, little-endian) with pauses, then exits.
    const fake = join(dir, 'split-arecord');
    writeFileSync(fake, "#!/bin/sh\nprintf '\\001'; sleep 0.05; printf '\\000\\002'; sleep 0.05; printf '\\000'\n");
    chmodSync(fake, 0o755);
    const c = capture({ arecordPath: fake });
    await c.end;
    assert.deepEqual([...c.samples()], [1, 2]);
    assert.match(c.ends[0]!, /ended on its own/, 'arecord ending unasked is a failure');
  });
});
