import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { tmpDataDir } from '../helpers/server.js';
import { spawnServer, type SpawnedServer } from '../helpers/spawn-server.js';
import { startFakeCloudlog, type FakeCloudlog } from './fake-cloudlog.js';

// kill -9 during logging and pushing: a real server process (node --import tsx src/main.ts)
// logs QSOs while its queue pushes them to the Cloudlog stand-in, and is killed at random
// moments, then restarted on the same DATA_DIR. Every QSO the API answered survives, every QSO
// in the logbook ends up pushed, each at the logger once (a push whose answer the kill lost is
// sent again and answered as a duplicate), and the file's whole lines always parse.

const root = join(import.meta.dirname, '..', '..');
const KEY = 'cl0kill9test';
const STATION = '1';
const ROUNDS = 4;
const PER_ROUND = 24;

/** A distinct valid call per QSO: W, the round digit, three letters. */
const callOf = (round: number, i: number) => `W${round}${String.fromCharCode(65 + Math.floor(i / 676) % 26, 65 + Math.floor(i / 26) % 26, 65 + (i % 26))}`;

const post = (base: string, path: string, body: unknown) =>
  fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Every line of the journal but a torn last one is a JSON event. */
function checkFile(path: string): number {
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  const last = lines.pop()!; // '' after a final '\n', or a torn line the next load cuts off
  for (const l of lines) JSON.parse(l);
  if (last !== '') assert.throws(() => JSON.parse(last), 'an unterminated last line is a torn write');
  return lines.length;
}

describe('logbook under kill -9', () => {
  let fake: FakeCloudlog;
  let srv: SpawnedServer | null = null;
  after(async () => {
    if (srv && srv.child.exitCode === null && srv.child.signalCode === null) process.kill(-srv.child.pid!, 'SIGKILL');
    await fake?.close();
  });

  it('keeps every answered QSO and delivers each once across kills and restarts', { timeout: 180_000 }, async () => {
    fake = await startFakeCloudlog({ key: KEY, stationProfileId: STATION });
    const dataDir = tmpDataDir('satstation-logbook-kill-');
    const file = join(dataDir, 'logbook.jsonl');
    const env = { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' };
    const answered = new Set<string>();
    for (let round = 0; round < ROUNDS; round++) {
      srv = await spawnServer(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: root, env, timeoutMs: 60_000 });
      if (round === 0) {
        assert.equal((await post(srv.base, '/api/v1/aprs/session/identity', { callsign: 'DL1ABC', ssid: 0 })).status, 200);
        const set = await post(srv.base, '/api/v1/settings/logbook', { cloudlog_enabled: true, cloudlog_url: fake.base, cloudlog_api_key: KEY, cloudlog_station_profile_id: STATION });
        assert.equal(set.status, 200, await set.text());
      } else {
        // What the API answered before the kill is there after it.
        const items = (await (await fetch(`${srv.base}/api/v1/logbook`)).json()).items as Array<{ call: string }>;
        const have = new Set(items.map((q) => q.call));
        for (const c of answered) assert.ok(have.has(c), `round ${round}: answered QSO ${c} lost`);
      }
      // QSOs logged while the queue pushes, a few at a time, and the kill at a random moment among them.
      // The kill comes once a random number of them has been answered, so pushes are under way.
      const base = srv.base;
      const killAfter = 1 + Math.floor(Math.random() * (PER_ROUND - 2));
      let answeredNow = 0;
      const posts: Promise<void>[] = [];
      for (let i = 0; i < PER_ROUND && answeredNow < killAfter; i++) {
        const call = callOf(round, i);
        posts.push(
          post(base, '/api/v1/logbook/qso', { call, sat_id: 'iss', comment: `round ${round}` })
            .then(async (r) => {
              if (r.status === 200) {
                answered.add(call);
                answeredNow++;
              } else await r.text();
            })
            .catch(() => {}),
        );
        if (i % 4 === 3) await new Promise((r) => setTimeout(r, 5 + Math.random() * 20));
      }
      const deadline = Date.now() + 10_000;
      while (answeredNow < killAfter && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1));
      process.kill(-srv.child.pid!, 'SIGKILL');
      await Promise.all(posts);
      await new Promise((r) => (srv!.child.exitCode !== null || srv!.child.signalCode !== null ? r(null) : srv!.child.once('exit', r)));
      checkFile(file);
    }

    // The last start: nothing killed; the queue drains.
    srv = await spawnServer(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: root, env, timeoutMs: 60_000 });
    let items: Array<{ call: string; push_state: string; push_error: string | null }> = [];
    const end = Date.now() + 30_000;
    while (Date.now() < end) {
      items = (await (await fetch(`${srv.base}/api/v1/logbook`)).json()).items;
      if (items.every((q) => q.push_state === 'pushed')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(
      items.every((q) => q.push_state === 'pushed'),
      `not all pushed: ${JSON.stringify(items.filter((q) => q.push_state !== 'pushed'))}`,
    );
    const calls = items.map((q) => q.call);
    assert.equal(new Set(calls).size, calls.length, 'no QSO twice in the logbook');
    for (const c of answered) assert.ok(calls.includes(c), `answered QSO ${c} lost`);
    // The logger holds exactly the logbook's QSOs, each once.
    const logged = fake.logged.map((r) => r.CALL).sort();
    assert.deepEqual(logged, [...calls].sort());
    const sent = fake.requests.length;
    console.log(`# ${calls.length} QSOs (${answered.size} answered before a kill), ${sent} pushes for ${logged.length} at the logger`);
    await srv.stop('SIGTERM');
    assert.ok(checkFile(file) >= calls.length);
    assert.equal(readFileSync(file, 'utf8').endsWith('\n'), true, 'the torn line was cut off');
  });
});
