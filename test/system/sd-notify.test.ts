import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SdNotify, type SpawnFn, type TimerClock } from '../../src/system/sd-notify.js';
import { tmpDataDir } from '../helpers/server.js';
import { spawnServer } from '../helpers/spawn-server.js';
import { startReceiver, type NotifyReceiver } from './notify-receiver.js';

const root = join(import.meta.dirname, '..', '..');

/** A spawn double that records argv and lets the test finish each sender. */
function fakeSpawn() {
  const calls: Array<{ cmd: string; args: string[]; env: NodeJS.ProcessEnv; child: EventEmitter }> = [];
  const spawnFn: SpawnFn = (cmd, args, opts) => {
    const child = new EventEmitter();
    calls.push({ cmd, args, env: opts.env, child });
    return child as any;
  };
  const exit = (i: number, code = 0) => calls[i].child.emit('exit', code, null);
  return { calls, spawnFn, exit };
}

function fakeClock() {
  const timers: Array<{ fn: () => void; ms: number; cleared: boolean }> = [];
  const clock: TimerClock = {
    setInterval(fn, ms) {
      const t = { fn, ms, cleared: false };
      timers.push(t);
      return t;
    },
    clearInterval(h) {
      (h as { cleared: boolean }).cleared = true;
    },
  };
  return { timers, clock };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('sd-notify driver (spawn and clock injected)', () => {
  it('is a no-op without NOTIFY_SOCKET: nothing is spawned, no timer', async () => {
    const s = fakeSpawn();
    const c = fakeClock();
    const n = new SdNotify({ env: { WATCHDOG_USEC: '1000000' }, spawn: s.spawnFn, clock: c.clock });
    n.ready('x');
    n.status('y');
    n.startWatchdog();
    n.keepAlive();
    n.stopping();
    await n.flush(10);
    assert.equal(n.enabled, false);
    assert.equal(n.watchdogUsec, 0);
    assert.equal(s.calls.length, 0);
    assert.equal(c.timers.length, 0);
  });

  it('sends READY=1 with a status through systemd-notify, only NOTIFY_SOCKET and PATH in its environment', async () => {
    const s = fakeSpawn();
    const n = new SdNotify({ env: { NOTIFY_SOCKET: '/run/x.sock', PATH: '/usr/bin', SECRET: 'no' }, spawn: s.spawnFn });
    n.ready('listening on\n0.0.0.0:8080');
    assert.equal(s.calls.length, 1);
    assert.equal(s.calls[0].cmd, 'systemd-notify');
    assert.deepEqual(s.calls[0].args, ['--ready', '--status=listening on 0.0.0.0:8080']);
    assert.deepEqual(s.calls[0].env, { NOTIFY_SOCKET: '/run/x.sock', PATH: '/usr/bin' });
    assert.ok(!s.calls[0].args.includes('--no-block'), 'the barrier must close the attribution race');
  });

  it('sends one message at a time, in order, and coalesces keep-alives that wait', async () => {
    const s = fakeSpawn();
    const n = new SdNotify({ env: { NOTIFY_SOCKET: '@sock' }, spawn: s.spawnFn });
    n.ready();
    n.status('a');
    n.keepAlive();
    n.keepAlive(); // one is already waiting: not added
    n.stopping();
    assert.equal(s.calls.length, 1, 'the next waits for the first sender to exit');
    for (let i = 0; i < 3; i++) {
      s.exit(i);
      await tick();
    }
    s.exit(3);
    await n.flush(100);
    assert.deepEqual(
      s.calls.map((c) => c.args.join(' ')),
      ['--ready', '--status=a', 'WATCHDOG=1', 'STOPPING=1'],
    );
    assert.equal(n.stats().sent, 4);
  });

  it('watchdog: WATCHDOG=1 at once and then every WATCHDOG_USEC/2; stopping() ends it', async () => {
    const s = fakeSpawn();
    const c = fakeClock();
    const n = new SdNotify({ env: { NOTIFY_SOCKET: '/s', WATCHDOG_USEC: '60000000', WATCHDOG_PID: '4242' }, pid: 4242, spawn: s.spawnFn, clock: c.clock });
    assert.equal(n.watchdogUsec, 60_000_000);
    assert.equal(n.keepAliveMs, 30_000);
    n.startWatchdog();
    n.startWatchdog(); // idempotent
    assert.equal(c.timers.length, 1);
    assert.equal(c.timers[0].ms, 30_000);
    assert.deepEqual(s.calls[0].args, ['WATCHDOG=1']);
    s.exit(0);
    await new Promise((r) => setImmediate(r)); // the sender is free again once its exit is handled
    c.timers[0].fn();
    assert.deepEqual(s.calls[1].args, ['WATCHDOG=1']);
    n.stopping();
    assert.equal(c.timers[0].cleared, true);
  });

  it('no watchdog when WATCHDOG_PID names another process, or WATCHDOG_USEC is missing or bad', () => {
    const c = fakeClock();
    for (const env of [
      { NOTIFY_SOCKET: '/s', WATCHDOG_USEC: '1000000', WATCHDOG_PID: '1' },
      { NOTIFY_SOCKET: '/s' },
      { NOTIFY_SOCKET: '/s', WATCHDOG_USEC: 'soon' },
      { NOTIFY_SOCKET: '/s', WATCHDOG_USEC: '0' },
    ]) {
      const n = new SdNotify({ env, pid: 4242, spawn: fakeSpawn().spawnFn, clock: c.clock });
      n.startWatchdog();
      assert.equal(n.watchdogUsec, 0, JSON.stringify(env));
    }
    assert.equal(c.timers.length, 0);
  });

  it('unsetEnvironment takes the variables out so children cannot speak for the service', () => {
    const env: NodeJS.ProcessEnv = { NOTIFY_SOCKET: '/s', WATCHDOG_USEC: '1000', WATCHDOG_PID: '7', KEEP: '1' };
    const n = new SdNotify({ env, pid: 7, unsetEnvironment: true, spawn: fakeSpawn().spawnFn });
    assert.equal(n.enabled, true);
    assert.equal(n.watchdogUsec, 1000);
    assert.deepEqual(env, { KEEP: '1' });
  });

  it('never throws: a spawn that throws or fails is counted, warned once, and the queue goes on', async () => {
    let n = 0;
    const throwing: SpawnFn = () => {
      n++;
      throw Object.assign(new Error('spawn EAGAIN'), { code: 'EAGAIN' });
    };
    const a = new SdNotify({ env: { NOTIFY_SOCKET: '/s' }, spawn: throwing });
    a.ready();
    a.status('x');
    await a.flush(100);
    assert.equal(n, 2);
    assert.equal(a.stats().failed, 2);

    const missing = new SdNotify({ env: { NOTIFY_SOCKET: '/s', PATH: '/nonexistent' } }); // the real spawn, ENOENT
    missing.ready();
    missing.keepAlive();
    await missing.flush(2000);
    assert.deepEqual({ ...missing.stats(), keepAlives: 0 }, { sent: 0, failed: 2, keepAlives: 0, queued: 0 });
  });
});

const haveTools = spawnSync('systemd-notify', ['--version']).status === 0 && spawnSync('perl', ['-e', '1']).status === 0;
const skipReal = haveTools ? false : 'systemd-notify or perl not installed';

describe('sd-notify against a real datagram socket', { skip: skipReal }, () => {
  let rx: NotifyReceiver;
  before(async () => {
    rx = await startReceiver();
  });
  after(() => rx?.close());

  it('the server sends READY=1 once it listens, WATCHDOG=1 periodically, STOPPING=1 on SIGTERM, and exits 0', async () => {
    const from = rx.messages.length;
    // Listening is logged before READY=1 is sent, so /health answering first is expected;
    // READY's STATUS names the port it listens on.
    const srv = await spawnServer(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: root,
      env: { NOTIFY_SOCKET: rx.path, WATCHDOG_USEC: '400000', PORT: '0', HOST: '127.0.0.1', DATA_DIR: tmpDataDir(), LOG_LEVEL: 'info' },
      timeoutMs: 30_000,
    });
    try {
      const ready = await rx.waitFor((t) => t.includes('READY=1'), 30_000, from);
      assert.equal(ready.text.match(/STATUS=listening on (127\.0\.0\.1:\d+)/)?.[1], srv.base.replace('http://', ''));
      // Nothing but READY (and its barrier) before it: no keep-alive ahead of start-up.
      assert.ok(!rx.messages.slice(from, rx.messages.indexOf(ready)).some((m) => m.text.includes('WATCHDOG=1')));

      const firstPing = rx.messages.length;
      await new Promise((r) => setTimeout(r, 1500));
      const pings = rx.messages.slice(firstPing).filter((m) => m.text === 'WATCHDOG=1');
      // every 200 ms: ~7 in 1.5 s; a loaded CI machine may lose a few
      assert.ok(pings.length >= 4, `${pings.length} keep-alives in 1.5 s at WATCHDOG_USEC=400000`);

      const stopFrom = rx.messages.length;
      const t0 = performance.now();
      const stopped = srv.stop('SIGTERM');
      const stopping = await rx.waitFor((t) => t.includes('STOPPING=1'), 5000, stopFrom);
      const { code, ms } = await stopped;
      assert.equal(code, 0, srv.output.join('\n'));
      assert.ok(ms < 5000, `stopped in ${ms.toFixed(0)} ms (TimeoutStopSec=15)`);
      assert.ok(stopping.at - t0 < 5000);
      // No keep-alive after STOPPING=1.
      const afterStop = rx.messages.slice(rx.messages.indexOf(stopping) + 1);
      assert.ok(!afterStop.some((m) => m.text === 'WATCHDOG=1'), JSON.stringify(afterStop));
      assert.ok(srv.output.some((l) => l.includes('watchdog keep-alive every 200 ms')));
    } finally {
      if (srv.child.exitCode === null) srv.child.kill('SIGKILL');
    }
  });

  it('a blocked event loop stops the keep-alives; they resume when it is free again', async () => {
    const from = rx.messages.length;
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'blocking-notifier.ts')], {
      cwd: root,
      env: { ...process.env, NOTIFY_SOCKET: rx.path, WATCHDOG_USEC: '200000', BEFORE_MS: '800', BLOCK_MS: '1500', AFTER_MS: '800' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let blockStart = 0;
    let blockEnd = 0;
    child.stdout!.on('data', (b: Buffer) => {
      const s = b.toString();
      if (s.includes('block start')) blockStart = performance.now();
      if (s.includes('block end')) blockEnd = performance.now();
    });
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    assert.equal(code, 0);
    assert.ok(blockStart > 0 && blockEnd > blockStart);
    const pings = rx.messages.slice(from).filter((m) => m.text === 'WATCHDOG=1').map((m) => m.at);
    const beforeBlock = pings.filter((t) => t < blockStart);
    // A sender started just before the block may still land a little after it began.
    const during = pings.filter((t) => t > blockStart + 300 && t < blockEnd);
    const afterBlock = pings.filter((t) => t > blockEnd);
    assert.ok(beforeBlock.length >= 2, `keep-alives before the block: ${beforeBlock.length}`);
    assert.equal(during.length, 0, `no keep-alive while the loop is blocked (${(blockEnd - blockStart).toFixed(0)} ms)`);
    assert.ok(afterBlock.length >= 2, `keep-alives after the block: ${afterBlock.length}`);
    assert.ok(rx.messages.slice(from).some((m) => m.text.includes('STOPPING=1')));
  });
});
