import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { LITE_CACHE_MAX, LITE_CACHE_TTL_MS, LiteCache } from '../../src/station/lite-cache.js';
import { zlibRead } from '../../src/util/lazy-builtins.js';

const wrap = (body: Buffer, gzip: Buffer | null, hit: boolean) => ({ body, gzip, hit });

describe('lite snapshot cache', () => {
  it('keeps the bytes and a gzipped copy, but for the first entry, made before zlib was read; valid for 15 s exactly', async () => {
    const c = new LiteCache(wrap);
    // zlib is read at the first quiet moment after the first entry asked for it (src/util/lazy-builtins.ts).
    assert.equal(c.put('first', 0, '{"a":0}').gzip, null);
    c.clear();
    await zlibRead();
    const e = c.put('k', 1000, '{"a":1}');
    assert.equal(e.miss.hit, false);
    assert.equal(e.hit.hit, true);
    assert.equal(gunzipSync(e.gzip!).toString(), '{"a":1}');
    assert.equal(c.get('k', 1000 + LITE_CACHE_TTL_MS - 1), e);
    assert.equal(c.get('k', 1000 + LITE_CACHE_TTL_MS), null);
    assert.equal(c.size, 0, 'an expired entry is dropped');
  });

  it('a clock that went backwards does not serve an entry from the future', () => {
    const c = new LiteCache(wrap);
    c.put('k', 5000, '{}');
    assert.equal(c.get('k', 4000), null);
  });

  it('stays bounded when clients vary the key', () => {
    const c = new LiteCache(wrap);
    for (let i = 0; i < LITE_CACHE_MAX * 3; i++) c.put(`k${i}`, 0, '{}');
    assert.equal(c.size, LITE_CACHE_MAX);
    assert.ok(c.get(`k${LITE_CACHE_MAX * 3 - 1}`, 0), 'the newest entry is kept');
    assert.equal(c.get('k0', 0), null, 'the oldest went first');
    c.clear();
    assert.equal(c.size, 0);
  });
});
