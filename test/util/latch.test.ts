import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Latch } from '../../src/util/listeners.js';
import { logger, setLogLevel } from '../../src/util/logger.js';

setLogLevel('silent');

// A Latch: the first value only, told to every listener, and at once (a microtask later) to one
// that comes after it fired.

describe('Latch', () => {
  it('fires once with the first value; later fires change nothing', () => {
    const l = new Latch<string>(logger('test'), 'test');
    const heard: string[] = [];
    l.on((v) => heard.push(`a:${v}`));
    const off = l.on((v) => heard.push(`b:${v}`));
    off();
    assert.equal(l.value, null);
    assert.equal(l.fire('disk full'), true);
    assert.equal(l.fire('second'), false);
    assert.equal(l.value, 'disk full');
    assert.deepEqual(heard, ['a:disk full']);
  });

  it('a listener added after it fired hears the value on a microtask, not inside its own call', async () => {
    const l = new Latch<number>(logger('test'), 'test');
    l.fire(7);
    const heard: number[] = [];
    l.on((v) => heard.push(v));
    assert.deepEqual(heard, []);
    await Promise.resolve();
    assert.deepEqual(heard, [7]);
  });

  it('a throwing listener is logged and does not keep the others from hearing', () => {
    const l = new Latch<number>(logger('test'), 'test');
    const heard: number[] = [];
    l.on(() => {
      throw new Error('boom');
    });
    l.on((v) => heard.push(v));
    l.fire(1);
    assert.deepEqual(heard, [1]);
  });
});
