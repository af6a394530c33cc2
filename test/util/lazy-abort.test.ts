import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LazyAbort } from '../../src/util/lazy-abort.js';

describe('LazyAbort', () => {
  it('hands out one signal that a later abort() aborts', () => {
    const a = new LazyAbort();
    const s = a.signal;
    assert.equal(a.signal, s);
    assert.equal(s.aborted, false);
    assert.equal(a.aborted, false);
    let fired = 0;
    s.addEventListener('abort', () => fired++);
    a.abort();
    assert.equal(s.aborted, true);
    assert.equal(a.aborted, true);
    assert.equal(fired, 1);
  });

  it('hands out an aborted signal when abort() came before any was asked for', () => {
    const a = new LazyAbort();
    a.abort();
    assert.equal(a.aborted, true);
    assert.equal(a.signal.aborted, true);
  });
});
