import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, tmpDataDir, type TestServer } from '../helpers/server.js';
import { UI_ROUTES } from '../../src/http/ui-pages.js';
import type { FixedClock } from '../../src/util/clock.js';

// The operator lock through the real server: every POST route of the appliance, locked and
// unlocked, with no credentials, the bearer token, the login cookie and wrong tokens.

const TOKEN = 'correct horse battery';
const ACCESS_PATHS = new Set(['/api/v1/access', '/api/v1/access/login', '/api/v1/access/logout']);

/** A POST whose body the server refuses (415) only once the lock has let it through: no handler runs. */
async function probe(srv: TestServer, path: string, headers: Record<string, string> = {}) {
  return srv.post(path, 'x', { 'content-type': 'text/plain', ...headers });
}

/** The station's settings files, to show a refused request changed nothing. */
function settingsFiles(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.json'))) out[f] = readFileSync(join(dir, f), 'utf8');
  return out;
}

const cookieOf = (h: Headers) => /satstation_operator=([^;]*)/.exec(h.get('set-cookie') ?? '')?.[1] ?? null;

describe('operator lock over every route', () => {
  let srv: TestServer;
  let gated: string[];
  let cookie: string;
  const dataDir = tmpDataDir();

  before(async () => {
    srv = await startServer({ dataDir });
    gated = srv.app.routes.filter((r) => r.method === 'POST' && !r.open && !ACCESS_PATHS.has(r.path)).map((r) => r.path);
  });
  after(() => srv.stop());

  it('is open by default: every POST goes through without credentials', async () => {
    const s = await srv.get('/api/v1/access');
    assert.deepEqual([s.status, s.body.locked, s.body.source, s.body.authorized], [200, false, 'off', true]);
    assert.ok(gated.length >= 40, `${gated.length} gated routes`);
    for (const path of gated) assert.equal((await probe(srv, path)).status, 415, path);
  });

  it('locking needs a token of 8 characters or more, and stores only its hash, mode 0600', async () => {
    const short = await srv.post('/api/v1/access', { locked: true, token: 'short' });
    assert.equal(short.status, 400);
    assert.equal(short.body.error.details.fields[0].field, 'token');
    const none = await srv.post('/api/v1/access', { locked: true });
    assert.equal(none.status, 400);
    const r = await srv.post('/api/v1/access', { locked: true, token: TOKEN });
    assert.equal(r.status, 200);
    assert.deepEqual([r.body.locked, r.body.source, r.body.authorized], [true, 'setting', true]);
    cookie = cookieOf(r.headers)!;
    assert.ok(cookie, 'the browser that locked stays signed in');
    assert.match(r.headers.get('set-cookie')!, /HttpOnly; SameSite=Strict/);
    const file = join(dataDir, 'access.json');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const text = readFileSync(file, 'utf8');
    assert.ok(!text.includes(TOKEN), 'the token itself is never written');
    assert.match(JSON.parse(text).token_hash, /^scrypt\$16384\$8\$1\$/);
  });

  it('locked: every state-changing route refuses a request without the token, and nothing changes', async () => {
    const before = settingsFiles(dataDir);
    for (const path of gated) {
      const r = await srv.post(path, {});
      assert.equal(r.status, 401, path);
      assert.equal(r.body.error.code, 'operator_token_required', path);
      assert.match(r.headers.get('www-authenticate') ?? '', /^Bearer/);
    }
    assert.deepEqual(settingsFiles(dataDir), before);
    const s = await srv.get('/api/v1/access');
    assert.deepEqual([s.body.locked, s.body.authorized], [true, false]);
  });

  it('locked: every GET route and every page stays readable', async () => {
    for (const r of srv.app.routes.filter((r) => r.method === 'GET')) {
      const res = await srv.get(r.path);
      assert.ok(res.status !== 401 && res.status !== 429, `${r.path} answered ${res.status}`);
    }
    for (const p of [...UI_ROUTES.map((u) => u.path), '/login']) {
      const res = await fetch(srv.base + p);
      assert.equal(res.status, 200, p);
    }
  });

  it('locked: emergency stop still works without a token', async () => {
    const r = await srv.post('/api/v1/aprs/emergency-stop', {});
    assert.equal(r.status, 200);
    assert.equal(r.body.ok, true);
  });

  it('locked: the bearer token and the login cookie both let every route through', async () => {
    for (const path of gated) {
      assert.equal((await probe(srv, path, { authorization: `Bearer ${TOKEN}` })).status, 415, path);
      assert.equal((await probe(srv, path, { cookie: `satstation_operator=${cookie}` })).status, 415, path);
    }
    const s = await srv.get('/api/v1/access', { authorization: `Bearer ${TOKEN}` });
    assert.equal(s.body.authorized, true);
    const w = await srv.post('/api/v1/settings/timezone', { timezone: 'Europe/Berlin' }, { authorization: `Bearer ${TOKEN}` });
    assert.equal(w.status, 200);
  });

  it('a forged or expired cookie is no credential', async () => {
    const [exp] = cookie.split('.');
    const forged = `${exp}.${'A'.repeat(43)}`;
    assert.equal((await probe(srv, '/api/v1/location', { cookie: `satstation_operator=${forged}` })).status, 401);
    (srv.clock as FixedClock).advance(31 * 24 * 3600 * 1000);
    assert.equal((await probe(srv, '/api/v1/location', { cookie: `satstation_operator=${cookie}` })).status, 401);
  });

  it('wrong tokens are counted per address: five tries, then 429 with Retry-After until the window passes', async () => {
    for (let left = 4; left >= 0; left--) {
      const r = await probe(srv, '/api/v1/location', { authorization: 'Bearer not-the-token' });
      assert.equal(r.status, 401);
      assert.equal(r.body.error.code, 'operator_token_invalid');
      assert.equal(r.body.error.details.attempts_left, left);
    }
    const limited = await probe(srv, '/api/v1/location', { authorization: `Bearer ${TOKEN}` });
    assert.equal(limited.status, 429, 'even the right token waits: the limit is on the address');
    assert.equal(limited.body.error.code, 'too_many_attempts');
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    const login = await srv.post('/api/v1/access/login', { token: TOKEN });
    assert.equal(login.status, 429, 'the login page shares the count');
    (srv.clock as FixedClock).advance(61_000);
    assert.equal((await probe(srv, '/api/v1/location', { authorization: `Bearer ${TOKEN}` })).status, 415);
  });

  it('the login page signs a browser in and out', async () => {
    const bad = await srv.post('/api/v1/access/login', { token: 'nope' });
    assert.equal(bad.status, 401);
    assert.equal(bad.headers.get('set-cookie'), null);
    const ok = await srv.post('/api/v1/access/login', { token: TOKEN });
    assert.equal(ok.status, 200);
    cookie = cookieOf(ok.headers)!;
    assert.equal((await srv.get('/api/v1/access', { cookie: `satstation_operator=${cookie}` })).body.authorized, true);
    const out = await srv.post('/api/v1/access/logout', {});
    assert.match(out.headers.get('set-cookie')!, /satstation_operator=; Path=\/; Max-Age=0/);
  });

  it('the lock survives a restart, with its sessions', async () => {
    await srv.stop({ keepData: true });
    srv = await startServer({ dataDir });
    assert.equal((await srv.get('/api/v1/access')).body.locked, true);
    assert.equal((await probe(srv, '/api/v1/location')).status, 401);
    assert.equal((await probe(srv, '/api/v1/location', { cookie: `satstation_operator=${cookie}` })).status, 415);
  });

  it('a new token signs every browser out and retires the old token', async () => {
    const NEW = 'another long token';
    const r = await srv.post('/api/v1/access', { locked: true, token: NEW }, { cookie: `satstation_operator=${cookie}` });
    assert.equal(r.status, 200);
    assert.equal((await probe(srv, '/api/v1/location', { cookie: `satstation_operator=${cookie}` })).status, 401);
    assert.equal((await probe(srv, '/api/v1/location', { authorization: `Bearer ${TOKEN}` })).status, 401);
    assert.equal((await probe(srv, '/api/v1/location', { authorization: `Bearer ${NEW}` })).status, 415);
    const unlock = await srv.post('/api/v1/access', { locked: false }, { authorization: `Bearer ${NEW}` });
    assert.deepEqual([unlock.status, unlock.body.locked, unlock.body.source], [200, false, 'off']);
    assert.equal(JSON.parse(readFileSync(join(dataDir, 'access.json'), 'utf8')).token_hash, null);
    for (const path of gated) assert.equal((await probe(srv, path)).status, 415, path);
  });
});

describe('operator lock from the environment', () => {
  let srv: TestServer;
  before(async () => {
    srv = await startServer({ config: { operatorToken: 'from-the-environment' } });
  });
  after(() => srv.stop());

  it('locks the station with OPERATOR_TOKEN, which the API cannot change', async () => {
    const s = await srv.get('/api/v1/access');
    assert.deepEqual([s.body.locked, s.body.source], [true, 'environment']);
    assert.equal((await probe(srv, '/api/v1/radio/connect')).status, 401);
    assert.equal((await probe(srv, '/api/v1/radio/connect', { authorization: 'Bearer from-the-environment' })).status, 415);
    const un = await srv.post('/api/v1/access', { locked: false }, { authorization: 'Bearer from-the-environment' });
    assert.equal(un.status, 409);
    assert.equal(un.body.error.code, 'locked_by_environment');
    const login = await srv.post('/api/v1/access/login', { token: 'from-the-environment' });
    assert.equal(login.status, 200);
    const c = cookieOf(login.headers);
    assert.equal((await probe(srv, '/api/v1/radio/connect', { cookie: `satstation_operator=${c}` })).status, 415);
  });
});
