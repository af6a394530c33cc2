import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';
import { resolveTncBinary } from '../../src/aprs/tnc/tnc-binary.js';
import { until } from './aprs-fixture.js';

// The service with its own Dire Wolf sidecar, through the routes: no sound card here, so the
// sidecar's HOME carries an .asoundrc whose default device is ALSA's null PCM.

/** Processes whose command line names this server's Dire Wolf config. */
const direwolfs = (dataDir: string) =>
  readdirSync('/proc').filter((p) => {
    try {
      return /^\d+$/.test(p) && readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(join(dataDir, 'direwolf.conf'));
    } catch {
      return false;
    }
  });

const have = resolveTncBinary('direwolf').installed;
const required = process.env.REQUIRE_DIREWOLF === '1';

describe('APRS connect with the Dire Wolf sidecar', { skip: !have && !required ? 'direwolf is not installed (apt-get install direwolf)' : false }, () => {
  let s: TestServer;
  let home: string;
  before(async () => {
    assert.ok(have, 'REQUIRE_DIREWOLF=1 but direwolf is not on PATH');
    home = mkdtempSync(join(tmpdir(), 'dw-home-'));
    writeFileSync(join(home, '.asoundrc'), 'pcm.!default {\n  type null\n}\n');
    s = await startServer({ app: { aprsTransport: { env: { HOME: home, XDG_CONFIG_HOME: join(home, '.config') } } } });
    await s.post('/api/v1/settings/aprs', { callsign: 'G4ABC', ssid: 7, listen_only: false, ptt_method: 'vox' });
  });
  after(async () => {
    await s.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('starts Dire Wolf with KISS on a pseudo-terminal and no network port, sends, and stops at once', async () => {
    const c = await s.post('/api/v1/aprs/connect');
    assert.equal(c.status, 200, JSON.stringify(c.body));
    const rt = c.body.runtime;
    assert.equal(rt.sidecar_running, true);
    assert.equal(rt.kiss_connected, true);
    assert.ok(rt.sidecar_command.includes('-p'), rt.sidecar_command.join(' '));
    assert.match(rt.control_endpoint, /KISS on \/dev\/pts\//);
    assert.match(rt.owned_resource, /no PTT line/);
    assert.equal(direwolfs(s.dataDir).length, 1);
    const send = await s.post('/api/v1/aprs/send/status', { text: 'through dire wolf' });
    assert.equal(send.body.sent, true, send.body.tx_block_reason);
    const stop = await s.post('/api/v1/aprs/emergency-stop');
    assert.equal(stop.status, 200);
    assert.equal(stop.body.runtime.sidecar_running, false);
    await until(() => direwolfs(s.dataDir).length === 0, 'the Dire Wolf process gone', 5000);
  });
});
