import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isWriteFailure, opusencArgs, opusencAvailable, startOpusEncoder, type OpusEncoder, type OpusEncoderOptions } from '../../src/recording/opus-encoder.js';
import { makeTone, toneMagnitude } from '../helpers/tone.js';
import { decodeAudio } from './recording-fixture.js';

// A real opusenc: PCM in, an Ogg Opus file out (opusenc's own), a stalled encoder costing counted
// audio rather than memory, every way it can end told once, and the file finished by opusenc
// itself when the process that started it is killed -9. (The sink's use of it: audio-sink.test.ts.)

const RATE = 16000;
const BLOCK = RATE / 10; // 100 ms

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'satstation-opusenc-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** Encoders of the running test: killed after it, so a failed assertion leaves no opusenc behind. */
const started: OpusEncoder[] = [];
afterEach(() => {
  for (const enc of started.splice(0)) enc.kill();
});

let n = 0;
function encoder(o: Partial<OpusEncoderOptions> = {}) {
  const ends: Array<string | null> = [];
  const outputPath = join(dir, `enc-${++n}.ogg`);
  const enc = startOpusEncoder({ sampleRate: RATE, outputPath, onEnd: (e) => ends.push(e), ...o });
  started.push(enc);
  return { enc, ends, ogg: () => readFileSync(o.outputPath ?? outputPath) };
}

