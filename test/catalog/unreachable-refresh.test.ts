import assert from 'node:assert/strict';
import dns from 'node:dns';
import { isIP } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';
import { freePort } from '../rotator/rotctld-peer.js';

// Issue 32: a refresh from unreachable sources answers within 3 s. The catalog source refuses at
// once; the AMSAT status and SatNOGS transmitters stay at their defaults (CATALOG_SOURCES does not
// replace them), whose names go to a resolver that gives up after 5 s, glibc's default per-try
// timeout (the edge: node's dns.lookup, which node:http calls for a host name).
const RESOLVER_TIMEOUT_MS = 5_000;
const BOUND_MS = 3_000;

describe('a refresh from unreachable sources', () => {
  const realLookup = dns.lookup;
  const asked: string[] = [];
  let s: TestServer;
  before(async () => {
    (dns as { lookup: unknown }).lookup = (host: string, ...rest: unknown[]) => {
      if (isIP(host) || host === 'localhost') return (realLookup as (...a: unknown[]) => void)(host, ...rest);
      asked.push(host);
      const cb = rest[rest.length - 1] as (err: Error) => void;
      setTimeout(() => cb(Object.assign(new Error(`getaddrinfo EAI_AGAIN ${host}`), { code: 'EAI_AGAIN' })), RESOLVER_TIMEOUT_MS).unref();
    };
    s = await startServer({ config: { catalogSources: [`http://127.0.0.1:${await freePort()}/catalog.json`] } });
  });
  after(async () => {
    (dns as { lookup: unknown }).lookup = realLookup;
    await s.stop();
  });

  it('GET /api/v1/satellites?refresh_from_sources=true answers within 3 s and says why', async () => {
    const t0 = performance.now();
    const r = await s.get('/api/v1/satellites?refresh_from_sources=true');
    const ms = performance.now() - t0;
    assert.equal(r.status, 200);
    assert.ok(asked.includes('www.amsat.org'), `the default status source was asked for (${asked.join(', ')})`);
    assert.match(r.body.refreshError, /ECONNREFUSED/);
    assert.match(r.body.refreshError, /status refresh failed: .*no connection to www\.amsat\.org within/);
    assert.ok(ms < BOUND_MS, `answered after ${Math.round(ms)} ms`);
  });

  it('POST /api/v1/datasets/refresh answers within 3 s and says why for each source', async () => {
    const t0 = performance.now();
    const r = await s.post('/api/v1/datasets/refresh');
    const ms = performance.now() - t0;
    assert.equal(r.status, 200);
    assert.match(r.body.meta.error, /ECONNREFUSED/);
    assert.match(r.body.status.error, /no connection to www\.amsat\.org within/);
    assert.match(r.body.transmitters.error, /no connection to db\.satnogs\.org within/);
    assert.ok(ms < BOUND_MS, `answered after ${Math.round(ms)} ms`);
  });
});
