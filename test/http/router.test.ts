import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { route } from '../../src/http/route.js';
import { NO_PARAMS, Router } from '../../src/http/router.js';

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

describe('Router: resource routes with an id in the path', () => {
  const router = new Router();
  router.add(r('GET', '/api/v1/recordings'));
  router.add(r('GET', '/api/v1/recordings/runtime'));
  router.add(r('GET', '/api/v1/recordings/{id}'));
  router.add(r('GET', '/api/v1/recordings/{id}/audio'));

  it('a static path wins over a pattern; the id comes back as a param', () => {
    const s = router.match('GET', '/api/v1/recordings/runtime');
    assert.equal(s.kind === 'found' && s.route.path, '/api/v1/recordings/runtime');
    const m = router.match('GET', '/api/v1/recordings/20261129T101500Z-iss');
    assert.equal(m.kind === 'found' && m.route.path, '/api/v1/recordings/{id}');
    assert.deepEqual(m.kind === 'found' && { ...m.params }, { id: '20261129T101500Z-iss' });
    const a = router.match('GET', '/api/v1/recordings/20261129T101500Z-iss/audio/');
    assert.equal(a.kind === 'found' && a.route.path, '/api/v1/recordings/{id}/audio');
  });

  it('a segment that is no id, or the wrong depth, is not found; another method is 405', () => {
    assert.equal(router.match('GET', '/api/v1/recordings/a%2Fb').kind, 'not_found');
    assert.equal(router.match('GET', '/api/v1/recordings/..').kind, 'not_found');
    assert.equal(router.match('GET', '/api/v1/recordings/x/audio/more').kind, 'not_found');
    assert.equal(router.match('GET', `/api/v1/recordings/${'x'.repeat(200)}`).kind, 'not_found');
    assert.deepEqual(router.match('POST', '/api/v1/recordings/x'), { kind: 'method_not_allowed', allowed: ['GET'] });
  });

  it('static routes answer the one shared empty params object', () => {
    const m = router.match('GET', '/api/v1/recordings');
    assert.equal(m.kind === 'found' && m.params, NO_PARAMS);
    assert.throws(() => router.add(r('GET', '/api/v1/recordings/{id}')), /duplicate/);
  });
});
