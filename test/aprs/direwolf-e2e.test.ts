import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { direwolfLaunch } from '../../src/aprs/tnc/direwolf-config.js';
import { TncProcess } from '../../src/aprs/tnc/tnc-process.js';
import { resolveTncBinary } from '../../src/aprs/tnc/tnc-binary.js';
import { PtyKissConnection } from '../../src/aprs/kiss/kiss-connection.js';
import type { KissFrame } from '../../src/aprs/codec/kiss.js';
import { systemClock } from '../../src/util/clock.js';
import { setLogLevel } from '../../src/util/logger.js';

setLogLevel('silent');

// The real Dire Wolf, end to end, with no sound card: two instances started through our
// TncProcess with our generated configuration.
//   TX: ADEVICE stdin satloop. `satloop` is an ALSA PCM from an .asoundrc in a temp HOME:
//       type file, slave "null", writing the raw samples (S16_LE, mono, 44100 Hz: Dire Wolf's
//       defaults) to a FIFO. Its own receive side reads a stdin pipe we hold open and never write.
//   RX: ADEVICE stdin null, with that FIFO as its standard input: it demodulates the TX audio.
// We send AX.25 frames into TX's KISS pseudo-terminal and expect them back, byte for byte, out of
// RX's. While both run, nothing of theirs listens on any TCP/UDP address (AGWPORT 0, KISSPORT 0).

const direwolf = resolveTncBinary('direwolf');
const required = process.env.REQUIRE_DIREWOLF === '1';
const skip = !direwolf.installed && !required ? 'direwolf is not on PATH (apt-get install direwolf); set REQUIRE_DIREWOLF=1 to make this a failure' : false;

const addr = (call: string, ssid: number, last: boolean) => [...call.padEnd(6, ' ')].map((c) => c.charCodeAt(0) << 1).concat(0x60 | (ssid << 1) | (last ? 1 : 0));
const header = [...addr('APZ001', 0, false), ...addr('N0CALL', 7, true), 0x03, 0xf0];
/** An APRS message, N0CALL-7 to N0CALL: `N0CALL-7>APZ001::N0CALL   :hello from satstation{1`. */
const MESSAGE = Uint8Array.from([...header, ...Buffer.from(':N0CALL   :hello from satstation{1')]);
const MESSAGE_TNC2 = 'N0CALL-7>APZ001::N0CALL   :hello from satstation{1';
/** A status whose info holds the KISS special bytes, so both KISS hops escape them. */
const ESCAPES = Uint8Array.from([...header, ...Buffer.from('>kiss '), 0xc0, 0xdb, 0xdc, 0xdd]);

async function until(cond: () => boolean, ms: number, what: () => string): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out: ${what()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Socket inodes among a process's open files. */
function socketInodes(pid: number): Set<string> {
  const out = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) out.add(m[1]);
    } catch {
      /* closed meanwhile */
    }
  }
  return out;
}

interface ProcSocket {
  proto: string;
  local: string;
  state: string;
  inode: string;
}
/** The TCP and UDP sockets of the process's network namespace. */
function procSockets(pid: number): ProcSocket[] {
  const out: ProcSocket[] = [];
  for (const proto of ['tcp', 'tcp6', 'udp', 'udp6']) {
    let text = '';
    try {
      text = readFileSync(`/proc/${pid}/net/${proto}`, 'utf8');
    } catch {
      continue; // no IPv6 in this kernel
    }
    for (const line of text.trim().split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      out.push({ proto, local: f[1], state: f[3], inode: f[9] });
    }
  }
  return out;
}

/** TCP LISTEN (0A) sockets, and any UDP socket (a bound UDP socket receives from anyone). */
const listening = (s: ProcSocket) => (s.proto.startsWith('tcp') ? s.state === '0A' : true);

function externalAddresses(): string[] {
  const out: string[] = [];
  for (const [name, list] of Object.entries(networkInterfaces())) {
    for (const a of list ?? []) {
      if (a.internal) continue;
      out.push(a.family === 'IPv6' && a.scopeid ? `${a.address}%${name}` : a.address);
    }
  }
  return out;
}

function tryConnect(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const s = connect({ host, port });
    const t = setTimeout(() => {
      s.destroy();
      resolve('timeout');
    }, 2000);
    s.once('connect', () => {
      clearTimeout(t);
      s.destroy();
      resolve('connected');
    });
    s.once('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(t);
      resolve(e.code ?? e.message);
    });
  });
}

