import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { fetchOffThread } from '../../src/catalog/fetch-job.js';
import { fetchSource } from '../../src/catalog/fetch-source.js';
import { startHttpsSource, tlsLoadedHere } from './fixtures/https-source-process.js';

// https sources are fetched on a worker thread (src/catalog/fetch-job.ts): TLS never loads on the
// serving thread. The source is a real https server in its own process (fixtures/https-source.mjs,
// a self-signed certificate for 127.0.0.1), so this process's main thread loads no TLS of its own.

const tlsLoaded = tlsLoadedHere;
let source: Awaited<ReturnType<typeof startHttpsSource>>;
let base = '';

before(async () => {
  source = await startHttpsSource();
  base = source.base;
});
after(() => source.stop());

const o = () => ({ timeoutMs: 10_000, maxBytes: 1024 * 1024, nowMs: Date.now() });

test('an untrusted certificate is a failed fetch with the reason, and TLS stays off the main thread', async () => {
  assert.equal(tlsLoaded(), false, 'no TLS on this thread before');
  const r = await fetchSource(`${base}/catalog.tle`, o());
  assert.equal(r.kind, 'error');
  assert.match(r.kind === 'error' ? r.message : '', /fetch failed: (DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT)/);
  assert.equal(tlsLoaded(), false, 'no TLS on this thread after');
});

test('a fetch stopped before it starts answers so at once', async () => {
  const stop = new AbortController();
  stop.abort();
  assert.deepEqual(await fetchSource(`${base}/catalog.tle`, { ...o(), signal: stop.signal }), { kind: 'error', status: null, message: 'stopped', retryAfterMs: null });
});

test('with the certificate trusted: body, validators, a redirect, a 304, the size cap, the timeout and a stop, all off the main thread', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./fixtures/fetch-https-child.ts', import.meta.url)), base], {
    env: { ...process.env, NODE_EXTRA_CA_CERTS: source.certFile },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c));
  const [code] = (await once(child, 'exit')) as [number];
  assert.equal(code, 0);
  const r = JSON.parse(out);
  assert.equal(r.plain.kind, 'data');
  assert.match(r.plain.body, /^1 25544U/m);
  assert.equal(r.plain.etag, '"v1"');
  assert.equal(r.plain.maxAgeMs, 600_000);
  assert.equal(r.plain.bytes, Buffer.byteLength(r.plain.body));
  assert.equal(r.redirected.kind, 'data');
  assert.equal(r.redirected.finalUrl, `${base}/catalog.tle`);
  assert.equal(r.redirected.body, r.plain.body);
  assert.deepEqual(r.conditional, { kind: 'not-modified', maxAgeMs: null });
  assert.equal(r.capped.kind, 'error');
  assert.match(r.capped.message, /size cap of 256 KiB/);
  assert.deepEqual(r.timedOut, { kind: 'error', status: null, message: 'timed out after 300 ms', retryAfterMs: null });
  assert.deepEqual(r.stopped.result, { kind: 'error', status: null, message: 'stopped', retryAfterMs: null });
  assert.ok(r.stopped.ms < 1_000, `a stop ends the fetch at once (${r.stopped.ms} ms)`);
  assert.equal(r.tlsOnMain, false);
});

// Last: this one loads TLS on this thread.
test('a worker that cannot run: the fetch happens on the loop instead, with the same answer', async () => {
  const r = await fetchOffThread(`${base}/catalog.tle`, o(), { script: 'throw new Error("no worker today")', eval: true });
  assert.equal(r.kind, 'error');
  assert.match(r.kind === 'error' ? r.message : '', /fetch failed: (DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT)/);
  assert.equal(tlsLoaded(), true, 'fetched here');
});
