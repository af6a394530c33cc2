import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

// deploy/satstation.service checked by systemd's own tools: `systemd-analyze verify` (syntax,
// unknown options, executables) and the sandbox score of `systemd-analyze security --offline`,
// which must stay at or below MAX_EXPOSURE ("OK"). CI installs systemd and sets REQUIRE_SYSTEMD=1,
// so a missing systemd-analyze is a failure there and a skip only on a machine without systemd.

const root = join(import.meta.dirname, '..', '..');
const UNIT_DIR = join(root, 'deploy');
const MAX_EXPOSURE = 2.5;
const UNITS = ['satstation.service'];

const analyze = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf8' });
const haveAnalyze = analyze.status === 0;
if (!haveAnalyze && process.env.REQUIRE_SYSTEMD) throw new Error('REQUIRE_SYSTEMD is set but systemd-analyze is not installed (apt-get install systemd)');
const skip = haveAnalyze ? false : 'systemd-analyze is not installed (apt-get install systemd); set REQUIRE_SYSTEMD=1 to make this a failure';

const unitText = (name: string) => readFileSync(join(UNIT_DIR, name), 'utf8');
/** Every value of `key=` in the unit, in order. */
const values = (text: string, key: string) => [...text.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((m) => m[1].trim());

const work = mkdtempSync(join(tmpdir(), 'satstation-unit-'));
after(() => rmSync(work, { recursive: true, force: true }));

/**
 * A copy of the unit for verify, in a folder of its own: the one thing verify checks on this
 * machine that belongs to the appliance is the node binary at /usr/bin/node (CI images keep node
 * elsewhere), so ExecStart is pointed at this process's node. Everything else is the file as shipped.
 */
function copyForVerify(name: string): string {
  const dir = mkdtempSync(join(work, 'v-'));
  for (const n of UNITS) {
    try {
      writeFileSync(join(dir, n), unitText(n).replace(/^(ExecStart=)\/usr\/bin\/node\b/m, `$1${process.execPath}`));
    } catch {
      /* a unit not shipped */
    }
  }
  return join(dir, name);
}

describe('deploy/satstation.service', { skip }, () => {
  it('passes systemd-analyze verify', () => {
    for (const name of UNITS) {
      let path: string;
      try {
        unitText(name);
        path = copyForVerify(name);
      } catch {
        continue;
      }
      const r = spawnSync('systemd-analyze', ['verify', '--man=no', path], { encoding: 'utf8' });
      const out = `${r.stdout}${r.stderr}`.trim();
      assert.equal(r.status, 0, `${name}: ${out}`);
      // verify prints problems as warnings with exit 0 too; only an empty report is clean.
      assert.equal(out, '', `${name}: ${out}`);
    }
  });

  it(`scores ${MAX_EXPOSURE} or less ("OK") in systemd-analyze security --offline=true`, () => {
    const r = spawnSync('systemd-analyze', ['security', '--offline=true', '--no-pager', join(UNIT_DIR, 'satstation.service')], { encoding: 'utf8' });
    const m = /Overall exposure level for satstation\.service: (\d+(?:\.\d+)?) (\w+)/.exec(r.stdout);
    assert.ok(m, `no score in:\n${r.stdout}${r.stderr}`);
    const score = Number(m[1]);
    const failing = r.stdout.split('\n').filter((l) => l.startsWith('✗')).map((l) => l.replace(/\s{2,}/g, ' | ').trim());
    assert.ok(score <= MAX_EXPOSURE, `exposure ${score} ${m[2]} is above ${MAX_EXPOSURE}; open items:\n${failing.join('\n')}`);
  });

  it('keeps what the service needs: the JIT, the network, the devices, Dire Wolf', () => {
    const u = unitText('satstation.service');
    // V8 writes machine code at run time.
    assert.ok(!/^MemoryDenyWriteExecute=(yes|true|1)/m.test(u), 'MemoryDenyWriteExecute breaks V8');
    assert.ok(!/^PrivateNetwork=(yes|true|1)/m.test(u), 'the server serves the LAN and talks to APRS-IS');
    assert.ok(!/^PrivateDevices=(yes|true|1)/m.test(u), 'PrivateDevices hides the rig and the sound card');
    const families = values(u, 'RestrictAddressFamilies').join(' ').split(/\s+/);
    for (const f of ['AF_INET', 'AF_INET6', 'AF_UNIX', 'AF_NETLINK']) assert.ok(families.includes(f), `RestrictAddressFamilies lacks ${f}`);
    const devices = values(u, 'DeviceAllow').map((v) => v.split(/\s+/)[0]);
    for (const d of ['char-ttyUSB', 'char-ttyACM', '/dev/ptmx', 'char-pts', 'char-alsa', 'char-hidraw']) assert.ok(devices.includes(d), `DeviceAllow lacks ${d}`);
    assert.deepEqual(values(u, 'SupplementaryGroups')[0].split(/\s+/).sort(), ['audio', 'dialout']);
    // systemd-notify runs as a child of the main process: its messages must be accepted.
    assert.equal(values(u, 'Type')[0], 'notify');
    assert.equal(values(u, 'NotifyAccess')[0], 'all');
    assert.ok(Number(values(u, 'WatchdogSec')[0]) >= 30, 'a Pi Zero needs a generous watchdog');
    assert.equal(values(u, 'Restart')[0], 'on-failure');
    // src/main.ts exits within 4.5 s of SIGTERM.
    assert.ok(Number(values(u, 'TimeoutStopSec')[0]) >= 10);
  });

  it('keeps ExecStart one `/usr/bin/node <flags> <script>` line and plain Environment= lines (bench/child-bundle.ts reads them)', () => {
    const u = unitText('satstation.service');
    const exec = values(u, 'ExecStart');
    assert.equal(exec.length, 1);
    assert.match(exec[0], /^\/usr\/bin\/node( --[\w-]+(=\S+)?)* \/opt\/satstation\/dist\/server\.cjs$/);
    // The entry's code cache goes to systemd's CACHE_DIRECTORY, the one place besides the state
    // that ProtectSystem=strict leaves writable.
    assert.deepEqual(values(u, 'CacheDirectory'), ['satstation']);
    const env = values(u, 'Environment');
    assert.ok(env.length > 0);
    for (const e of env) assert.match(e, /^"?[A-Za-z_][A-Za-z0-9_]*=\S*"?$/, `one assignment per Environment= line: ${e}`);
  });
});

describe('deploy/aprs/satstation-tnc-install.path and .service (the root install of Dire Wolf)', { skip }, () => {
  it('pass systemd-analyze verify, with ExecStart pointed at the repo copy of the helper', () => {
    const dir = mkdtempSync(join(work, 'tnc-'));
    const aprs = join(UNIT_DIR, 'aprs');
    writeFileSync(join(dir, 'satstation-tnc-install.path'), readFileSync(join(aprs, 'satstation-tnc-install.path'), 'utf8'));
    const service = readFileSync(join(aprs, 'satstation-tnc-install.service'), 'utf8');
    assert.match(service, /^ExecStart=\/usr\/local\/lib\/satstation\/tnc-install-request \/var\/lib\/satstation\/tnc-install /m);
    writeFileSync(join(dir, 'satstation-tnc-install.service'), service.replace(/^(ExecStart=)\/usr\/local\/lib\/satstation\//m, `$1${aprs}/`));
    const r = spawnSync('systemd-analyze', ['verify', '--man=no', join(dir, 'satstation-tnc-install.path')], { encoding: 'utf8' });
    assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
    assert.equal(`${r.stdout}${r.stderr}`.trim(), '');
    // The service asks through the folder the path unit watches.
    const watched = /^PathExists=(.*)\/request$/m.exec(readFileSync(join(aprs, 'satstation-tnc-install.path'), 'utf8'))![1];
    assert.deepEqual(values(unitText('satstation.service'), 'Environment').filter((e) => e.startsWith('TNC_INSTALL_REQUEST_DIR=')), [`TNC_INSTALL_REQUEST_DIR=${watched}`]);
  });
});
