import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseUnit, unitEnv } from '../../bench/child-bundle.js';

// The bench and the deployed-server tests run the server in the unit's environment: a machine's
// own NODE_EXTRA_CA_CERTS, NODE_OPTIONS or allocator tuning is not the appliance's runtime.
describe("the unit's environment for a server the bench starts (bench/child-bundle.ts unitEnv)", () => {
  const set = { NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt', NODE_OPTIONS: '--max-old-space-size=4096', MALLOC_ARENA_MAX: '8', UV_THREADPOOL_SIZE: '64', OPENSSL_CONF: '/x', SATSTATION_PROBE: 'kept' };
  const saved: Record<string, string | undefined> = {};
  before(() => {
    for (const [k, v] of Object.entries(set)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
  });
  after(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it("drops the runtime's tuning inherited from this process and keeps the unit's own, the rest and the extras", () => {
    const rt = parseUnit('ExecStart=/usr/bin/node --optimize-for-size /opt/satstation/dist/server.cjs\nEnvironment=NODE_ENV=production\nEnvironment=MALLOC_ARENA_MAX=2\n');
    const env = unitEnv(rt, { PORT: '0' });
    for (const k of ['NODE_EXTRA_CA_CERTS', 'NODE_OPTIONS', 'UV_THREADPOOL_SIZE', 'OPENSSL_CONF']) assert.equal(env[k], undefined, k);
    assert.equal(env.MALLOC_ARENA_MAX, '2');
    assert.equal(env.NODE_ENV, 'production');
    assert.equal(env.SATSTATION_PROBE, 'kept');
    assert.equal(env.PATH, process.env.PATH);
    assert.equal(env.PORT, '0');
  });
});
