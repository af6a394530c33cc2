import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { test } from 'node:test';
import { twoline2satrec } from 'satellite.js';
import { passSearchInput, type PassSearchAnswer } from '../../src/orbit/pass-search-job.js';
import { defaultWorkerScript, runWorkerJob, type WorkerScript } from '../../src/util/worker-job.js';
import { PassTableService, type PassTableOptions } from '../../src/orbit/pass-table-service.js';
import { Propagator, type OrbitInput } from '../../src/orbit/propagator.js';
import { FixedClock } from '../../src/util/clock.js';
import { tmpDataDir } from '../helpers/server.js';
import { GREENWICH, loadTle, T0 } from './helpers.js';

// The whole-catalogue search on a worker thread (issue 36): the same passes as the search in
// slices on the loop, nothing of it on the loop, and a way back to the loop when it cannot run.

const sats = loadTle('amateur.tle').slice(0, 40);

async function table(prop: Propagator, extra: Partial<PassTableOptions>) {
  const dir = tmpDataDir();
  const svc = new PassTableService({ dataDir: dir, clock: new FixedClock(T0), horizonHours: 24, orbits: () => ({ version: 'v1', prop }), observer: () => GREENWICH, sliceMs: 4, ...extra });
  try {
    svc.start();
    const t = await svc.ready();
    await svc.stop();
    return { t, stats: svc.stats };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('pass search on a worker thread: the same passes as in slices on the loop, no slice run here', async () => {
  const onLoop = await table(new Propagator(sats), {});
  const off = await table(new Propagator(sats), { workerFromSatellites: 1 });
  assert.equal(onLoop.stats.workerSearches, 0);
  assert.ok(onLoop.stats.slices > 1);
  assert.equal(off.stats.workerSearches, 1, off.stats.lastWorkerFailure ?? '');
  assert.equal(off.stats.slices, 0, 'nothing of the search ran on the loop');
  assert.equal(off.stats.lastWorkerFailure, null);
  assert.ok(onLoop.t && onLoop.t.size > 50);
  assert.deepEqual(off.t!.rows(), onLoop.t!.rows());
  assert.equal(off.stats.failedSatellites, onLoop.stats.failedSatellites);
});

test('pass search on a worker thread: a table extended past its end gives the passes the loop gives', async () => {
  const run = async (extra: Partial<PassTableOptions>) => {
    const dir = tmpDataDir();
    const clock = new FixedClock(T0);
    const svc = new PassTableService({ dataDir: dir, clock, horizonHours: 24, slackHours: 2, orbits: () => ({ version: 'v1', prop: new Propagator(sats) }), observer: () => GREENWICH, sliceMs: 4, ...extra });
    try {
      svc.start();
      await svc.ready();
      clock.advance(20 * 3600_000);
      await svc.maintain();
      const t = svc.current();
      await svc.stop();
      return { t, stats: { ...svc.stats } };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const onLoop = await run({});
  const off = await run({ workerFromSatellites: 1 });
  assert.equal(onLoop.stats.extensions, 1);
  assert.equal(off.stats.extensions, 1);
  assert.equal(off.stats.workerSearches, 2, 'the new table and its extension');
  assert.ok(off.t!.covers(T0 + 20 * 3600_000, T0 + 44 * 3600_000));
  assert.deepEqual(off.t!.rows(), onLoop.t!.rows());
});

test('pass search on a worker thread: elements SGP4 refuses fail alone, as on the loop', async () => {
  const bad: OrbitInput = { sat_id: 'bad', name: 'BAD', elements: { ...sats[0].elements, NORAD_CAT_ID: 99990, ECCENTRICITY: 1.5 } };
  const list = [...sats.slice(0, 5), bad];
  const onLoop = await table(new Propagator(list), {});
  const off = await table(new Propagator(list), { workerFromSatellites: 1 });
  assert.equal(off.stats.workerSearches, 1);
  assert.equal(off.stats.failedSatellites, 1);
  assert.equal(onLoop.stats.failedSatellites, 1);
  assert.deepEqual(off.t!.rows(), onLoop.t!.rows());
});

test('pass search on a worker thread: a satellite given as a satrec only is searched on the loop instead', async () => {
  const list: OrbitInput[] = sats.slice(0, 5).map((s) => ({ sat_id: s.sat_id, name: s.name, satrec: twoline2satrec(s.line1, s.line2) }));
  const r = await table(new Propagator(list), { workerFromSatellites: 1 });
  assert.equal(r.stats.workerSearches, 0);
  assert.match(r.stats.lastWorkerFailure ?? '', /satrec but no elements/);
  assert.ok(r.t && r.t.size > 0 && r.stats.slices > 0, 'the table still comes, from the loop');
});

test('pass search on a worker thread: a stop while it works ends the worker and keeps no table', async () => {
  const dir = tmpDataDir();
  const prop = new Propagator(loadTle('amateur.tle'));
  const svc = new PassTableService({ dataDir: dir, clock: new FixedClock(T0), horizonHours: 24 * 60, orbits: () => ({ version: 'v1', prop }), observer: () => GREENWICH, workerFromSatellites: 1 });
  try {
    svc.start();
    await new Promise((r) => setTimeout(r, 50));
    const t0 = performance.now();
    await svc.stop();
    assert.ok(performance.now() - t0 < 1000, 'the stop does not wait for the search');
    assert.equal(svc.current(), null);
    assert.equal(svc.stats.workerSearches, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('pass search on a worker thread: a worker script that cannot load is a failed search, not a throw', async () => {
  const input = await passSearchInput(new Propagator(sats.slice(0, 3)), GREENWICH, T0, T0 + 3600_000, -Infinity);
  assert.ok(input);
  const r = await runWorkerJob('pass-search', input, { signal: new AbortController().signal, script: { script: new URL('file:///nonexistent/worker.cjs'), eval: false } });
  assert.equal(r.kind, 'failed');
  assert.match(r.kind === 'failed' ? r.message : '', /pass-search worker failed: .*Cannot find module/);
  const unknown = await runWorkerJob('no-such-job', {}, { signal: new AbortController().signal });
  assert.deepEqual(unknown, { kind: 'failed', message: 'the no-such-job worker failed: no job named "no-such-job"' });
});

test('from source with no worker bundle named, a job starts src/worker.ts through tsx, with the same passes', async () => {
  // test/run.mjs names a bundle of src/worker.ts for the run (SATSTATION_WORKER_SCRIPT); a test
  // file run on its own (node --import tsx --test …) has none and takes this path.
  const named = process.env.SATSTATION_WORKER_SCRIPT;
  delete process.env.SATSTATION_WORKER_SCRIPT;
  let script;
  try {
    script = defaultWorkerScript();
  } finally {
    if (named !== undefined) process.env.SATSTATION_WORKER_SCRIPT = named;
  }
  assert.equal(script.eval, true);
  const rows = async (s?: WorkerScript) => {
    const input = await passSearchInput(new Propagator(sats.slice(0, 3)), GREENWICH, T0, T0 + 6 * 3600_000, -Infinity);
    assert.ok(input);
    const r = await runWorkerJob<PassSearchAnswer>('pass-search', input, { signal: new AbortController().signal, script: s });
    assert.equal(r.kind, 'done', JSON.stringify(r));
    return r.kind === 'done' ? [...new Float64Array(r.value.buffer, 0, r.value.length)] : [];
  };
  const viaTsx = await rows(script);
  assert.ok(viaTsx.length > 5);
  assert.deepEqual(viaTsx, await rows());
});

test('a worker job runs at the lowest priority: the serving thread wins every contest for a core', async () => {
  /** A thread's nice value; null when it ended before its stat was read. */
  const niceOf = (tid: string | number): number | null => {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8');
    } catch {
      return null;
    }
    // Fields after the command's closing parenthesis: state is the 3rd, nice the 19th.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  };
  const niceOfThreads = () => readdirSync(`/proc/${process.pid}/task`).map(niceOf);
  const input = await passSearchInput(new Propagator(loadTle('amateur.tle')), GREENWICH, T0, T0 + 60 * 24 * 3600_000, -Infinity);
  assert.ok(input);
  const stop = new AbortController();
  const job = runWorkerJob('pass-search', input, { signal: stop.signal });
  let seen = false;
  for (let k = 0; k < 300 && !seen; k++) {
    seen = niceOfThreads().includes(19);
    if (!seen) await new Promise((r) => setTimeout(r, 10));
  }
  stop.abort();
  assert.equal((await job).kind, 'aborted');
  assert.ok(seen, 'a thread of this process ran at nice 19');
  assert.equal(niceOf(process.pid), 0, 'the main thread keeps its priority');
});
