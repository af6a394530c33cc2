import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { TncProcess, TAIL_LINES, TAIL_LINE_CHARS, type TncProcessOptions } from '../../src/aprs/tnc/tnc-process.js';
import { direwolfLaunch } from '../../src/aprs/tnc/direwolf-config.js';
import { resolveTncBinary, installTnc, installInTerminal } from '../../src/aprs/tnc/tnc-binary.js';
import { FixedClock, systemClock } from '../../src/util/clock.js';
import { setLogLevel, setLogSink } from '../../src/util/logger.js';

setLogLevel('silent');

// A stand-in TNC: prints what Dire Wolf prints at start, then behaves as the mode says.
const FAKE = `
const mode = process.argv[2] ?? 'stay';
const log = (s) => process.stdout.write(s + '\\n');
// Handlers first, as Dire Wolf installs its SIGINT handler long before it announces the pty.
if (mode === 'deaf') process.on('SIGINT', () => log('ignoring SIGINT'));
// Dire Wolf 1.6: its SIGINT handler often ends in a segmentation fault.
else if (mode === 'segv') process.on('SIGINT', () => { log('QRT'); process.kill(process.pid, 'SIGSEGV'); });
else process.on('SIGINT', () => { log(''); log('QRT'); process.exit(0); });
log('Dire Wolf version 1.6');
if (mode === 'noconfig') { log('ERROR - Could not open config file /nope'); setInterval(() => {}, 1000); }
else {
  if (mode === 'noptt') log('Note: PTT not configured for channel 0. (Ignore this if using VOX.)');
  if (mode === 'chatty') {
    for (let i = 0; i < 120; i++) log('line ' + i + ' ' + (i % 10 === 0 ? 'x'.repeat(1000) : ''));
    process.stderr.write('\\x1b[31mcoloured error\\x1b[0m\\r\\n');
    process.stdout.write('y'.repeat(100000) + '\\n');
  }
  log('Virtual KISS TNC is available on /dev/pts/77');
  log('Created symlink /tmp/kisstnc -> /dev/pts/77');
  if (mode === 'die') setTimeout(() => process.exit(3), 20);
  else setInterval(() => {}, 1000);
}
`;

let dir = '';
let script = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'satstation-tnc-'));
  script = join(dir, 'fake-tnc.mjs');
  writeFileSync(script, FAKE);
});
after(() => rmSync(dir, { recursive: true, force: true }));

const procs: TncProcess[] = [];
after(() => {
  for (const p of procs) p.kill();
});

function make(mode: string, clock = new FixedClock(Date.parse('2025-01-01T00:00:00Z')), extra: Partial<TncProcessOptions> = {}) {
  const p = new TncProcess({
    binary: process.execPath,
    args: [script, mode],
    configPath: join(dir, `dw-${mode}.conf`),
    configText: 'AGWPORT 0\nKISSPORT 0\n',
    clock,
    restart: { base_ms: 1000, max_ms: 4000, stable_ms: 30_000 },
    ...extra,
  });
  procs.push(p);
  return { p, clock };
}

