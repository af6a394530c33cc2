// A body read over plain http gives the event loop turns while it arrives (issue 36): a source on
// the LAN could otherwise deliver megabytes inside one turn. The slicer is injected, so whether
// the reader yields is checked by counting, not by timing.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { fetchHttp, type FetchOptions } from '../../src/catalog/fetch-http.js';
import { eventLoopSlicer, type LoopSlicer } from '../../src/util/loop-slices.js';
import { startSourceServer, type Handler, type SourceServer } from './fixtures/source-server.js';

const MIB = 1024 * 1024;
const OPTS: FetchOptions = { timeoutMs: 10_000, maxBytes: 16 * MIB, nowMs: Date.parse('2026-07-24T12:00:00Z') };

/** Every byte differs from its neighbours' pattern, so a chunk copied to the wrong place shows. */
const pattern = (n: number): Buffer => {
  const b = Buffer.allocUnsafe(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + (i >> 16)) & 0xff;
  return b;
};
const digest = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The bytes with their content-length. */
const sized =
  (bytes: Buffer): Handler =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) });
    res.end(bytes);
  };

/** The same bytes with no content-length: written in 64 KiB pieces, chunked on the wire. */
const chunked =
  (bytes: Buffer): Handler =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    for (let o = 0; o < bytes.length; o += 64 * 1024) res.write(bytes.subarray(o, o + 64 * 1024));
    res.end();
  };

/** The event loop's slicer with its own clock and a count of the turns asked for. */
function countingSlicer(sliceMs: number, msPerRead: number): LoopSlicer & { turns: number } {
  let now = 0;
  const s = {
    sliceMs,
    turns: 0,
    monotonicMs: () => (now += msPerRead),
    yieldTo: () => {
      s.turns++;
      return eventLoopSlicer.yieldTo();
    },
  };
  return s;
}

describe('fetchHttp gives the loop turns while a body arrives', () => {
  let src: SourceServer;
  const bytes = pattern(4 * MIB);
  before(async () => {
    src = await startSourceServer();
    src.set('/sized', sized(bytes));
    src.set('/chunked', chunked(bytes));
  });
  after(() => src.close());

  for (const path of ['/sized', '/chunked']) {
    it(`${path}: yields when a slice is spent, and the body is whole`, async () => {
      // Each clock read moves 5 ms on: every chunk read ends a 4 ms slice.
      const s = countingSlicer(4, 5);
      const r = await fetchHttp(src.base + path, OPTS, s);
      assert.equal(r.kind, 'data');
      if (r.kind !== 'data') return;
      assert.equal(r.bytes, bytes.length);
      assert.equal(digest(r.body), digest(bytes));
      // 4 MiB arrives in 64 chunks at the very least (the socket reads at most 64 KiB at once).
      assert.ok(s.turns >= 64, `${s.turns} turns given while 4 MiB arrived`);
    });

    it(`${path}: a slice not yet spent reads on without a turn`, async () => {
      const s = countingSlicer(4, 0);
      const r = await fetchHttp(src.base + path, OPTS, s);
      assert.equal(r.kind, 'data');
      if (r.kind !== 'data') return;
      assert.equal(digest(r.body), digest(bytes));
      // Only the join of a chunked body's parts may end with one turn (drainSliced).
      assert.ok(s.turns <= 1, `${s.turns} turns given with no time spent`);
    });
  }
});