/** Whether pid is a live process (a zombie waiting for a reaper counts as gone: it has exited). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}

describe('Opus encoder (opusenc)', () => {
  it('runs opusenc on raw 16-bit mono in, the file out, at a voice bitrate and the chosen complexity', () => {
    assert.deepEqual(opusencArgs(16000, '/data/r.ogg'), ['--quiet', '--raw', '--raw-bits', '16', '--raw-rate', '16000', '--raw-chan', '1', '--raw-endianness', '0', '--bitrate', '24', '--comp', '3', '--framesize', '60', '-', '/data/r.ogg']);
    assert.equal(opusencArgs(8000, 'r.ogg')[opusencArgs(8000, 'r.ogg').indexOf('--bitrate') + 1], '16');
    assert.equal(opusencArgs(48000, 'r.ogg')[opusencArgs(48000, 'r.ogg').indexOf('--bitrate') + 1], '32');
    assert.equal(opusencArgs(16000, '-r.ogg').at(-1), './-r.ogg', 'never read as an option or stdout');
    assert.equal(opusencArgs(16000, '-').at(-1), './-');
  });

  it('encodes a second of tone into an Ogg Opus file; finish() waits for the last page', async () => {
    const e = encoder();
    const tone = makeTone(RATE, 1000, 1);
    const block = new Int16Array(BLOCK); // one buffer, reused: the encoder must copy
    for (let i = 0; i < tone.length; i += BLOCK) {
      block.set(tone.subarray(i, i + BLOCK));
      e.enc.write(block);
      await sleep(1);
    }
    assert.deepEqual(await e.enc.finish(), { kind: 'done' });
    assert.deepEqual(e.ends, [null]);
    const ogg = e.ogg();
    assert.equal(ogg.toString('latin1', 0, 4), 'OggS');
    assert.ok(ogg.includes('OpusHead'), 'the Opus identification header');
    assert.equal(ogg[ogg.lastIndexOf('OggS') + 5] & 4, 4, 'the last page ends the stream');
    assert.equal(e.enc.lostMs, 0);
    assert.deepEqual(await e.enc.finish(), { kind: 'done' }, 'again: the same answer');
  });

  it('drops (and counts) audio only while opusenc stalls (SIGSTOP)', async () => {
    const e = encoder();
    const writeAll = async (pcm: Int16Array) => {
      for (let i = 0; i < pcm.length; i += BLOCK) {
        e.enc.write(pcm.subarray(i, i + BLOCK));
        await sleep(0);
      }
    };
    // Running: 3 s written in 100 ms blocks, the loop turning between them: nothing lost.
    await writeAll(makeTone(RATE, 1000, 3));
    assert.equal(e.enc.lostMs, 0);
    const pid = e.enc.pid!;
    process.kill(pid, 'SIGSTOP');
    try {
      // Stopped: the kernel takes ~5 s (libuv's socket pair), our side queues 2 s, the rest is counted.
      await writeAll(makeTone(RATE, 1000, 15));
      assert.ok(e.enc.lostMs >= 1000 && e.enc.lostMs <= 13_000, `lost ${e.enc.lostMs} ms`);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    assert.deepEqual(await e.enc.finish(), { kind: 'done' });
    assert.deepEqual(e.ends, [null]);
  });

  it('outlives a kill -9 of the process group that started it, and finishes the file with all it was given', async () => {
    // A node process, leader of its own group, starts the encoder, writes 1 s of tone and tells
    // opusenc's pid; then the whole group gets SIGKILL (as the station's does in recording-kill.test.ts).
    const path = join(dir, 'orphan.ogg');
    const script = join(dir, 'killed-writer.mts');
    writeFileSync(
      script,
      `import { startOpusEncoder } from ${JSON.stringify(resolve('src/recording/opus-encoder.ts'))};
import { makeTone } from ${JSON.stringify(resolve('test/helpers/tone.ts'))};
const enc = startOpusEncoder({ sampleRate: ${RATE}, outputPath: process.argv[2], onEnd: () => {} });
const tone = makeTone(${RATE}, 1000, 1);
for (let i = 0; i < tone.length; i += ${BLOCK}) enc.write(tone.subarray(i, i + ${BLOCK}));
process.stdout.write(enc.pid + '\\n');
setInterval(() => {}, 1000); // waits for the kill
`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script, path], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (out += b));
    const exited = new Promise<[number | null, string | null]>((res) => child.once('exit', (c, s) => res([c, s])));
    for (const end = Date.now() + 5000; !out.includes('\n') && child.exitCode === null && Date.now() < end; ) await sleep(10);
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
    const [code, signal] = await exited;
    const pid = Number(out.trim());
    try {
      assert.equal(signal, 'SIGKILL', `the writer ended with ${code}: ${out}`);
      assert.ok(pid > 0, out);
      // Its stdin ended with the writer: opusenc encodes what it holds, writes the last page, exits.
      for (const end = Date.now() + 3000; running(pid) && Date.now() < end; ) await sleep(10);
      assert.equal(running(pid), false, 'opusenc exits by itself');
    } finally {
      if (pid > 0 && running(pid)) process.kill(pid, 'SIGKILL');
    }
    const ogg = readFileSync(path);
    assert.equal(ogg[ogg.lastIndexOf('OggS') + 5] & 4, 4, 'the last page ends the stream');
    const pcm = decodeAudio(path, 'ogg', RATE);
    assert.ok(Math.abs(pcm.length / RATE - 1) <= 0.25, `decoded ${pcm.length / RATE} s`);
    const mag = toneMagnitude(pcm, RATE, 1000, RATE / 5, (RATE * 4) / 5);
    assert.ok(mag > 8000 * 0.8 && mag < 8000 * 1.2, `1 kHz at ${mag.toFixed(0)}`);
  });

  it("a file it cannot write (/dev/full): finish() fails with opusenc's own words, a write failure", async () => {
    const e = encoder({ outputPath: '/dev/full' });
    e.enc.write(makeTone(RATE, 1000, 1));
    const r = await e.enc.finish();
    assert.deepEqual(r, { kind: 'failed', error: 'opusenc: Encoding aborted: write failed' });
    assert.deepEqual(e.ends, [r.error]);
    assert.equal(isWriteFailure(r.error), true);
    // A folder that is not there: opusenc's perror, not a write failure.
    const gone = encoder({ outputPath: join(dir, 'no-such-folder', 'x.ogg') });
    const g = await gone.enc.finish();
    assert.equal(g.kind, 'failed');
    assert.match((g as { error: string }).error, /^opusenc: .*No such file or directory$/);
    assert.equal(isWriteFailure((g as { error: string }).error), false);
  });

  it('opusenc killed from outside: onEnd and finish() say how it ended', async () => {
    const e = encoder();
    e.enc.write(makeTone(RATE, 1000, 0.1));
    await sleep(50);
    process.kill(e.enc.pid!, 'SIGKILL');
    const r = await e.enc.finish();
    assert.equal(r.kind, 'failed');
    assert.match((r as { error: string }).error, /ended by SIGKILL/);
    assert.deepEqual(e.ends, [(r as { error: string }).error]);
    e.enc.write(makeTone(RATE, 1000, 0.1)); // after the end: nothing, no throw
  });

  it('kill() ends it at once, as asked: onEnd(null), finish() says it was stopped', async () => {
    const e = encoder();
    e.enc.write(makeTone(RATE, 1000, 0.1));
    e.enc.kill();
    assert.deepEqual(await e.enc.finish(), { kind: 'failed', error: 'the encoder was stopped' });
    assert.deepEqual(e.ends, [null]);
  });

  it('no opusenc: onEnd says so once, finish() fails, and opusencAvailable() says false', async () => {
    const e = encoder({ opusencPath: '/nonexistent/opusenc' });
    e.enc.write(makeTone(RATE, 1000, 0.1));
    const r = await e.enc.finish();
    assert.equal(r.kind, 'failed');
    assert.match((r as { error: string }).error, /not found/);
    assert.equal(e.ends.length, 1);
    assert.equal(await opusencAvailable('/nonexistent/opusenc'), false);
    assert.equal(await opusencAvailable(), true);
    assert.equal(opusencAvailable(), opusencAvailable(), 'asked once, the answer kept');
  });
});
