// The benchmarks from the deployable artifact: `node dist/bench.mjs` run from a copied dist/ with
// no repo and no node_modules anywhere above it, as on the appliance (no dev dependencies: tinybench
// is inside, its children are bench.mjs itself, the server it boots is server.cjs beside it).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { before, describe, it } from 'node:test';
import { tmpDataDir } from '../helpers/server.js';

const root = join(import.meta.dirname, '..', '..');

function run(cwd: string, args: string[], timeout = 120_000): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, ['bench.mjs', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NODE_PATH: '', NODE_OPTIONS: '' },
    timeout,
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

let copied: string | null = null;
/** One build per test file, copied where nothing of the repo is above it. */
function copiedDist(): string {
  if (!copied) {
    const built = join(tmpDataDir('satstation-bench-build-'), 'dist');
    execFileSync(process.execPath, ['build.mjs', '--out', built], { cwd: root, stdio: 'pipe' });
    copied = join(tmpDataDir('satstation-bench-copy-'), 'dist');
    cpSync(built, copied, { recursive: true });
  }
  return copied;
}

describe('dist/bench.mjs from a copied artifact', () => {
  let dist: string;
  let first: { code: number | null; out: string };
  let report: any;

  before(() => {
    dist = copiedDist();
    // Cheap suites that still cover a child process (APRS codec: bench.mjs --child) and the
    // server beside it (orbit: boots of server.cjs with a persisted pass table).
    first = run(dist, ['--quick', 'core', 'codec', 'orbit', '--json', 'out.json']);
    report = JSON.parse(readFileSync(join(dist, 'out.json'), 'utf8'));
  });

  it('runs with nothing of the repo above it', () => {
    for (let d = dist; d !== dirname(d); d = dirname(d)) assert.ok(!existsSync(join(d, 'node_modules')), `node_modules above the copy at ${d}`);
    assert.ok(existsSync(join(dist, 'bench-data', 'active.tle.br')));
    assert.ok(existsSync(join(dist, 'bench-data', 'amateur.tle')));
    // 0: every budget met, 1: some missed (a busy machine); never a crash or a failed suite.
    assert.ok(first.code === 0 || first.code === 1, `exit ${first.code}:\n${first.out}`);
    assert.doesNotMatch(first.out, /FAILED|ERROR/, first.out);
  });

  it('prints the machine, the budgets in force, each table and the wall time', () => {
    const o = first.out;
    assert.match(o, /^# satstation bench · quick profile · .*bench\.mjs \(satstation [\w.-]+, built for \w+\)$/m);
    assert.match(o, /^machine: .+, \d+ cores? .*· RAM \d+ MiB$/m);
    assert.match(o, new RegExp(`^runtime: Node ${process.version.replace(/\./g, '\\.')} · ${process.arch} · `, 'm'));
    assert.match(o, /^memory: a page written for the first time costs [\d.]+ µs more than again/m);
    assert.match(o, /^budgets: (dev machine|Pi Zero 2 W)/m);
    assert.match(o, /^## foundation: router and state store$/m);
    assert.match(o, /^\| router dispatch \(per request\) \| [\d.]+ µs \| ≤ [\d.]+ µs \| (ok|OVER)/m);
    // The child process (bench.mjs --child aprs codec) under the unit's flags, embedded at build time.
    assert.match(o, /^\| decoder load \+ 10k decodes: heap added \| -?[\d.e-]+ MiB .*--max-old-space-size=96/m);
    // server.cjs beside bench.mjs, booted with its pass table on disk.
    assert.match(o, /^\| boot to \/health with a persisted pass table \| [\d.]+ ms .*table loaded from disk/m);
    // The longest sections are skipped with a reason, not failed.
    assert.match(o, /\| – \| – \| skipped: --quick leaves out the 16k-satellite table/);
    assert.match(o, /^total wall time [\d.]+ s$/m);
  });

  it('--json writes the machine, the profile and every line with its budget and verdict', () => {
    assert.equal(report.profile, 'quick');
    assert.ok(!Number.isNaN(Date.parse(report.date)));
    for (const k of ['cpu', 'os', 'kernel', 'node', 'arch']) assert.equal(typeof report.machine[k], 'string', k);
    assert.equal(report.machine.node, process.version);
    assert.ok(report.machine.cores >= 1 && report.machine.ram_mib > 0);
    assert.ok(Number.isFinite(report.machine.first_touch_us) && report.machine.first_touch_us >= 0);
    assert.ok(['dev', 'pi'].includes(report.target.name));
    assert.deepEqual(
      report.suites.map((s: any) => s.name),
      ['foundation: router and state store', 'orbit engine: passes, live samples, server', 'CI-V codec', 'APRS codec'],
    );
    for (const s of report.suites) {
      assert.equal(s.error, undefined);
      assert.ok(s.lines.length > 0, s.name);
      for (const l of s.lines) {
        assert.equal(typeof l.name, 'string');
        assert.ok(Number.isFinite(l.value), `${l.name}: ${l.value}`);
        assert.equal(typeof l.unit, 'string');
        assert.ok(Number.isFinite(l.budget));
        assert.ok(l.kind === 'max' || l.kind === 'min');
        assert.equal(typeof l.ok, 'boolean');
      }
    }
    const orbit = report.suites[1];
    assert.ok(orbit.skipped.some((x: any) => /16k/.test(x.name) && /--quick/.test(x.reason)));
  });

  it('--compare prints new/old for each measurement in both runs', () => {
    const again = run(dist, ['--quick', 'core', '--compare', 'out.json']);
    assert.ok(again.code === 0 || again.code === 1, again.out);
    assert.match(again.out, /^## compare: this run ÷ out\.json$/m);
    assert.match(again.out, /^\| foundation: router and state store · router dispatch \(per request\) \| [\d.]+ µs \| [\d.]+ µs \| \d+\.\d\d \|/m);
    assert.match(again.out, /^3 measurements in both runs; durations: geometric mean new\/old \d+\.\d\d over 3$/m);
    // Two files, nothing run: every ratio is 1.
    const files = run(dist, ['--compare', 'out.json', '--to', 'out.json']);
    assert.equal(files.code, 0, files.out);
    assert.doesNotMatch(files.out, /^# satstation bench/m);
    assert.match(files.out, /\| 1\.00 \|/);
  });
});

// The Pi-speed run caps the server with a CPU quota: systemd-run --scope, or cgroup directories as root.
// On arm the bench takes the CPU to be the Pi's own and caps nothing.
const capSkip = process.arch.startsWith('arm')
  ? 'on arm the Pi-speed run caps nothing'
  : process.getuid?.() === 0 || existsSync('/run/systemd/system')
    ? false
    : 'a CPU quota needs root or systemd (the bench prints skipped: there)';

describe('dist/bench.mjs --pi-speed from a copied artifact', { skip: capSkip }, () => {
  let dist: string;
  let r: { code: number | null; out: string };

  before(() => {
    dist = copiedDist();
    // --target pi: the Pi-speed figures already are the Pi's, so their budgets must not be ×10 again.
    r = run(dist, ['--pi-speed', '--quick', '--target', 'pi', '--json', 'pi.json'], 300_000);
  });

  it('runs only the Pi-speed suite, the server capped, every figure beside the Pi budget as written', () => {
    assert.ok(r.code === 0 || r.code === 1, `exit ${r.code}:\n${r.out}`);
    const report = JSON.parse(readFileSync(join(dist, 'pi.json'), 'utf8'));
    assert.doesNotMatch(r.out, /FAILED|ERROR/, r.out);
    assert.deepEqual(report.suites.map((s: any) => s.name), ['Pi speed: the server at a tenth of one CPU']);
    assert.equal(report.target.name, 'pi');
    const [suite] = report.suites;
    assert.deepEqual(suite.skipped, [], JSON.stringify(suite.skipped));
    const budgets = Object.fromEntries(suite.lines.map((l: any) => [l.name.replace(/ \(\d+ passes\)/, ''), [l.budget, l.unit]]));
    assert.deepEqual(budgets, {
      'boot to /health with a persisted pass table': [1500, 'ms'],
      'boot to /health without the code cache (the first after an install or upgrade)': [1500, 'ms'],
      'lite snapshot, cache miss over HTTP, p99': [40, 'ms'],
      'lite snapshot, cache hit over HTTP, p99': [20, 'ms'],
      '/passes 48 h, repeated': [300, 'ms'],
      '/passes 48 h, first after boot': [300, 'ms'],
      'radio pair apply (POST /radio/pair), IC-705 simulator at 115200 baud': [1500, 'ms'],
      '/lite first useful frame, Chromium at 6× throttling, 480×320': [2000, 'ms'],
      '/lite API requests per minute once loaded (Chromium at 6× throttling, server at Pi speed)': [0, 'req/min'],
      "lite snapshot p99 under the lite screen's real load": [20, 'ms'],
      '48 h table speed-up over the plain satellite.js baseline, same process, at a tenth of one core': [12, '×'],
      'longest event-loop block in the server while serving the above': [100, 'ms'],
    });
    // Every figure measured; a count of requests may rightly be none.
    for (const l of suite.lines) assert.ok(Number.isFinite(l.value) && (l.unit === 'req/min' ? l.value >= 0 : l.value > 0), `${l.name}: ${l.value}`);
    // The cap was in force: the note names the cgroup or scope and says how often it throttled.
    assert.match(r.out, /^\| boot to \/health with a persisted pass table \| [\d.]+ ms \| ≤ 1500 ms \| (ok|OVER) · one boot; table loaded from disk; from the code cache; (cgroup v[12]|systemd-run)/m);
    assert.match(r.out, /throttled [1-9]\d* of \d+ periods/);
  });
});
