import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Listeners } from '../../src/util/listeners.js';
import { logger, setLogLevel } from '../../src/util/logger.js';
import { nextTurn } from '../../src/util/loop-slices.js';

// Change listeners (issue 36): a 16k catalogue's listeners each take a few ms, so the catalogue
// calls them one per turn of the event loop (emitSpaced); a failing one never stops the rest.

/** Counts the loop's check phases while running. */
function turnCounter(): { readonly n: number; stop(): void } {
  let n = 0;
  let on = true;
  const tick = () => {
    n++;
    if (on) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    get n() {
      return n;
    },
    stop: () => (on = false),
  };
}

test('listeners: emitSpaced calls each listener on a later turn of the loop than the one before, never in the caller\'s', async () => {
  setLogLevel('silent');
  const l = new Listeners<number>(logger('test'), 'test');
  const turns = turnCounter();
  const at: number[] = [];
  l.add(() => {
    at.push(turns.n);
    throw new Error('a listener that fails');
  });
  l.add(() => at.push(turns.n));
  l.add(() => at.push(turns.n));
  const start = turns.n;
  const done = l.emitSpaced(7, nextTurn);
  assert.equal(at.length, 0, 'nothing ran in the caller\'s turn');
  await done;
  turns.stop();
  assert.equal(at.length, 3, 'a throwing listener does not stop the others');
  assert.ok(at[0] > start && at[1] > at[0] && at[2] > at[1], `turns ${start} → ${at.join(', ')}`);
});

test('listeners: a listener removed by an earlier one before its turn is not called; emit calls all in one go', async () => {
  const l = new Listeners<number>(logger('test'), 'test');
  const calls: string[] = [];
  let offC: () => void = () => {};
  l.add((v) => {
    calls.push(`a${v}`);
    offC();
  });
  offC = l.add((v) => calls.push(`c${v}`));
  await l.emitSpaced(1, nextTurn);
  assert.deepEqual(calls, ['a1']);
  l.add((v) => calls.push(`d${v}`));
  l.emit(2);
  assert.deepEqual(calls, ['a1', 'a2', 'd2']);
});
