import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { spawnServer } from '../helpers/spawn-server.js';
import { toneMagnitude } from '../helpers/tone.js';
import { alsaFileDevice, decodeAudio } from './recording-fixture.js';

// kill -9 mid-recording: the station process dies with arecord and opusenc running. At the next
// start the recording is listed (done, ended_reason interrupted), its audio plays with the tone
// it had captured, and its journal is made from the lines that reached the disk.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a recording cut by kill -9', () => {
  const dev = alsaFileDevice({ seconds: 4 });
  const dataDir = mkdtempSync(join(tmpdir(), 'satstation-rec-kill-'));
  after(() => {
    dev.remove();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', XDG_CONFIG_HOME: dev.env.XDG_CONFIG_HOME! };
  const start = () => spawnServer(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: process.cwd(), env });

  // (A WAV cut the same way is repaired by repairAudioFile: test/recording/audio-sink.test.ts.)
  {
    it('still listed and playable after the next start', async () => {
      const a = await start();
      const post = (p: string, b: unknown) => fetch(a.base + p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) }).then((r) => r.json());
      await post('/api/v1/settings/recording', { enabled: true, source: 'alsa', alsa_device: dev.device, sample_rate: 16000 });
      const r = await post('/api/v1/recordings/start', {});
      assert.equal(r.runtime?.recording, true, JSON.stringify(r));
      const id = r.runtime.id as string;
      await sleep(2500);
      process.kill(-a.child.pid!, 'SIGKILL');
      await new Promise((res) => a.child.once('exit', res));
      const b = await start();
      try {
        const items = (await (await fetch(`${b.base}/api/v1/recordings`)).json()).items;
        const item = items.find((i: any) => i.id === id);
        assert.ok(item, 'listed');
        assert.equal(item.status, 'done');
        assert.equal(item.ended_reason, 'interrupted');
        // Ogg: opusenc ends its file when its input closes (the pipe dies with the station); WAV: sizes repaired.
        const rate = 16000;
        assert.equal(item.format, 'ogg');
        const path = join(dataDir, 'recordings', `${id}.${item.format}`);
        const pcm = decodeAudio(path, item.format, rate);
        assert.ok(pcm.length >= rate, `at least a second kept (${(pcm.length / rate).toFixed(2)} s)`);
        assert.ok(toneMagnitude(pcm, rate, 1000, 0, rate) > 3000, 'the tone plays');
        assert.ok(item.duration_s >= 1, `duration ${item.duration_s}`);
        const d = await (await fetch(`${b.base}/api/v1/recordings/${id}`)).json();
        assert.ok(d.timeline.length >= 1, 'the journal from its lines');
        assert.ok(d.events.some((e: any) => e.kind === 'note'));
        const audio = await fetch(`${b.base}/api/v1/recordings/${id}/audio`);
        assert.equal(audio.status, 200);
        assert.equal(Number(audio.headers.get('content-length')), (await audio.arrayBuffer()).byteLength);
      } finally {
        await b.stop();
      }
    });
  }
});
