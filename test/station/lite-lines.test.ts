import assert from 'node:assert/strict';
import { test } from 'node:test';
import { followLiteLines } from '../../src/station/lite-lines.js';

// The lite lines' follower reads the lines (builds their key) only while someone follows the lite
// news; a notification after a spell with nobody following counts as a change.

function rig() {
  let notify: () => void = () => {};
  let lines = 'connected';
  let reads = 0;
  let followed = false;
  const changes: string[] = [];
  followLiteLines(
    () => (reads++, lines),
    [(fn) => ((notify = fn), () => {})],
    () => changes.push(lines),
    () => followed,
  );
  return {
    poll: () => notify(),
    set: (l: string) => (lines = l),
    follow: (on: boolean) => (followed = on),
    reads: () => reads,
    changes,
  };
}

test('nobody follows the lite news: the rig polls, the lines are never read', () => {
  const r = rig();
  for (let i = 0; i < 10; i++) r.poll();
  r.set('rig not answering');
  r.poll();
  assert.equal(r.reads(), 0);
  assert.deepEqual(r.changes, []);
});

test('followed: a change of the lines is told once; polls that change nothing tell nothing', () => {
  const r = rig();
  r.follow(true);
  r.poll(); // first read since nobody followed: counted as a change
  assert.deepEqual(r.changes, ['connected']);
  r.poll();
  r.poll();
  assert.deepEqual(r.changes, ['connected']);
  r.set('rig not answering');
  r.poll();
  r.poll();
  assert.deepEqual(r.changes, ['connected', 'rig not answering']);
});

test('a change while nobody followed is told at the first notification once someone follows again', () => {
  const r = rig();
  r.follow(true);
  r.poll();
  r.follow(false);
  r.set('disconnected');
  r.poll();
  const reads = r.reads();
  r.follow(true);
  r.poll();
  assert.equal(r.reads(), reads + 1);
  assert.deepEqual(r.changes, ['connected', 'disconnected']);
});
