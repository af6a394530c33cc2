import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';
import { until as waitUntil } from '../radio/rig-fixture.js';
import { toneMagnitude } from '../helpers/tone.js';
import { systemClock } from '../../src/util/clock.js';
import { alsaFileDevice, decodeAudio, type AlsaFileDevice } from './recording-fixture.js';

// The recordings API on the real server, recording by hand from an ALSA device that reads a file
// (arecord through ALSA's file plugin): settings and their 400s, start and stop, the list, the
// journal, the audio with its ranges byte for byte, delete, keep_mb and a full disk.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A recording's start or end: arecord and opusenc start and stop as real processes. */
const until = (fn: () => Promise<boolean> | boolean, what: string) => waitUntil(fn, what, 8000);

describe('recordings API (ALSA file device, by hand)', () => {
  let s: TestServer;
  let dev: AlsaFileDevice;
  /** opusenc writes the next recording to /dev/full when set: the kernel's own ENOSPC. */
  let fullDisk = false;
  before(async () => {
    dev = alsaFileDevice({ seconds: 3 });
    s = await startServer({
      clock: systemClock,
      app: { recording: { env: dev.env, opusOutputPath: (path) => (fullDisk ? '/dev/full' : path) } },
    });
  });
  after(async () => {
    await s?.stop();
    dev?.remove();
  });

  const runtime = async () => (await s.get('/api/v1/recordings/runtime')).body.runtime;
  const items = async () => (await s.get('/api/v1/recordings')).body.items as any[];

  it('nothing loads while recording is off; start is 409 recording_disabled, stop always answers', async () => {
    assert.equal(s.app.services.recording.loaded, false);
    const st = await s.get('/api/v1/system/state');
    assert.equal(st.body.recordingRuntime.recording, false);
    assert.equal(st.body.recordingSettings.enabled, false);
    const start = await s.post('/api/v1/recordings/start', {});
    assert.equal(start.status, 409);
    assert.equal(start.body.error.code, 'recording_disabled');
    const stop = await s.post('/api/v1/recordings/stop');
    assert.equal(stop.status, 200);
    assert.equal(s.app.services.recording.loaded, false, 'neither loads the recorder');
  });

  it('settings: defaults, partial merges, 400s naming the field and nothing saved', async () => {
    const g = await s.get('/api/v1/settings/recording');
    assert.deepEqual(g.body.state, { enabled: false, source: 'auto', alsa_device: 'default', sample_rate: 16000, min_elevation_deg: 5, pre_roll_s: 5, keep_mb: 2048 });
    for (const [body, field] of [
      [{ sample_rate: 12345 }, 'sample_rate'],
      [{ keep_mb: 0.05 }, 'keep_mb'],
      [{ keep_mb: 2_000_000 }, 'keep_mb'],
      [{ source: 'usb' }, 'source'],
      [{ alsa_device: 'hw:1,0"; rm -rf /' }, 'alsa_device'],
      [{ min_elevation_deg: 91 }, 'min_elevation_deg'],
      [{ pre_roll_s: 2.5 }, 'pre_roll_s'],
      [{ enabled: 'yes' }, 'enabled'],
    ] as const) {
      const r = await s.post('/api/v1/settings/recording', body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.ok(JSON.stringify(r.body.error).includes(field), `${JSON.stringify(body)} names ${field}: ${JSON.stringify(r.body.error)}`);
    }
    const ok = await s.post('/api/v1/settings/recording', { keep_mb: 0.5 });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.state.keep_mb, 0.5);
    assert.equal(ok.body.state.sample_rate, 16000);
    assert.equal(s.app.services.recording.loaded, false);
  });

  it('records by hand from the ALSA device: listed while under way, the tone in the saved audio, the journal a point a second', async () => {
    const on = await s.post('/api/v1/settings/recording', { enabled: true, source: 'alsa', alsa_device: dev.device, keep_mb: 100 });
    assert.equal(on.status, 200);
    const t0 = Date.now();
    const start = await s.post('/api/v1/recordings/start', {});
    assert.equal(start.status, 200, JSON.stringify(start.body));
    assert.equal(start.body.runtime.recording, true);
    assert.equal(start.body.runtime.source, 'alsa');
    const id = start.body.runtime.id as string;
    assert.match(id, /^\d{8}T\d{6}Z$/);
    const again = await s.post('/api/v1/recordings/start', {});
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'recording_in_progress');
    const live = (await items()).find((i) => i.id === id);
    assert.equal(live.status, 'recording');
    const lite = await s.get('/api/v1/lite/snapshot');
    assert.equal(lite.body.recording.recording, true);
    await until(async () => (await runtime()).level_dbfs !== null, 'a level');
    const level = (await runtime()).level_dbfs;
    assert.ok(level > -20 && level < 0, `the tone's level: ${level} dBFS`);
    await sleep(1800);
    const stop = await s.post('/api/v1/recordings/stop');
    const wall_s = (Date.now() - t0) / 1000;
    assert.equal(stop.status, 200);
    assert.equal(stop.body.runtime.recording, false);
    const item = (await items()).find((i) => i.id === id);
    assert.equal(item.status, 'done');
    assert.equal(item.ended_reason, 'manual');
    assert.equal(item.format, 'ogg');
    // Real time: at least what was waited for, at most the wall time and the capture's 0.5 s of slack.
    assert.ok(item.duration_s >= 1.5 && item.duration_s <= wall_s + 0.6, `duration ${item.duration_s} s in ${wall_s} s`);
    const path = join(s.dataDir, 'recordings', `${id}.ogg`);
    assert.equal(item.bytes, readFileSync(path).length);
    const pcm = decodeAudio(path, 'ogg', 16000);
    const tone = toneMagnitude(pcm, 16000, 1000, 0, 16000);
    const off = toneMagnitude(pcm, 16000, 1500, 0, 16000);
    assert.ok(tone > 3000 && off < tone / 20, `1 kHz found in the first second of the saved audio: ${tone.toFixed(0)} vs ${off.toFixed(0)}`);
    const d = await s.get(`/api/v1/recordings/${id}`);
    assert.equal(d.status, 200, JSON.stringify(d.body));
    assert.ok(d.body.timeline.length >= 2, `timeline ${d.body.timeline.length}`);
    for (const p of d.body.timeline) assert.deepEqual(Object.keys(p), ['t', 'az_deg', 'el_deg', 'range_rate_km_s', 'rx_hz', 'tx_hz', 'rotator_az_deg', 'rotator_el_deg']);
    assert.equal(d.body.pass, null);
    assert.match(d.body.location.grid, /^[A-R]{2}\d\d[a-x]{2}$/);
    assert.ok(d.body.events.some((e: any) => e.kind === 'note' && /by hand/.test(e.text)));
  });

  it('the audio: whole, ranges byte for byte, HEAD without a body, 416 past the end', async () => {
    const [item] = await items();
    const file = readFileSync(join(s.dataDir, 'recordings', `${item.id}.${item.format}`));
    const url = `${s.base}/api/v1/recordings/${item.id}/audio`;
    const whole = await fetch(url);
    assert.equal(whole.status, 200);
    assert.equal(whole.headers.get('content-type'), 'audio/ogg');
    assert.equal(whole.headers.get('accept-ranges'), 'bytes');
    assert.equal(whole.headers.get('content-length'), String(file.length));
    assert.ok(Buffer.from(await whole.arrayBuffer()).equals(file));
    const size = file.length;
    for (const [range, start, end] of [
      ['bytes=0-0', 0, 0],
      ['bytes=10-99', 10, 99],
      [`bytes=${size - 50}-`, size - 50, size - 1],
      ['bytes=-20', size - 20, size - 1],
      [`bytes=100-${size + 1000}`, 100, size - 1],
    ] as const) {
      const r = await fetch(url, { headers: { range } });
      assert.equal(r.status, 206, range);
      assert.equal(r.headers.get('content-range'), `bytes ${start}-${end}/${size}`, range);
      assert.equal(r.headers.get('content-length'), String(end - start + 1), range);
      assert.ok(Buffer.from(await r.arrayBuffer()).equals(file.subarray(start, end + 1)), `${range} byte for byte`);
    }
    const past = await fetch(url, { headers: { range: `bytes=${size}-` } });
    assert.equal(past.status, 416);
    assert.equal(past.headers.get('content-range'), `bytes */${size}`);
    assert.equal((await past.json()).error.code, 'range_not_satisfiable');
    const head = await fetch(url, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), String(size));
    assert.equal((await head.arrayBuffer()).byteLength, 0);
    const headRange = await fetch(url, { method: 'HEAD', headers: { range: 'bytes=5-9' } });
    assert.equal(headRange.status, 206);
    assert.equal(headRange.headers.get('content-length'), '5');
  });

  it('bad ids and unknown recordings: 400 naming the id, 404', async () => {
    assert.equal((await s.get('/api/v1/recordings/..%2F..%2Fetc')).status, 404);
    const bad = await s.get('/api/v1/recordings/not-an-id');
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /id/);
    assert.equal((await s.get('/api/v1/recordings/20200101T000000Z-iss')).status, 404);
    assert.equal((await s.get('/api/v1/recordings/20200101T000000Z-iss/audio')).status, 404);
    assert.equal((await s.post('/api/v1/recordings/delete', { id: '20200101T000000Z-iss' })).status, 404);
    const badDel = await s.post('/api/v1/recordings/delete', { id: '../x' });
    assert.equal(badDel.status, 400);
    assert.equal((await s.post('/api/v1/recordings/start', { sat_id: 'no-such-sat' })).status, 400);
    assert.equal((await s.post('/api/v1/recordings/start', { extra: 1 })).status, 400);
  });

  it('a full disk fails the recording with the reason, and harms none of the others', async () => {
    await s.post('/api/v1/settings/recording', { keep_mb: 100 });
    const kept = (await items())[0];
    const keptBytes = readFileSync(join(s.dataDir, 'recordings', `${kept.id}.${kept.format}`));
    fullDisk = true;
    try {
      const start = await s.post('/api/v1/recordings/start', {});
      assert.equal(start.status, 200, JSON.stringify(start.body));
      await until(async () => !(await runtime()).recording, 'the recording stops itself');
    } finally {
      fullDisk = false;
    }
    // /dev has room, so the reason is opusenc's write failure (a card with under 1 MiB left says the disk is full).
    const rt = await runtime();
    assert.match(rt.last_error ?? '', /could not be written \(opusenc: .*write failed/i);
    const failed = (await items()).find((i) => i.status === 'failed');
    assert.ok(failed, 'listed as failed');
    assert.equal(failed.ended_reason, 'error');
    assert.equal(failed.error, rt.last_error);
    const still = await fetch(`${s.base}/api/v1/recordings/${kept.id}/audio`);
    assert.ok(Buffer.from(await still.arrayBuffer()).equals(keptBytes), 'the earlier recording is untouched');
    // The next recording goes to disk again.
    const next = await s.post('/api/v1/recordings/start', {});
    assert.equal(next.status, 200, JSON.stringify(next.body));
    assert.equal(next.body.runtime.last_error, null);
    await sleep(300);
    await s.post('/api/v1/recordings/stop');
    assert.equal((await items())[0].status, 'done');
  });

  it('a source that cannot open: LAN without the radio on Wi-Fi is a 502 and leaves no file; a bad ALSA device fails with ALSA\'s words', async () => {
    const before = (await import('node:fs')).readdirSync(join(s.dataDir, 'recordings')).sort();
    await s.post('/api/v1/settings/recording', { source: 'lan' });
    const lan = await s.post('/api/v1/recordings/start', {});
    assert.equal(lan.status, 502);
    assert.equal(lan.body.error.code, 'recording_failed');
    assert.match(lan.body.error.message, /not on Wi-Fi/);
    assert.match((await runtime()).last_error, /not on Wi-Fi/);
    assert.deepEqual((await import('node:fs')).readdirSync(join(s.dataDir, 'recordings')).sort(), before, 'no file left behind');
    await s.post('/api/v1/settings/recording', { source: 'alsa', alsa_device: 'nosuchpcm' });
    const bad = await s.post('/api/v1/recordings/start', {});
    assert.equal(bad.status, 200, JSON.stringify(bad.body));
    await until(async () => !(await runtime()).recording, 'arecord gives up');
    const failed = (await items())[0];
    assert.equal(failed.status, 'failed');
    assert.match(failed.error, /nosuchpcm/);
    await s.post('/api/v1/settings/recording', { alsa_device: dev.device });
  });

  it('delete removes the recording and its files; 409 while it is being recorded', async () => {
    const start = await s.post('/api/v1/recordings/start', {});
    assert.equal(start.status, 200, JSON.stringify(start.body));
    const id = start.body.runtime.id;
    const busy = await s.post('/api/v1/recordings/delete', { id });
    assert.equal(busy.status, 409);
    await s.post('/api/v1/recordings/stop');
    const del = await s.post('/api/v1/recordings/delete', { id });
    assert.equal(del.status, 200);
    assert.equal(del.body.deleted, id);
    assert.ok(!del.body.items.some((i: any) => i.id === id));
    assert.equal((await s.get(`/api/v1/recordings/${id}`)).status, 404);
  });
});

