import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { audioDurationS, openAudioSink, repairAudioFile, WAV_PATCH_EVERY_S, type RecordingAudioSink } from '../../src/recording/audio-sink.js';
import { wavHeader } from '../../src/recording/wav.js';
import { makeTone, toneMagnitude } from '../helpers/tone.js';
import { decodeAudio } from './recording-fixture.js';

// The recorder's audio file end to end, with the real programs: Ogg through opusenc (which writes
// the file itself) and back through opusdec, WAV byte for byte, a WAV cut by a real kill -9
// repaired, and a full disk (/dev/full's ENOSPC, from the kernel) failing the sink with the
// reason, never throwing. (An Ogg file outliving a kill -9: opus-encoder.test.ts.)

const AMP = 8000;
let dir: string;
/** Every sink opened: finished after the tests, so one a failed assertion left open leaves no opusenc running. */
const sinks: RecordingAudioSink[] = [];
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'satstation-sink-'));
});
after(async () => {
  await Promise.all(sinks.map((s) => s.finish()));
  rmSync(dir, { recursive: true, force: true });
});

/** Writes pcm in blocks through one reused buffer (the sink must copy what it keeps). */
function writeInBlocks(sink: RecordingAudioSink, pcm: Int16Array, block: number): void {
  const buf = new Int16Array(block);
  for (let i = 0; i < pcm.length; i += block) {
    const n = Math.min(block, pcm.length - i);
    buf.set(pcm.subarray(i, i + n));
    sink.write(buf.subarray(0, n));
  }
}

async function opened(o: Parameters<typeof openAudioSink>[0]): Promise<RecordingAudioSink> {
  const r = await openAudioSink(o);
  assert.equal(r.kind, 'open', JSON.stringify(r));
  sinks.push((r as { sink: RecordingAudioSink }).sink);
  return (r as { sink: RecordingAudioSink }).sink;
}

const bytesOf = (pcm: Int16Array) => Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);

async function until(fn: () => boolean, what: string, ms = 3000): Promise<void> {
  for (const end = Date.now() + ms; !fn(); await sleep(5)) if (Date.now() > end) throw new Error(`timed out: ${what}`);
}

