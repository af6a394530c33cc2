import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

// deploy/install.sh run for real, against a throw-away root (SATSTATION_ROOT prefixes every path
// it writes) with stand-ins for the system tools on PATH that log their calls and keep the little
// state the script asks back (does the user exist, is the unit enabled). Nothing of this machine
// is touched.

const root = join(import.meta.dirname, '..', '..');
const SCRIPT = join(root, 'deploy', 'install.sh');

const work = mkdtempSync(join(tmpdir(), 'satstation-install-'));
after(() => rmSync(work, { recursive: true, force: true }));

const SHIMS: Record<string, string> = {
  // Enabled state per unit: is-enabled/enable/disable take options and one or more units.
  systemctl: `verb="$1"; shift
for u in "$@"; do
  case "$u" in -*) continue ;; esac
  case "$verb" in
    is-enabled) [ -e "$SHIM_STATE/enabled-$u" ] || exit 1 ;;
    enable) touch "$SHIM_STATE/enabled-$u" ;;
    disable) rm -f "$SHIM_STATE/enabled-$u" ;;
  esac
done
exit 0`,
  useradd: `touch "$SHIM_STATE/user"`,
  userdel: `rm -f "$SHIM_STATE/user" "$SHIM_STATE/groups"`,
  usermod: `echo "dialout audio" > "$SHIM_STATE/groups"`,
  id: `case "$1" in
  -u) echo 0 ;;
  -nG) [ -e "$SHIM_STATE/user" ] && echo "satstation $(cat "$SHIM_STATE/groups" 2>/dev/null)" ;;
  *) [ -e "$SHIM_STATE/user" ] ;;
esac`,
  chown: `:`,
  udevadm: `:`,
};

interface Env {
  R: string;
  log: string;
  run(...args: string[]): { status: number | null; out: string; calls: string[] };
}

function setup(name: string): Env {
  const base = join(work, name);
  const R = join(base, 'root');
  const bin = join(base, 'bin');
  const state = join(base, 'state');
  const log = join(base, 'calls.log');
  for (const d of [R, bin, state]) mkdirSync(d, { recursive: true });
  for (const [tool, body] of Object.entries(SHIMS)) {
    writeFileSync(join(bin, tool), `#!/bin/sh\necho "${tool} $*" >> "$SHIM_LOG"\n${body}\n`);
    chmodSync(join(bin, tool), 0o755);
  }
  return {
    R,
    log,
    run(...args) {
      writeFileSync(log, '');
      const r = spawnSync('bash', [SCRIPT, ...args], {
        encoding: 'utf8',
        env: { ...process.env, SATSTATION_ROOT: R, SHIM_LOG: log, SHIM_STATE: state, PATH: `${bin}:${process.env.PATH}` },
      });
      return { status: r.status, out: r.stdout + r.stderr, calls: readFileSync(log, 'utf8').split('\n').filter(Boolean) };
    },
  };
}

function makeDist(name: string, version: string): string {
  const d = join(work, 'dists', name);
  mkdirSync(join(d, 'native'), { recursive: true });
  mkdirSync(join(d, 'ui'), { recursive: true });
  writeFileSync(join(d, 'server.cjs'), `// satstation ${version}\n`);
  writeFileSync(join(d, 'native', 'serialport.node'), `binary ${version}`);
  writeFileSync(join(d, 'ui', 'manifest.json'), `{"v":"${version}"}`);
  return d;
}

