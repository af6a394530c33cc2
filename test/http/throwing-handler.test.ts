import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as v from 'valibot';
import { HttpServer } from '../../src/http/server.js';
import { route } from '../../src/http/route.js';
import { AppError } from '../../src/util/errors.js';
import { setLogLevel } from '../../src/util/logger.js';

setLogLevel('silent');

describe('handler failures', () => {
  let server: HttpServer;
  let base: string;
  const invalidated: string[] = [];
  before(async () => {
    server = new HttpServer({
      routes: [
        route({ method: 'GET', path: '/boom', tag: 't', summary: 'throws', handler: () => { throw new Error('kaput'); } }),
        route({ method: 'GET', path: '/async-boom', tag: 't', summary: 'rejects', handler: async () => { throw new TypeError('async kaput'); } }),
        route({ method: 'GET', path: '/teapot', tag: 't', summary: 'app error', handler: () => { throw new AppError(409, 'busy', 'rig busy', { retry: true }); } }),
        route({
          method: 'GET', path: '/q', tag: 't', summary: 'query',
          query: v.object({ n: v.pipe(v.string(), v.regex(/^\d+$/, 'must be digits')) }),
          handler: ({ query }) => ({ n: query.n }),
        }),
        route({ method: 'POST', path: '/mut', tag: 't', summary: 'clears', clearsLiteCache: true, handler: () => ({ ok: true }) }),
      ],
      onLiteInvalidate: (r) => invalidated.push(r.path),
    });
    base = `http://127.0.0.1:${await server.listen('127.0.0.1', 0)}`;
  });
  after(() => server.close());

  it('a throwing handler gives 500 with the error body (no internals) and the server keeps serving', async () => {
    for (const p of ['/boom', '/async-boom']) {
      const res = await fetch(base + p);
      assert.equal(res.status, 500);
      const body = await res.json();
      assert.equal(body.error.code, 'internal_error');
      assert.equal(body.error.message, 'internal error; the server log has the details');
    }
    const ok = await fetch(base + '/q?n=5');
    assert.deepEqual(await ok.json(), { n: '5' });
  });

  it('AppError keeps its status, code and details', async () => {
    const res = await fetch(base + '/teapot');
    assert.equal(res.status, 409);
    assert.deepEqual(await res.json(), { error: { code: 'busy', message: 'rig busy', details: { retry: true } } });
  });

  it('query validation names the parameter', async () => {
    const res = await fetch(base + '/q?n=abc');
    assert.equal(res.status, 400);
    const body = await res.json();
    assert.equal(body.error.details.fields[0].field, 'n');
    const missing = await fetch(base + '/q');
    assert.equal(missing.status, 400);
  });

  it('a successful clearsLiteCache route invalidates', async () => {
    await fetch(base + '/mut', { method: 'POST' });
    assert.deepEqual(invalidated, ['/mut']);
  });
});