describe('audio sink', () => {
  let oggPath: string;

  it('Ogg: the tone comes back out of opusdec; the duration is the last granule less the pre-skip', async () => {
    oggPath = join(dir, 'tone.ogg');
    const sink = await opened({ format: 'ogg', path: oggPath, sampleRate: 16000 });
    writeInBlocks(sink, makeTone(16000, 1000, 2, AMP), 320);
    const size = () => statSync(oggPath).size;
    assert.deepEqual(await sink.finish(), { kind: 'done', bytes: size() });
    assert.equal(sink.bytes, size());
    assert.equal(sink.lostMs, 0);
    const pcm = decodeAudio(oggPath, 'ogg', 16000);
    const mag = toneMagnitude(pcm, 16000, 1000, 3200, 16000);
    assert.ok(mag > AMP * 0.8 && mag < AMP * 1.2, `1 kHz at ${mag.toFixed(0)}`);
    const d = await audioDurationS(oggPath, 'ogg', 16000);
    assert.ok(Math.abs(d - 2) <= 0.05, `duration ${d}`);
    assert.deepEqual(await repairAudioFile(oggPath, 'ogg', 16000), { bytes: size(), duration_s: d }, 'nothing to mend');
  });

  it('Ogg cut mid-page (a power cut, opusenc killed with us): plays, and measures, up to its last whole page', async () => {
    const whole = readFileSync(oggPath);
    const cut = join(dir, 'cut.ogg');
    writeFileSync(cut, whole.subarray(0, whole.length - 100));
    const r = await repairAudioFile(cut, 'ogg', 16000);
    assert.equal(r.bytes, whole.length - 100);
    assert.ok(r.duration_s > 0 && r.duration_s < 2, `duration ${r.duration_s}`);
    const pcm = decodeAudio(cut, 'ogg', 16000);
    assert.ok(Math.abs(pcm.length / 16000 - r.duration_s) <= 0.05, `decoded ${pcm.length / 16000} s, measured ${r.duration_s} s`);
  });

  it(`WAV: the header, then the samples byte for byte; the sizes follow every ${WAV_PATCH_EVERY_S} s and at the end`, async () => {
    const path = join(dir, 'tone.wav');
    const sink = await opened({ format: 'wav', path, sampleRate: 8000 });
    const tone = makeTone(8000, 1000, 6, AMP);
    writeInBlocks(sink, tone, 800);
    while (sink.bytes < 44 + tone.byteLength) await sleep(2);
    assert.equal(readFileSync(path).readUInt32LE(40), WAV_PATCH_EVERY_S * 8000 * 2, 'patched at 5 s, not yet at 6');
    assert.deepEqual(await sink.finish(), { kind: 'done', bytes: 44 + tone.byteLength });
    const file = readFileSync(path);
    assert.deepEqual(file.subarray(0, 44), wavHeader(8000, tone.byteLength));
    assert.deepEqual(file.subarray(44), bytesOf(tone));
    assert.equal(await audioDurationS(path, 'wav', 8000), 6);
    assert.equal(sink.lostMs, 0);
  });

  it('WAV cut by kill -9 mid-recording: repairAudioFile sets the sizes from the length', async () => {
    // A real process writes 7 s through the sink and is SIGKILLed once all of it is on disk:
    // the header was last patched at 5 s.
    const path = join(dir, 'killed.wav');
    const script = join(dir, 'writer.mts');
    writeFileSync(
      script,
      `import { openAudioSink } from ${JSON.stringify(resolve('src/recording/audio-sink.ts'))};
import { makeTone } from ${JSON.stringify(resolve('test/helpers/tone.ts'))};
const r = await openAudioSink({ format: 'wav', path: process.argv[2], sampleRate: 8000 });
if (r.kind !== 'open') process.exit(2);
const tone = makeTone(8000, 1000, 7, ${AMP});
for (let i = 0; i < tone.length; i += 800) r.sink.write(tone.subarray(i, i + 800));
while (r.sink.bytes < 44 + tone.byteLength) await new Promise((w) => setTimeout(w, 2));
process.kill(process.pid, 'SIGKILL');
`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script, path], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (b) => (stderr += b));
    const [code, signal] = await new Promise<[number | null, string | null]>((res) => child.once('exit', (c, s) => res([c, s])));
    assert.equal(signal, 'SIGKILL', `the writer ended with ${code}: ${stderr}`);
    const tone = makeTone(8000, 1000, 7, AMP);
    assert.equal(readFileSync(path).readUInt32LE(40), 5 * 16000, 'the header lags the data');
    appendFileSync(path, Buffer.of(0x55)); // and the kill tore a sample in half
    assert.deepEqual(await repairAudioFile(path, 'wav', 8000), { bytes: 44 + tone.byteLength + 1, duration_s: 7 });
    const file = readFileSync(path);
    assert.deepEqual(file.subarray(0, 44), wavHeader(8000, tone.byteLength));
    assert.deepEqual(file.subarray(44, 44 + tone.byteLength), bytesOf(tone));
  });

  it('WAV whose header a kill cut short: written whole (an empty recording); a missing file reads 0 bytes, 0 s', async () => {
    const path = join(dir, 'short.wav');
    writeFileSync(path, wavHeader(16000, 0).subarray(0, 20));
    assert.deepEqual(await repairAudioFile(path, 'wav', 16000), { bytes: 44, duration_s: 0 });
    assert.deepEqual(readFileSync(path), wavHeader(16000, 0));
    assert.deepEqual(await repairAudioFile(join(dir, 'nothing.wav'), 'wav', 16000), { bytes: 0, duration_s: 0 });
    assert.equal(await audioDurationS(join(dir, 'nothing.ogg'), 'ogg', 16000), 0);
  });

  it('Ogg: bytes is the size of the file opusenc writes, asked of the disk at most once a second', async () => {
    const path = join(dir, 'growing.ogg');
    const sink = await opened({ format: 'ogg', path, sampleRate: 48000 });
    const size = () => statSync(path).size;
    const asked = performance.now();
    assert.equal(sink.bytes, 0, 'the disk is asked now');
    await sleep(50); // its answer: empty, nothing written yet
    // Fed until its first pages reach the file: stdio holds them until it has 4 KiB, past libopusenc's
    // 2 s of delay. (Fed faster than real time under load, some may be dropped: it does not matter here.)
    const tone = makeTone(48000, 1000, 0.1, AMP);
    await until(() => (writeInBlocks(sink, tone, 960), size() > 0), 'opusenc writes its first pages');
    if (performance.now() - asked < 900) assert.equal(sink.bytes, 0, 'not asked again within the second');
    await until(() => sink.bytes > 0, 'bytes follows the file');
    assert.ok(sink.bytes <= size(), `${sink.bytes} bytes of ${size()}`);
    const r = await sink.finish();
    assert.deepEqual(r, { kind: 'done', bytes: size() });
    assert.equal(sink.bytes, size(), 'after finish: the whole file');
  });

  const fullDiskCases = [
    { format: 'wav', how: 'openFile', o: { openFile: () => open('/dev/full', 'w') }, error: /^the disk is full \(ENOSPC\)$/ },
    // opusenc's own write fails; /dev is not nearly full, so the sink says what failed rather than a full disk.
    { format: 'ogg', how: 'opusOutputPath', o: { opusOutputPath: () => '/dev/full' }, error: /^the audio could not be written \(opusenc: Encoding aborted: write failed\)$/ },
  ] as const;
  for (const { format, how, o, error } of fullDiskCases) {
    it(`${format}: a full disk (ENOSPC from /dev/full, through ${how}) fails the sink with the reason, once, never throwing`, async () => {
      const sink = await opened({ format, path: join(dir, `full.${format}`), sampleRate: 16000, ...o });
      const failures: string[] = [];
      sink.onFail((e) => failures.push(e));
      const tone = makeTone(16000, 1000, 1, AMP);
      writeInBlocks(sink, tone, 320);
      const r = await sink.finish();
      assert.equal(r.kind, 'failed');
      assert.match((r as { error: string }).error, error);
      assert.equal(r.bytes, 0);
      assert.deepEqual(failures, [(r as { error: string }).error]);
      writeInBlocks(sink, tone, 320); // after the end: dropped
      assert.deepEqual(await sink.finish(), r);
      const late: string[] = [];
      sink.onFail((e) => late.push(e));
      await sleep(0);
      assert.deepEqual(late, failures, 'a listener added after the failure hears it too');
    });
  }

  it('WAV on a card that stalls: at most 10 s of audio waits in memory, the rest is dropped and counted', async () => {
    // The card stalls: every write waits until the test lets it go (the file handle's writev
    // held at the process edge; the file itself is real).
    let release: () => void = () => {};
    const stalled = new Promise<void>((r) => (release = r));
    const path = join(dir, 'stall.wav');
    const openFile = async (p: string) => {
      const fh = await open(p, 'wx');
      const writev = fh.writev.bind(fh);
      fh.writev = (async (...args: Parameters<typeof writev>) => {
        await stalled;
        return writev(...args);
      }) as typeof fh.writev;
      return fh;
    };
    const opened = await openAudioSink({ format: 'wav', path, sampleRate: 16000, openFile });
    assert.equal(opened.kind, 'open');
    if (opened.kind !== 'open') return;
    const sink = opened.sink;
    sinks.push(sink);
    const tone = makeTone(16000, 1000, 25, AMP);
    for (let i = 0; i < tone.length; i += 1600) sink.write(tone.subarray(i, i + 1600));
    // 25 s written while nothing reaches the card: 10 s kept in memory, about 15 s dropped and counted.
    assert.ok(sink.lostMs >= 14_800 && sink.lostMs <= 15_100, `lost ${sink.lostMs} ms`);
    release();
    const done = await sink.finish();
    assert.equal(done.kind, 'done');
    const kept = (statSync(path).size - 44) / 32000;
    assert.ok(Math.abs(kept + sink.lostMs / 1000 - 25) < 0.01, `kept ${kept} s + lost ${sink.lostMs} ms = the 25 s written`);
    assert.equal(readFileSync(path).readUInt32LE(40), statSync(path).size - 44, 'the header counts what was kept');
  });

  it('never overwrites: an existing file fails the open (Ogg too); Ogg without opusenc fails saying so', async () => {
    for (const format of ['wav', 'ogg'] as const) {
      const path = join(dir, `exists.${format}`);
      writeFileSync(path, 'mine');
      const r = await openAudioSink({ format, path, sampleRate: 16000 });
      assert.equal(r.kind, 'failed');
      assert.match((r as { error: string }).error, /EEXIST/);
      assert.equal(readFileSync(path, 'utf8'), 'mine');
    }
    const o = await openAudioSink({ format: 'ogg', path: join(dir, 'no-opusenc.ogg'), sampleRate: 16000, opusencPath: join(dir, 'no-opusenc') });
    assert.equal(o.kind, 'failed');
    assert.match((o as { error: string }).error, /opus-tools/);
  });
});
