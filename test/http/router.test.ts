import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { route } from '../../src/http/route.js';
import { Router } from '../../src/http/router.js';

const r = (method: 'GET' | 'POST', path: string) => route({ method, path, tag: 't', summary: '', handler: () => path });

describe('Router', () => {
  const router = new Router();
  router.add(r('GET', '/health'));
  router.add(r('GET', '/api/v1/settings/gps'));
  router.add(r('POST', '/api/v1/settings/gps'));

  it('finds a route by method and exact path', () => {
    const m = router.match('GET', '/api/v1/settings/gps');
    assert.equal(m.kind, 'found');
    assert.equal(m.kind === 'found' && m.route.method, 'GET');
    const p = router.match('post', '/api/v1/settings/gps');
    assert.equal(p.kind === 'found' && p.route.method, 'POST');
  });

  it('tolerates one trailing slash, not other variants', () => {
    assert.equal(router.match('GET', '/health/').kind, 'found');
    assert.equal(router.match('GET', '/Health').kind, 'not_found');
    assert.equal(router.match('GET', '/health/x').kind, 'not_found');
    assert.equal(router.match('GET', '/api/v1/settings').kind, 'not_found');
  });

  it('a known path with another method is 405 with the allowed list', () => {
    assert.deepEqual(router.match('DELETE', '/api/v1/settings/gps'), { kind: 'method_not_allowed', allowed: ['GET', 'POST'] });
    assert.deepEqual(router.match('POST', '/health'), { kind: 'method_not_allowed', allowed: ['GET'] });
  });

  it('refuses a duplicate route', () => {
    assert.throws(() => router.add(r('GET', '/health')), /duplicate/);
  });

  it('lists routes in registration order', () => {
    assert.deepEqual(router.routes().map((x) => `${x.method} ${x.path}`), ['GET /health', 'GET /api/v1/settings/gps', 'POST /api/v1/settings/gps']);
  });
});
