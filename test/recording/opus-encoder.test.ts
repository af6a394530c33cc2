import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { opusencArgs, opusencAvailable, startOpusEncoder, type OpusEncoderOptions } from '../../src/recording/opus-encoder.js';
import { makeTone } from '../helpers/tone.js';

// A real opusenc: PCM in, Ogg Opus out, a stalled encoder costing counted audio rather than
// memory, and every way it can end told once. (The decoded tone is checked end to end in
// audio-sink.test.ts, through the file the sink writes.)

const RATE = 16000;
const BLOCK = RATE / 10; // 100 ms

function encoder(o: Partial<OpusEncoderOptions> = {}) {
  const chunks: Buffer[] = [];
  const ends: Array<string | null> = [];
  const enc = startOpusEncoder({ sampleRate: RATE, onData: (b) => chunks.push(b), onEnd: (e) => ends.push(e), ...o });
  return { enc, ends, ogg: () => Buffer.concat(chunks) };
}

describe('Opus encoder (opusenc)', () => {
  it('runs opusenc on raw 16-bit mono in, Ogg out, at a voice bitrate and the chosen complexity', () => {
    assert.deepEqual(opusencArgs(16000), ['--quiet', '--raw', '--raw-bits', '16', '--raw-rate', '16000', '--raw-chan', '1', '--raw-endianness', '0', '--bitrate', '24', '--comp', '5', '-', '-']);
    assert.equal(opusencArgs(8000)[opusencArgs(8000).indexOf('--bitrate') + 1], '16');
    assert.equal(opusencArgs(48000)[opusencArgs(48000).indexOf('--bitrate') + 1], '32');
  });

  it('encodes a second of tone into an Ogg Opus stream; finish() waits for the last page', async () => {
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

  it('drops (and counts) audio only while opusenc stalls: 6 s written to a stopped encoder', async () => {
    const e = encoder();
    const tone = makeTone(RATE, 1000, 6);
    // Running: 6 s written in 100 ms blocks with the loop turning between them lose nothing.
    for (let i = 0; i < tone.length; i += BLOCK) {
      e.enc.write(tone.subarray(i, i + BLOCK));
      await sleep(1);
    }
    assert.equal(e.enc.lostMs, 0);
    const pid = e.enc.pid!;
    process.kill(pid, 'SIGSTOP');
    try {
      for (let i = 0; i < tone.length; i += BLOCK) {
        e.enc.write(tone.subarray(i, i + BLOCK));
        await sleep(1);
      }
      // The pipe takes ~2 s (64 KiB), our side queues 2 s more; the rest is lost, and counted.
      console.log("LOST", e.enc.lostMs);
      assert.ok(e.enc.lostMs >= 1000 && e.enc.lostMs <= 4000, `lost ${e.enc.lostMs} ms`);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    assert.deepEqual(await e.enc.finish(), { kind: 'done' });
    assert.deepEqual(e.ends, [null]);
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
