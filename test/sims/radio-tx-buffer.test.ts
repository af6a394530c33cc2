import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RadioTxBuffer } from './radio-tx-buffer.js';

// The emulated radio's transmit buffer on a hand-moved clock: audio goes on air a buffer's
// length after it arrived, at the sample rate, and PTT off loses what is still buffered.

const RATE = 8000;
const ramp = (n: number, from = 1) => Int16Array.from({ length: n }, (_, i) => from + i);

function make() {
  let t = 0;
  const b = new RadioTxBuffer(() => t);
  return { b, at: (ms: number) => (t = ms) };
}

describe('RadioTxBuffer', () => {
  it('transmits nothing while PTT is off', () => {
    const { b } = make();
    b.push(1, ramp(160), RATE, 150);
    assert.equal(b.transmitted().length, 0);
    assert.equal(b.unkeyedSamples, 160);
  });

  it('plays keyed audio out at the sample rate, a buffer length after it arrived', () => {
    const { b, at } = make();
    b.ptt(true);
    b.push(1, ramp(800), RATE, 150); // 100 ms at t = 0
    at(149);
    assert.equal(b.transmitted().length, 0, 'still buffering');
    at(200);
    assert.equal(b.transmitted().length, 400, '50 ms played');
    at(260);
    assert.deepEqual(b.transmitted(), ramp(800));
    b.ptt(false);
    assert.equal(b.lostSamples, 0);
  });

  it('PTT off cuts what the buffer still holds: lost, never transmitted', () => {
    const { b, at } = make();
    b.ptt(true);
    b.push(1, ramp(800), RATE, 150);
    at(200);
    b.ptt(false);
    at(1000);
    assert.deepEqual(b.transmitted(), ramp(400));
    assert.equal(b.lostSamples, 400);
    assert.equal(b.buffered, 0);
  });

  it('buffers again after running dry, and plays packets in sequence order', () => {
    const { b, at } = make();
    b.ptt(true);
    b.push(1, ramp(80), RATE, 100); // 10 ms, on air 100..110
    at(300); // dry since 110 ms
    b.push(3, ramp(80, 2000), RATE, 100); // arrives before 2: held, then reordered
    b.push(2, ramp(80, 1000), RATE, 100);
    at(399);
    assert.equal(b.transmitted().length, 80, 'the second burst waits a buffer length again');
    at(430);
    assert.deepEqual(Array.from(b.transmitted()), [...ramp(80), ...ramp(80, 1000), ...ramp(80, 2000)]);
  });
});