async function until(cond: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('TncProcess with a fake TNC', () => {
  it('writes the config first, starts, and reports the pseudo-terminal', async () => {
    const { p } = make('stay');
    const seen: Array<string | null> = [];
    p.onPty((x) => seen.push(x));
    const r = await p.start();
    assert.equal(r.ok, true);
    assert.equal(readFileSync(join(dir, 'dw-stay.conf'), 'utf8'), 'AGWPORT 0\nKISSPORT 0\n');
    assert.deepEqual(readdirSync(dir).filter((n) => n.endsWith('.tmp')), []);
    assert.equal(await p.waitForPty(5000), '/dev/pts/77');
    const s = p.status();
    assert.equal(s.running, true);
    assert.ok(s.pid && s.pid > 0);
    assert.equal(s.pty_path, '/dev/pts/77');
    assert.deepEqual(s.command, [process.execPath, script, 'stay']);
    assert.deepEqual(seen, ['/dev/pts/77']);
    await p.stop();
    assert.deepEqual(seen, ['/dev/pts/77', null]);
    assert.equal(p.status().pty_path, null);
  });

  it('keeps only the last 50 lines, each at most 200 characters, without colour codes', async () => {
    const { p } = make('chatty');
    await p.start();
    await p.waitForPty(5000);
    await until(() => ['coloured error', 'Created symlink /tmp/kisstnc -> /dev/pts/77'].every((x) => p.status().output_tail.includes(x)), 5000, 'output');
    const tail = p.status().output_tail;
    assert.equal(tail.length, TAIL_LINES);
    assert.ok(tail.every((l) => l.length <= TAIL_LINE_CHARS), 'a line over the cap');
    assert.ok(tail.includes('coloured error'));
    assert.ok(tail.includes('y'.repeat(TAIL_LINE_CHARS)));
    await p.stop();
  });

  it('restarts a TNC that dies, with capped backoff on the clock, and stops restarting on stop()', async () => {
    const { p, clock } = make('die');
    const exits: string[] = [];
    p.onExit((d) => exits.push(d));
    await p.start();
    const delays = [1000, 2000, 4000, 4000];
    for (let i = 0; i < delays.length; i++) {
      await until(() => exits.length === i + 1, 5000, `exit ${i + 1}`);
      const s = p.status();
      assert.equal(s.running, false);
      assert.match(s.last_exit ?? '', /^exited with code 3 at /);
      assert.equal(s.last_error, `${process.execPath} exited with code 3`);
      assert.equal(clock.pendingTimers, 1, 'one restart timer');
      clock.advance(delays[i] - 1);
      await new Promise((r) => setTimeout(r, 30));
      assert.equal(p.status().restarts, i, `not yet restarted after ${delays[i] - 1} ms`);
      clock.advance(1);
      assert.equal(p.status().restarts, i + 1);
    }
    await until(() => exits.length === 5, 5000, 'exit 5');
    await p.stop();
    assert.equal(clock.pendingTimers, 0, 'stop() cancels the restart');
    clock.advance(60_000);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(p.status().running, false);
    assert.equal(p.status().restarts, 4);
  });

  it('stop() sends SIGINT (Dire Wolf drops PTT on it) and waits for the exit', async () => {
    const { p, clock } = make('stay');
    await p.start();
    await p.waitForPty(5000);
    await p.stop();
    const s = p.status();
    assert.equal(s.running, false);
    assert.equal(s.pid, null);
    assert.match(s.last_exit ?? '', /^exited with code 0/);
    assert.ok(s.output_tail.includes('QRT'));
    assert.equal(s.last_error, null);
    assert.equal(clock.pendingTimers, 0);
  });

  it('a TNC whose SIGINT handler crashes (Dire Wolf 1.6) has stopped as asked: no crash in the output, the status or the log', async () => {
    const lines: string[] = [];
    setLogSink((l) => lines.push(l));
    setLogLevel('info');
    try {
      const { p } = make('segv');
      await p.start();
      await p.waitForPty(5000);
      await p.stop();
      const s = p.status();
      assert.match(s.last_exit ?? '', /^stopped at /);
      assert.equal(s.last_error, null);
      assert.equal(s.diagnosis, null);
      assert.equal(s.state, 'stopped');
      assert.ok(s.output_tail.includes(`--- ${process.execPath} stopped ---`), s.output_tail.join(' | '));
      assert.equal(s.output_tail.filter((l) => /SIGSEGV|killed/.test(l)).length, 0, 'the crash is not in the output');
      const said = lines.filter((l) => l.includes('[aprs:tnc]') && !l.includes(' started '));
      assert.equal(said.length, 1, said.join('\n'));
      assert.match(said[0], /INFO .* stopped \(its SIGINT handler ended in SIGSEGV, as Dire Wolf 1\.6's does\)$/);
    } finally {
      setLogLevel('silent');
    }
  });

  it('stop() escalates to SIGKILL after the grace when SIGINT is ignored', async () => {
    const { p, clock } = make('deaf', undefined, { stopGraceMs: 3000 });
    await p.start();
    await p.waitForPty(5000);
    let stopped = false;
    const done = p.stop().then(() => (stopped = true));
    await until(() => p.status().output_tail.includes('ignoring SIGINT'), 5000, 'SIGINT');
    clock.advance(2999);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(stopped, false);
    clock.advance(1);
    await done;
    assert.match(p.status().last_exit ?? '', /^killed by SIGKILL/);
  });

  it('kill() is the emergency stop: SIGINT at once, SIGKILL 250 ms later, no restart', async () => {
    const { p, clock } = make('deaf');
    await p.start();
    await p.waitForPty(5000);
    p.kill();
    await until(() => p.status().output_tail.includes('ignoring SIGINT'), 5000, 'SIGINT');
    assert.equal(p.wanted, false);
    clock.advance(250);
    await until(() => !p.status().running, 5000, 'exit');
    assert.match(p.status().last_exit ?? '', /^killed by SIGKILL/);
    assert.equal(clock.pendingTimers, 0);
    // a TNC that honours SIGINT goes at once
    const b = make('stay');
    await b.p.start();
    await b.p.waitForPty(5000);
    b.p.kill();
    await until(() => !b.p.status().running, 5000, 'exit');
    assert.match(b.p.status().last_exit ?? '', /^exited with code 0/);
  });

  it('answers a missing program with an error and keeps retrying while wanted', async () => {
    const { p, clock } = make('stay', undefined, { binary: join(dir, 'no-such-direwolf') });
    const r = await p.start();
    assert.deepEqual(r, { ok: false, error: `cannot start ${join(dir, 'no-such-direwolf')}: ENOENT` });
    assert.equal(p.status().last_error, r.ok ? null : r.error);
    assert.equal(clock.pendingTimers, 1);
    clock.advance(1000);
    await until(() => p.status().restarts === 1 && clock.pendingTimers === 1, 5000, 'retry');
    await p.stop();
    assert.equal(clock.pendingTimers, 0);
  });

  it('never starts the program when the config cannot be written', async () => {
    writeFileSync(join(dir, 'a-file'), '');
    const { p } = make('stay', undefined, { configPath: join(dir, 'a-file', 'dw.conf') }); // ENOTDIR
    const r = await p.start();
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.error, /cannot write the TNC configuration/);
    assert.equal(p.status().pid, null);
    await p.stop();
  });

  it('kills a TNC that says it could not read its config (it would run on open network defaults)', async () => {
    const { p } = make('noconfig');
    await p.start();
    await until(() => !p.status().running, 5000, 'kill');
    assert.match(p.status().last_exit ?? '', /killed by SIGKILL/);
    assert.match(p.status().last_error ?? '', /could not read its configuration/);
    await p.stop();
  });

  it('flags a TNC that says it has no PTT, without calling the note an error', async () => {
    const { p } = make('noptt');
    await p.start();
    await p.waitForPty(5000);
    assert.equal(p.status().ptt_unavailable, true);
    // Right for VOX and for the Wi-Fi decode-only receiver: a healthy station shows no error.
    assert.equal(p.status().last_error, null);
    assert.equal(p.status().state, 'running');
    await p.stop();
  });
});

const direwolf = resolveTncBinary('direwolf');
describe('TncProcess with the real Dire Wolf', { skip: !direwolf.installed && process.env.REQUIRE_DIREWOLF !== '1' ? 'direwolf is not installed (apt-get install direwolf)' : false }, () => {
  it('finds the pseudo-terminal Dire Wolf announces, and stops it with SIGINT', async () => {
    assert.ok(direwolf.installed, 'REQUIRE_DIREWOLF=1 but direwolf is not on PATH');
    const configPath = join(dir, 'real.conf');
    const l = direwolfLaunch({ mycall: 'N0CALL', audioIn: '', audioOut: 'null', ptt: { kind: 'none' }, configPath, audioFromStdin: true });
    const p = new TncProcess({ binary: direwolf.resolvedBinary, args: l.args, configPath, configText: l.configText, clock: systemClock, stdin: 'hold' });
    procs.push(p);
    const r = await p.start();
    assert.equal(r.ok, true);
    const pty = await p.waitForPty(10_000);
    assert.match(pty ?? '', /^\/dev\/pts\/\d+$/, p.status().output_tail.join('\n'));
    assert.ok(existsSync(pty!));
    const tail = p.status().output_tail;
    assert.ok(tail.includes('Disabled AGW network client port.'), tail.join('\n'));
    assert.ok(tail.includes('Disabled KISS network client port.'), tail.join('\n'));
    await p.stop();
    const s = p.status();
    assert.equal(s.running, false);
    assert.ok(s.output_tail.includes('QRT'), s.output_tail.join('\n'));
    assert.match(s.last_exit ?? '', /^exited with code 0/);
  });
});


describe('TNC binary: resolve and install', () => {
  let bin = '';
  const exe = (name: string, body: string) => {
    const p = join(bin, name);
    writeFileSync(p, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
    return p;
  };
  before(() => {
    bin = mkdtempSync(join(tmpdir(), 'satstation-bin-'));
  });
  after(() => rmSync(bin, { recursive: true, force: true }));

  it('resolves an absolute path by executability and a bare name on PATH', () => {
    const dw = exe('direwolf', 'exit 0');
    writeFileSync(join(bin, 'not-exec'), '', { mode: 0o644 });
    assert.deepEqual(resolveTncBinary(dw), { installed: true, configuredBinary: dw, resolvedBinary: dw });
    assert.deepEqual(resolveTncBinary(join(bin, 'not-exec')), { installed: false, configuredBinary: join(bin, 'not-exec'), resolvedBinary: '' });
    assert.deepEqual(resolveTncBinary('direwolf', { PATH: `/nonexistent:relative/dir:${bin}` }), { installed: true, configuredBinary: 'direwolf', resolvedBinary: dw });
    assert.deepEqual(resolveTncBinary('direwolf', { PATH: '/nonexistent' }), { installed: false, configuredBinary: 'direwolf', resolvedBinary: '' });
    assert.equal(resolveTncBinary('', { PATH: bin }).resolvedBinary, dw, 'empty means direwolf');
    assert.equal(resolveTncBinary(bin, { PATH: bin }).installed, false, 'a folder is not a program');
  });

  it('installs through the helper: directly as root, else with sudo -n', async () => {
    const helper = exe('install-helper', 'echo "install-direwolf: starting"; echo "DEBIAN_FRONTEND=$DEBIAN_FRONTEND"; echo "Setting up direwolf"');
    const root = await installTnc({ helper, uid: () => 0 });
    assert.deepEqual(root, { ok: true, output: ['install-direwolf: starting', 'DEBIAN_FRONTEND=noninteractive', 'Setting up direwolf'] });
    const sudo = exe('sudo', `[ "$1" = "-n" ] || { echo "sudo: expected -n" >&2; exit 1; }; shift; echo "sudo ran $*"; exec "$@" </dev/null`);
    const viaSudo = await installTnc({ helper, sudo, uid: () => 1000 });
    assert.deepEqual(viaSudo, { ok: true, output: [`sudo ran ${helper}`, 'install-direwolf: starting', 'DEBIAN_FRONTEND=noninteractive', 'Setting up direwolf'] });
  });

  it('reports a failing installation with its last line', async () => {
    const helper = exe('install-fails', 'echo "install-direwolf: starting"; echo "E: Unable to locate package direwolf" >&2; exit 100');
    const r = await installTnc({ helper, uid: () => 0 });
    assert.equal(r.ok, false);
    assert.equal(r.ok ? '' : r.error, 'installing direwolf failed (exit 100): E: Unable to locate package direwolf');
    assert.deepEqual(r.output, ['install-direwolf: starting', 'E: Unable to locate package direwolf']);
  });

  it('fails clearly, never prompting, when sudo will not run the helper', async () => {
    const helper = exe('install-ok', 'echo "install-direwolf: starting"');
    const refuse = exe('sudo-refuses', 'echo "sudo: a password is required" >&2; exit 1');
    const r = await installTnc({ helper, sudo: refuse, uid: () => 1000 });
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.error, /^no privilege to install: .*satstation-direwolf\.sudoers/);
    assert.deepEqual(r.output, ['sudo: a password is required']);
    const nnp = exe('sudo-nnp', 'echo \'sudo: The "no new privileges" flag is set, which prevents sudo from running as root.\' >&2; exit 1');
    const r2 = await installTnc({ helper, sudo: nnp, uid: () => 1000 });
    assert.match(r2.ok ? '' : r2.error, /NoNewPrivileges/);
    const r3 = await installTnc({ helper, sudo: join(bin, 'no-sudo-here'), uid: () => 1000 });
    assert.match(r3.ok ? '' : r3.error, /^sudo is not installed: no privilege to install/);
    const r4 = await installTnc({ helper: join(bin, 'no-helper'), uid: () => 0 });
    assert.match(r4.ok ? '' : r4.error, /install helper .* is not installed/);
  });

  it('under the sandboxed unit, asks the root one-shot unit and reads its result', async () => {
    // Stand-in for systemd's path unit (the process edge): when the request appears, run the real
    // root-side script deploy/aprs/tnc-install-request with the helper, as the one-shot unit does.
    const script = join(import.meta.dirname, '..', '..', 'deploy', 'aprs', 'tnc-install-request');
    const watch = (dir: string, helper: string) => {
      const t = setInterval(() => {
        if (!existsSync(join(dir, 'request'))) return;
        clearInterval(t);
        execFileSync(script, [dir, helper]);
      }, 20);
      return () => clearInterval(t);
    };
    const dir = join(bin, 'tnc-install');
    const ok = exe('unit-helper-ok', 'echo "install-direwolf: starting"; echo "Setting up direwolf"');
    let stop = watch(dir, ok);
    const r = await installTnc({ uid: () => 1000, requestDir: dir, pollMs: 20 });
    stop();
    assert.deepEqual(r, { ok: true, output: ['install-direwolf: starting', 'Setting up direwolf'] });
    assert.deepEqual(readdirSync(dir).sort(), ['result'], 'the request was taken; nothing left running');
    const fails = exe('unit-helper-fails', 'echo "install-direwolf: starting"; echo "E: Unable to locate package direwolf"; exit 100');
    stop = watch(dir, fails);
    const r2 = await installTnc({ uid: () => 1000, requestDir: dir, pollMs: 20 });
    stop();
    assert.deepEqual(r2.ok ? '' : r2.error, 'installing direwolf failed (exit 100): E: Unable to locate package direwolf');
    const r3 = await installTnc({ uid: () => 1000, requestDir: dir, pollMs: 20, pickupTimeoutMs: 200 });
    assert.match(r3.ok ? '' : r3.error, /^no privilege to install: the root install unit \(satstation-tnc-install\.path\) did not take the request/);
    assert.ok(!existsSync(join(dir, 'request')), 'an unanswered request is withdrawn');
  });

  it('stops an installation that hangs', async () => {
    const helper = exe('install-hangs', 'echo "install-direwolf: starting"; while :; do :; done');
    const r = await installTnc({ helper, uid: () => 0, timeoutMs: 200 });
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.error, /did not finish/);
  });

  it('opens a terminal on a desktop, and says why not otherwise', async () => {
    assert.match((installInTerminal({ env: { PATH: bin } }) as { error: string }).error, /^no desktop session: neither DISPLAY nor WAYLAND_DISPLAY/);
    assert.match((installInTerminal({ env: { PATH: '/nonexistent', DISPLAY: ':0' } }) as { error: string }).error, /^no desktop session: no terminal emulator found/);
    const argsFile = join(bin, 'terminal-args');
    exe('x-terminal-emulator', `for a in "$@"; do printf '%s\\n' "$a"; done > ${argsFile}`);
    const helper = exe('helper-for-terminal', 'exit 0');
    const r = installInTerminal({ env: { PATH: bin, WAYLAND_DISPLAY: 'wayland-0' }, helper });
    assert.deepEqual(r, { ok: true, terminal: join(bin, 'x-terminal-emulator') });
    await until(() => existsSync(argsFile) && readFileSync(argsFile, 'utf8').length > 0, 3000, 'terminal');
    assert.deepEqual(readFileSync(argsFile, 'utf8').trim().split('\n'), ['-e', 'sh', '-c', `sudo '${helper}'; echo; echo 'Press Enter to close this window.'; read _`]);
  });
});