describe('Dire Wolf end to end (real binary, audio looped through an ALSA file PCM)', { skip }, () => {
  let dir = '';
  let fifoFd = -1;
  let tx: TncProcess;
  let rx: TncProcess;
  let txLink: PtyKissConnection;
  let rxLink: PtyKissConnection;
  const rxFrames: KissFrame[] = [];
  /** Ports 8000/8001 on external addresses that some other program had open before we began. */
  const busyBefore = new Set<string>();

  before(async () => {
    assert.ok(direwolf.installed, 'REQUIRE_DIREWOLF=1 but direwolf is not on PATH');
    for (const host of externalAddresses()) for (const port of [8000, 8001]) if ((await tryConnect(host, port)) === 'connected') busyBefore.add(`${host} ${port}`);
    dir = mkdtempSync(join(tmpdir(), 'satstation-dw-'));
    const fifo = join(dir, 'air.fifo');
    const mk = spawnSync('mkfifo', [fifo]);
    assert.equal(mk.status, 0, `mkfifo: ${mk.stderr}`);
    // O_RDWR: never blocks, and the FIFO never reports end-of-file to RX while we hold it.
    fifoFd = openSync(fifo, 'r+');
    writeFileSync(join(dir, '.asoundrc'), `pcm.satloop {\n  type file\n  slave.pcm "null"\n  file "${fifo}"\n  format "raw"\n}\n`);

    const rxConf = join(dir, 'rx.conf');
    const rl = direwolfLaunch({ mycall: 'N0CALL', audioIn: '', audioOut: 'null', ptt: { kind: 'none' }, configPath: rxConf, audioFromStdin: true });
    rx = new TncProcess({ binary: direwolf.resolvedBinary, args: rl.args, configPath: rxConf, configText: rl.configText, clock: systemClock, stdin: fifoFd });
    const txConf = join(dir, 'tx.conf');
    const tl = direwolfLaunch({ mycall: 'N0CALL-7', audioIn: '', audioOut: 'satloop', ptt: { kind: 'none' }, configPath: txConf, audioFromStdin: true });
    tx = new TncProcess({
      binary: direwolf.resolvedBinary,
      args: tl.args,
      configPath: txConf,
      configText: tl.configText,
      clock: systemClock,
      stdin: 'hold',
      env: { ...process.env, HOME: dir, XDG_CONFIG_HOME: join(dir, '.config') },
    });
    assert.equal((await rx.start()).ok, true);
    const rxPty = await rx.waitForPty(10_000);
    assert.ok(rxPty, `RX never announced its pty:\n${rx.status().output_tail.join('\n')}`);
    assert.equal((await tx.start()).ok, true);
    const txPty = await tx.waitForPty(10_000);
    assert.ok(txPty, `TX never announced its pty:\n${tx.status().output_tail.join('\n')}`);
    rxLink = new PtyKissConnection(rxPty);
    rxLink.onFrame((f) => rxFrames.push(f));
    txLink = new PtyKissConnection(txPty);
    assert.deepEqual(await rxLink.open(), { ok: true });
    assert.deepEqual(await txLink.open(), { ok: true });
  });

  after(async () => {
    await txLink?.close();
    await rxLink?.close();
    await tx?.stop();
    await rx?.stop();
    if (fifoFd >= 0) closeSync(fifoFd);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('started both with our config: PTT none, network servers disabled', () => {
    for (const p of [tx, rx]) {
      const tail = p.status().output_tail;
      assert.ok(tail.includes('Disabled AGW network client port.'), tail.join('\n'));
      assert.ok(tail.includes('Disabled KISS network client port.'), tail.join('\n'));
      assert.ok(tail.some((l) => l.startsWith('Virtual KISS TNC is available on /dev/pts/')));
    }
    assert.ok(tx.status().output_tail.includes('Audio out device for transmit: satloop  (channel 0)'), tx.status().output_tail.join('\n'));
  });

  it('transmits a frame from our KISS link and decodes it back, byte for byte, on the receiver', async () => {
    assert.equal(txLink.send(MESSAGE), true);
    await until(() => rxFrames.length >= 1, 20_000, () => `no frame decoded.\nTX:\n${tx.status().output_tail.join('\n')}\nRX:\n${rx.status().output_tail.join('\n')}`);
    assert.equal(rxFrames[0].port, 0);
    assert.equal(rxFrames[0].command, 0);
    assert.deepEqual(Buffer.from(rxFrames[0].data).toString('hex'), Buffer.from(MESSAGE).toString('hex'));
    // Dire Wolf's own monitor line has the same TNC2 text
    await until(() => rx.status().output_tail.some((l) => l.endsWith(MESSAGE_TNC2)), 5000, () => rx.status().output_tail.join('\n'));
    assert.ok(tx.status().output_tail.some((l) => l.endsWith(MESSAGE_TNC2)), tx.status().output_tail.join('\n'));

    assert.equal(txLink.send(ESCAPES), true);
    await until(() => rxFrames.length >= 2, 20_000, () => `second frame not decoded.\nRX:\n${rx.status().output_tail.join('\n')}`);
    assert.deepEqual(Buffer.from(rxFrames[1].data).toString('hex'), Buffer.from(ESCAPES).toString('hex'));
    assert.equal(rxLink.stats().badEscapes, 0);
  });

  it('listens on nothing: no TCP listener or UDP socket of either Dire Wolf on any address', async () => {
    for (const [name, p] of [
      ['TX', tx],
      ['RX', rx],
    ] as const) {
      const pid = p.status().pid;
      assert.ok(pid, `${name} is not running`);
      const mine = socketInodes(pid);
      const open = procSockets(pid).filter((s) => mine.has(s.inode) && listening(s));
      assert.deepEqual(open, [], `${name} (pid ${pid}) has listening sockets`);
      // and, whoever owns them, nothing at all on 8000/8001 that is a Dire Wolf's
      const onDefaults = procSockets(pid).filter((s) => listening(s) && /:(1F40|1F41)$/.test(s.local) && mine.has(s.inode));
      assert.deepEqual(onDefaults, []);
    }
    const tried: string[] = [];
    for (const host of externalAddresses()) {
      for (const port of [8000, 8001]) {
        if (busyBefore.has(`${host} ${port}`)) continue; // someone else's, there before Dire Wolf
        const r = await tryConnect(host, port);
        tried.push(`${host}:${port} ${r}`);
        assert.notEqual(r, 'connected', `${host}:${port} accepted a connection`);
      }
    }
    assert.ok(tried.every((t) => / (ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL|EINVAL|timeout)$/.test(t)), tried.join('\n'));
  });
});