describe('recordings as WAV (no opusenc), keep_mb and a full disk', () => {
  let s: TestServer;
  let dev: AlsaFileDevice;
  let fullDisk = false;
  before(async () => {
    dev = alsaFileDevice({ seconds: 5 });
    s = await startServer({ clock: systemClock, app: { recording: { env: dev.env, opusenc: '', openFile: (path) => (fullDisk ? open('/dev/full', 'w') : open(path, 'wx', 0o644)) } } });
    await s.post('/api/v1/settings/recording', { enabled: true, source: 'alsa', alsa_device: dev.device, keep_mb: 0.1 });
  });
  after(async () => {
    await s?.stop();
    dev?.remove();
  });
  const items = async () => (await s.get('/api/v1/recordings')).body.items as any[];
  const record = async (ms: number) => {
    const start = await s.post('/api/v1/recordings/start', {});
    assert.equal(start.status, 200, JSON.stringify(start.body));
    await sleep(ms);
    await s.post('/api/v1/recordings/stop');
    return start.body.runtime.id as string;
  };

  it('a WAV file with the right header and the tone; the oldest goes once the recordings pass keep_mb', async () => {
    const a = await record(1800);
    const [ia] = await items();
    assert.equal(ia.id, a);
    assert.equal(ia.format, 'wav');
    const file = readFileSync(join(s.dataDir, 'recordings', `${a}.wav`));
    assert.equal(file.toString('latin1', 0, 4), 'RIFF');
    assert.equal(file.readUInt32LE(4), file.length - 8);
    assert.equal(file.readUInt32LE(24), 16000);
    assert.equal(file.readUInt32LE(40), file.length - 44);
    assert.ok(Math.abs(ia.duration_s - (file.length - 44) / 32000) < 0.11, `duration ${ia.duration_s}`);
    const pcm = decodeAudio(join(s.dataDir, 'recordings', `${a}.wav`), 'wav', 16000);
    assert.ok(toneMagnitude(pcm, 16000, 1000, 0, 16000) > 3000, 'the tone');
    const wav = await fetch(`${s.base}/api/v1/recordings/${a}/audio`);
    assert.equal(wav.headers.get('content-type'), 'audio/wav');
    await wav.arrayBuffer();
    // 0.1 MiB is about 3.3 s of 16 kHz WAV: a second recording of ~1.8 s pushes the first out.
    assert.ok(ia.bytes < 0.1 * 1024 * 1024);
    const b = await record(1800);
    const left = await items();
    assert.deepEqual(left.map((i) => i.id), [b], 'only the newest is kept');
    assert.equal((await s.get(`/api/v1/recordings/${a}/audio`)).status, 404);
    const files = (await import('node:fs')).readdirSync(join(s.dataDir, 'recordings')).filter((n) => n.startsWith(a));
    assert.deepEqual(files, [], 'its audio and journal are gone');
  });

  it('a full disk (ENOSPC from the kernel) fails a WAV recording with "the disk is full"', async () => {
    fullDisk = true;
    try {
      const start = await s.post('/api/v1/recordings/start', {});
      assert.equal(start.status, 200, JSON.stringify(start.body));
      await until(async () => !(await s.get('/api/v1/recordings/runtime')).body.runtime.recording, 'the recording stops itself');
    } finally {
      fullDisk = false;
    }
    const failed = (await items()).find((i) => i.status === 'failed');
    assert.ok(failed, 'listed as failed');
    assert.match(failed.error, /the disk is full/);
    assert.equal((await s.get('/api/v1/recordings/runtime')).body.runtime.last_error, failed.error);
  });
});
