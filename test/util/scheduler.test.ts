import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import cron from 'node-cron';
import { noteRequestClosed, noteRequestOpen } from '../../src/util/loop-slices.js';
import { Scheduler } from '../../src/util/scheduler.js';

// The jobs go on node-cron after the boot (the server listening) and a quiet moment, not in
// start(): node-cron's registry shows what is scheduled.
const onCron = (names: string[]): string[] =>
  [...cron.getTasks().values()].map((t) => t.name).filter((n): n is string => n !== undefined && names.includes(n)).sort();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits (in short steps, at most ~2 s) until `ok` holds. */
async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !ok(); i++) await sleep(10);
}

function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

describe('Scheduler start after the boot', () => {
  it('puts the jobs on node-cron only once its gate has opened, then adds and stops as before', async () => {
    const g = gate();
    const sch = new Scheduler(() => 0, g.promise);
    sch.add('deferred-a', '0 0 1 1 *', () => {});
    sch.add('deferred-b', '0 0 1 1 *', () => {});
    sch.start();
    await sleep(50);
    assert.deepEqual(onCron(['deferred-a', 'deferred-b']), [], 'nothing scheduled before the gate');
    assert.equal(sch.scheduled, false);
    g.open();
    await until(() => sch.scheduled);
    assert.deepEqual(onCron(['deferred-a', 'deferred-b']), ['deferred-a', 'deferred-b']);
    sch.add('deferred-c', '0 0 1 1 *', () => {});
    assert.deepEqual(onCron(['deferred-c']), ['deferred-c'], 'a job added once live is scheduled at once');
    sch.add('deferred-c', '0 0 2 1 *', () => {});
    assert.equal(onCron(['deferred-c']).length, 1, 'a replaced job is on node-cron once');
    await sch.stop();
    assert.deepEqual(onCron(['deferred-a', 'deferred-b', 'deferred-c']), []);
    assert.equal(sch.scheduled, false);
  });

  it('puts one job on node-cron a turn of the loop', async () => {
    const names = ['turn-a', 'turn-b', 'turn-c'];
    const sch = new Scheduler(() => 0, Promise.resolve());
    for (const n of names) sch.add(n, '0 0 1 1 *', () => {});
    sch.start();
    const counts: number[] = [];
    for (let i = 0; i < 200 && counts.at(-1) !== names.length; i++) {
      await new Promise((r) => setImmediate(r));
      counts.push(onCron(names).length);
    }
    assert.deepEqual(onCron(names), names);
    assert.equal(sch.scheduled, true);
    // Seen after each turn: 0 or 1 more each time, never two at once.
    for (let i = 0; i < counts.length; i++) assert.ok(counts[i] - (counts[i - 1] ?? 0) <= 1, `two jobs in one turn: ${counts.join(' ')}`);
    await sch.stop();
  });

  it('schedules nothing when stopped before its gate opens', async () => {
    const g = gate();
    const sch = new Scheduler(() => 0, g.promise);
    sch.add('early-stop', '0 0 1 1 *', () => {});
    sch.start();
    await sch.stop();
    g.open();
    await sleep(150);
    assert.deepEqual(onCron(['early-stop']), []);
    assert.equal(sch.scheduled, false);
  });

  it('waits for a quiet moment, but no longer than its bound', async () => {
    noteRequestOpen();
    try {
      const quiet = new Scheduler(() => 0, Promise.resolve(), 60_000);
      quiet.add('waits-quiet', '0 0 1 1 *', () => {});
      quiet.start();
      const bounded = new Scheduler(() => 0, Promise.resolve(), 150);
      bounded.add('waits-bounded', '0 0 1 1 *', () => {});
      bounded.start();
      await sleep(60);
      assert.deepEqual(onCron(['waits-quiet', 'waits-bounded']), [], 'a request is open');
      await until(() => bounded.scheduled);
      assert.deepEqual(onCron(['waits-quiet', 'waits-bounded']), ['waits-bounded'], 'the bound has passed, the loop is still busy');
      noteRequestClosed();
      await until(() => quiet.scheduled);
      assert.deepEqual(onCron(['waits-quiet', 'waits-bounded']), ['waits-bounded', 'waits-quiet'], 'quiet 100 ms after the request');
      await quiet.stop();
      await bounded.stop();
    } finally {
      noteRequestClosed();
    }
  });
});