/** Every path under dir with its type, mode, size, mtime and content (or link target). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (p: string, rel: string) => {
    const st = lstatSync(p);
    if (st.isSymbolicLink()) out[rel] = `link ${readlinkSync(p)} ${st.mtimeMs}`;
    else if (st.isDirectory()) {
      out[rel] = `dir ${st.mode.toString(8)}`;
      for (const n of readdirSync(p).sort()) walk(join(p, n), `${rel}/${n}`);
    } else out[rel] = `file ${st.mode.toString(8)} ${st.mtimeMs} ${readFileSync(p, 'utf8')}`;
  };
  walk(dir, '');
  return out;
}

const read = (p: string) => readFileSync(p, 'utf8');

describe('deploy/install.sh', () => {
  const v1 = makeDist('v1', '1.0');
  const v2 = makeDist('v2', '2.0');
  const v3 = makeDist('v3', '3.0');
  let e: Env;
  before(() => {
    e = setup('main');
  });

  it('installs: user, data directory, settings file, release, unit, udev rules, modules; enables and starts', () => {
    const r = e.run(v1);
    assert.equal(r.status, 0, r.out);
    const opt = join(e.R, 'opt/satstation');
    assert.match(readlinkSync(join(opt, 'dist')), /^releases\/[0-9a-f]{16}$/);
    assert.equal(read(join(opt, 'dist', 'server.cjs')), '// satstation 1.0\n');
    assert.equal(read(join(e.R, 'etc/systemd/system/satstation.service')), read(join(root, 'deploy/satstation.service')));
    assert.equal(read(join(e.R, 'etc/udev/rules.d/99-satstation-rig.rules')), read(join(root, 'deploy/99-satstation-rig.rules')));
    assert.equal(read(join(e.R, 'etc/modules-load.d/satstation.conf')), read(join(root, 'deploy/satstation-modules.conf')));
    assert.ok(lstatSync(join(e.R, 'var/lib/satstation')).isDirectory());
    assert.equal(lstatSync(join(e.R, 'var/lib/satstation')).mode & 0o777, 0o750);
    assert.match(read(join(e.R, 'etc/default/satstation')), /^#PORT=8080$/m);
    assert.equal(lstatSync(join(e.R, 'etc/default/satstation')).mode & 0o777, 0o600, 'it may hold OPERATOR_TOKEN');
    assert.equal(read(join(e.R, 'etc/systemd/system/satstation-tnc-install.path')), read(join(root, 'deploy/aprs/satstation-tnc-install.path')));
    assert.equal(lstatSync(join(e.R, 'usr/local/lib/satstation/tnc-install-request')).mode & 0o777, 0o755);
    for (const c of ['systemctl enable --now satstation-tnc-install.path', 'useradd --system --user-group', 'usermod -a -G dialout,audio satstation', 'chown satstation:satstation', 'systemctl daemon-reload', 'systemctl enable satstation.service', 'systemctl restart satstation.service', 'udevadm control --reload'])
      assert.ok(r.calls.some((l) => l.startsWith(c)), `expected a call "${c}" in:\n${r.calls.join('\n')}`);
    assert.ok(
      r.calls.indexOf('systemctl daemon-reload') < r.calls.indexOf('systemctl restart satstation.service'),
      'the new unit is loaded before the restart',
    );
  });

  it('a second run changes nothing (same files, same times) and only restarts', () => {
    const before = snapshot(e.R);
    const r = e.run(v1);
    assert.equal(r.status, 0, r.out);
    assert.deepEqual(snapshot(e.R), before);
    const acting = r.calls.filter((l) => !/^(id |systemctl is-enabled )/.test(l));
    assert.deepEqual(acting, ['systemctl restart satstation.service']);
    assert.match(r.out, /nothing changed; restarted/);
  });

  it('an upgrade swaps the release, keeps the data and the operator settings, and keeps the previous release', () => {
    const data = join(e.R, 'var/lib/satstation');
    writeFileSync(join(data, 'location.json'), '{"operator":"data"}');
    writeFileSync(join(e.R, 'etc/default/satstation'), 'PORT=9090\n');
    const first = readlinkSync(join(e.R, 'opt/satstation/dist'));
    const r = e.run(v2);
    assert.equal(r.status, 0, r.out);
    const second = readlinkSync(join(e.R, 'opt/satstation/dist'));
    assert.notEqual(second, first);
    assert.equal(read(join(e.R, 'opt/satstation/dist/server.cjs')), '// satstation 2.0\n');
    assert.equal(read(join(data, 'location.json')), '{"operator":"data"}');
    assert.equal(read(join(e.R, 'etc/default/satstation')), 'PORT=9090\n');
    assert.ok(existsSync(join(e.R, 'opt/satstation', first, 'server.cjs')), 'the previous release stays for a rollback');
    assert.ok(!r.calls.some((l) => l.startsWith('useradd') || l.startsWith('chown')), r.calls.join('\n'));
    assert.ok(r.calls.includes('systemctl restart satstation.service'));
    // A third build: the oldest release goes, the last two stay.
    assert.equal(e.run(v3).status, 0);
    const releases = readdirSync(join(e.R, 'opt/satstation/releases')).sort();
    assert.deepEqual(releases, [first.replace('releases/', ''), second.replace('releases/', ''), readlinkSync(join(e.R, 'opt/satstation/dist')).replace('releases/', '')].slice(1).sort());
  });

  it('upgrades an install whose dist/ is a plain directory (the earlier install.sh) to a release symlink', () => {
    const old = setup('old-layout');
    mkdirSync(join(old.R, 'opt/satstation/dist'), { recursive: true });
    writeFileSync(join(old.R, 'opt/satstation/dist/server.cjs'), '// old copy\n');
    mkdirSync(join(old.R, 'var/lib/satstation'), { recursive: true });
    writeFileSync(join(old.R, 'var/lib/satstation/keep.json'), '{}');
    const r = old.run(v2);
    assert.equal(r.status, 0, r.out);
    assert.ok(lstatSync(join(old.R, 'opt/satstation/dist')).isSymbolicLink());
    assert.equal(read(join(old.R, 'opt/satstation/dist/server.cjs')), '// satstation 2.0\n');
    assert.ok(!existsSync(join(old.R, 'opt/satstation/dist.old')));
    assert.equal(read(join(old.R, 'var/lib/satstation/keep.json')), '{}');
  });

  it('--uninstall removes the unit, the program, its code cache and the user, and keeps the data and settings', () => {
    mkdirSync(join(e.R, 'var/cache/satstation/0123456789abcdef-v18.19.0-arm64'), { recursive: true });
    const r = e.run('--uninstall');
    assert.equal(r.status, 0, r.out);
    assert.ok(!existsSync(join(e.R, 'opt/satstation')));
    assert.ok(!existsSync(join(e.R, 'var/cache/satstation')));
    assert.ok(!existsSync(join(e.R, 'etc/systemd/system/satstation.service')));
    assert.ok(!existsSync(join(e.R, 'etc/udev/rules.d/99-satstation-rig.rules')));
    assert.ok(!existsSync(join(e.R, 'etc/modules-load.d/satstation.conf')));
    assert.ok(!existsSync(join(e.R, 'etc/systemd/system/satstation-tnc-install.path')));
    assert.ok(!existsSync(join(e.R, 'usr/local/lib/satstation')));
    assert.equal(read(join(e.R, 'var/lib/satstation/location.json')), '{"operator":"data"}');
    assert.equal(read(join(e.R, 'etc/default/satstation')), 'PORT=9090\n');
    for (const c of ['systemctl disable --now satstation.service satstation-tnc-install.path', 'systemctl daemon-reload', 'userdel satstation']) assert.ok(r.calls.includes(c), `expected "${c}" in:\n${r.calls.join('\n')}`);
    assert.match(r.out, /kept the data/);
    // A reinstall finds the data where it was.
    assert.equal(e.run(v1).status, 0);
    assert.equal(read(join(e.R, 'var/lib/satstation/location.json')), '{"operator":"data"}');
  });

  it('--uninstall --purge removes the data and the settings too', () => {
    const r = e.run('--uninstall', '--purge');
    assert.equal(r.status, 0, r.out);
    assert.ok(!existsSync(join(e.R, 'var/lib/satstation')));
    assert.ok(!existsSync(join(e.R, 'etc/default/satstation')));
    assert.ok(!existsSync(join(e.R, 'opt/satstation')));
  });

  it('refuses a folder without server.cjs and --purge without --uninstall', () => {
    const x = setup('refuse');
    const empty = join(work, 'empty');
    mkdirSync(empty, { recursive: true });
    const a = x.run(empty);
    assert.notEqual(a.status, 0);
    assert.match(a.out, /no server\.cjs/);
    assert.notEqual(x.run('--purge').status, 0);
    assert.deepEqual(readdirSync(x.R), []);
  });
});
