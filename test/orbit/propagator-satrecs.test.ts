// The satrec cache is bounded: sweeping a catalogue larger than the cap (the pass table, /live of
// every satellite) keeps at most maxSatrecs built, and a satellite whose satrec was dropped
// propagates to the same state once rebuilt.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { json2satrec, sgp4 } from 'satellite.js';
import { MAX_SATRECS, Propagator } from '../../src/orbit/propagator.js';
import { loadTle, T0 } from './helpers.js';

const amateur = loadTle('amateur.tle');

function states(prop: Propagator, t: number, onEach?: () => void): (number[] | null)[] {
  const st = new Float64Array(6);
  return amateur.map((_, i) => {
    const ok = prop.propagate(i, t, st);
    onEach?.();
    return ok ? [...st] : null;
  });
}

test('a sweep over more satellites than the cap holds at most the cap, with the same states', () => {
  const cap = 16;
  assert.ok(amateur.length > 4 * cap, `fixture has ${amateur.length} satellites`);
  const bounded = new Propagator(amateur, { maxSatrecs: cap });
  let most = 0;
  const first = states(bounded, T0, () => (most = Math.max(most, bounded.satrecsHeld)));
  assert.ok(most <= cap, `held at most ${most} satrecs (cap ${cap})`);
  assert.ok(bounded.satrecsHeld > 0);
  // Unbounded reference: every satellite built once and kept.
  const reference = states(new Propagator(amateur, { maxSatrecs: amateur.length }), T0);
  assert.deepEqual(first, reference);
  // Again, later: the early satellites were dropped and are rebuilt to the same states.
  const t2 = T0 + 3_600_000;
  assert.deepEqual(states(bounded, t2), states(new Propagator(amateur, { maxSatrecs: amateur.length }), t2));
  assert.ok(bounded.satrecsHeld <= cap);
});

test('an evicted record is not counted, and is rebuilt to the same state in the slot it is given', () => {
  const prop = new Propagator(amateur.slice(0, 3), { maxSatrecs: 1 });
  const st = new Float64Array(6);
  assert.ok(prop.propagate(0, T0, st));
  const first = [...st];
  assert.equal(prop.satrecsHeld, 1);
  assert.ok(prop.propagate(1, T0, st)); // takes the one slot: satellite 0 is evicted
  assert.equal(prop.satrecsHeld, 1);
  assert.ok(prop.propagate(0, T0, st));
  assert.deepEqual([...st], first);
  assert.equal(prop.satrecsHeld, 1);
});

test('the default cap keeps the amateur and stations groups built', () => {
  assert.ok(MAX_SATRECS >= 2000);
  const prop = new Propagator(amateur);
  states(prop, T0);
  assert.equal(prop.satrecsHeld, amateur.filter((_, i) => prop.usable(i)).length);
});

test('records packed as the slab grows give satellite.js\'s own states, and live() of a few holds only theirs', () => {
  const prop = new Propagator(amateur); // the slab starts at 16 records and doubles past them
  const st = new Float64Array(6);
  for (const t of [T0, T0 + 86_400_000]) {
    for (let i = 0; i < amateur.length; i++) {
      const rec = json2satrec(amateur[i].elements as never);
      if (!prop.usable(i)) continue; // builds it: its epoch is known from here
      const pv = sgp4(rec, (t - prop.epochMs[i]) / 60_000);
      if (!pv || rec.error) continue;
      assert.ok(prop.propagate(i, t, st), `${amateur[i].name} propagates`);
      assert.deepEqual([...st], [pv.position.x, pv.position.y, pv.position.z, pv.velocity.x, pv.velocity.y, pv.velocity.z], amateur[i].name);
    }
  }
  const few = new Propagator(amateur);
  for (let i = 0; i < 8; i++) few.propagate(i, T0, st);
  assert.equal(few.satrecsHeld, 8);
  assert.ok((few as unknown as { slab: Float64Array }).slab.length < amateur.length * 40, 'the slab holds a few records, not the catalogue');
});
