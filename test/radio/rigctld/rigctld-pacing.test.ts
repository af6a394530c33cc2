import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { FixedClock } from '../../../src/util/clock.js';
import { connectRigctld, type RigctldClient } from '../../../src/radio/rigctld/rigctld-client.js';
import { RigctldClosed, RigctldGarbled, RigctldTimeout } from '../../../src/radio/rigctld/rigctld-errors.js';

// The client's queue and its faults, against a scripted rigctld on loopback (the process edge):
// the test decides when each reply comes, so slow CAT is a daemon that answers one command while
// the tracking loop asks for three, and reply timeouts run on a fixed clock.

const VFOB = 0x2;
const MAIN_SUB = (1 << 25) | (1 << 26);
const dump = (vfos: number) =>
  `1\n1\n0\n100000.000000 500000000.000000 0x2e 5000 100000 0x${vfos.toString(16)} 0x1\n0 0 0 0 0 0 0\n` +
  `100000.000000 500000000.000000 0x2e 5000 100000 0x${vfos.toString(16)} 0x1\n0 0 0 0 0 0 0\n0x2e 1\n0 0\n0x2e 2400\n0 0\n` +
  `0\n0\n0\n0\n\n\n0x0\n0x0\n0x0\n0x0\n0x0\n0x0\nptt_type=0x1\ndone\n`;

/** A rigctld that answers the opening itself and holds every later line until the test replies. */
class ScriptedRigctld {
  readonly lines: string[] = [];
  private server!: Server;
  private sock: Socket | null = null;
  port = 0;
  constructor(
    private readonly vfos = VFOB,
    /** What it answers to \chk_vfo and to the opening's S. */
    private readonly opening = { chkVfo: '0\n', split: 'RPRT 0\n' },
  ) {}

  async start(): Promise<void> {
    this.server = createServer((sock) => {
      this.sock = sock;
      let buf = '';
      sock.setEncoding('utf8').on('data', (d: string) => {
        buf += d;
        for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          this.lines.push(line);
          if (line === '\\chk_vfo') sock.write(this.opening.chkVfo);
          else if (line === '\\dump_state') sock.write(dump(this.vfos));
          else if (this.lines.length === 3) sock.write(this.opening.split);
        }
      });
      sock.on('error', () => {});
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as { port: number }).port;
  }

  reply(text: string): void {
    this.sock!.write(text);
  }

  /** Lines after the opening three. */
  get commands(): string[] {
    return this.lines.slice(3);
  }

  async waitCommands(n: number): Promise<void> {
    for (let i = 0; i < 500 && this.commands.length < n; i++) await new Promise((r) => setTimeout(r, 5));
    assert.ok(this.commands.length >= n, `waited for ${n} commands, got ${JSON.stringify(this.commands)}`);
  }

  async stop(): Promise<void> {
    this.sock?.destroy();
    await new Promise((r) => this.server.close(r));
  }
}

describe('rigctld client queue and faults', () => {
  let daemon: ScriptedRigctld;
  let rig: RigctldClient | null = null;
  const clock = new FixedClock(Date.parse('2026-11-28T12:00:00Z'));
  const open = () => connectRigctld({ host: '127.0.0.1', port: daemon.port, clock, connectMs: 3000, replyMs: 2000 });
  const settle = () => new Promise((r) => setTimeout(r, 20));
  afterEach(async () => {
    await rig?.close();
    rig = null;
    await daemon.stop();
  });

  it('opens with \\chk_vfo, \\dump_state, then split on the sub VFO, before any other command', async () => {
    daemon = new ScriptedRigctld();
    await daemon.start();
    rig = await open();
    assert.deepEqual(daemon.lines, ['\\chk_vfo', '\\dump_state', 'S 1 VFOB']);
    const main = new ScriptedRigctld(MAIN_SUB);
    await main.start();
    const r2 = await connectRigctld({ host: '127.0.0.1', port: main.port, clock, connectMs: 3000, replyMs: 2000 });
    assert.equal(main.lines[2], 'S 1 Sub', 'a Main/Sub rig splits to Sub');
    await r2.close();
    await main.stop();
  });

  it('a daemon that refuses \\chk_vfo has no VFO mode, and a rig that refuses split still opens, saying so', async () => {
    daemon = new ScriptedRigctld(VFOB, { chkVfo: 'RPRT -4\n', split: 'RPRT -11\n' });
    await daemon.start();
    rig = await open();
    assert.deepEqual(daemon.lines, ['\\chk_vfo', '\\dump_state', 'S 1 VFOB']);
    assert.equal(rig.info?.vfoArg, false);
    assert.equal(rig.info?.splitRefused?.code, -11);
    const f = rig.setFreq(145_800_000);
    await daemon.waitCommands(1);
    daemon.reply('RPRT 0\n');
    await f;
  });

  it('paces a tracking loop behind slow CAT: one F in flight, one waiting, the newest value sent', async () => {
    daemon = new ScriptedRigctld();
    await daemon.start();
    rig = await open();
    const done: Promise<void>[] = [];
    // 30 ticks; the daemon answers one command every third tick (≈300 ms a command, 100 ms ticks).
    for (let tick = 0; tick < 30; tick++) {
      done.push(rig.setFreq(145_800_000 + tick * 10));
      await settle();
      if (tick % 3 === 2) {
        daemon.reply('RPRT 0\n');
        await settle();
      }
    }
    await daemon.waitCommands(10);
    daemon.reply('RPRT 0\n'.repeat(2));
    await Promise.all(done);
    const sent = daemon.commands;
    assert.ok(sent.length <= 12, `${sent.length} F lines for 30 ticks: ${JSON.stringify(sent)}`);
    assert.equal(sent.at(-1), 'F 145800290', 'the last value wins');
    assert.ok(rig.stats.replaced >= 18, `replaced ${rig.stats.replaced}`);
  });

  it('PTT off goes ahead of everything waiting', async () => {
    daemon = new ScriptedRigctld();
    await daemon.start();
    rig = await open();
    const all = [rig.setFreq(145_800_000), rig.setMode('FM', 0), rig.setSplitFreq(435_000_000), rig.setPtt(false)];
    await daemon.waitCommands(1);
    for (let i = 0; i < 4; i++) {
      daemon.reply('RPRT 0\n');
      await daemon.waitCommands(Math.min(i + 2, 4));
    }
    await Promise.all(all);
    assert.deepEqual(daemon.commands, ['F 145800000', 'T 0', 'M FM 0', 'I 435000000']);
  });

  it('a reply that does not come times out on the clock, closes the connection once and fails what waits', async () => {
    daemon = new ScriptedRigctld();
    await daemon.start();
    rig = await open();
    const reports: (Error | null)[] = [];
    rig.onClose((e) => reports.push(e));
    const f = rig.freq().catch((e: Error) => e);
    const m = rig.setMode('USB', 0).catch((e: Error) => e);
    await daemon.waitCommands(1);
    clock.advance(1999);
    await settle();
    assert.equal(reports.length, 0);
    clock.advance(1);
    const [fe, me] = await Promise.all([f, m]);
    assert.ok(fe instanceof RigctldTimeout && /get_freq: rigctld did not answer within 2000 ms/.test(fe.message), String(fe));
    assert.ok(me instanceof RigctldClosed, String(me));
    await settle();
    assert.equal(reports.length, 1);
    assert.ok(reports[0] instanceof RigctldTimeout);
    await assert.rejects(rig.ptt(), RigctldClosed);
  });

  it('a line that fits no reply closes the connection as garbled', async () => {
    daemon = new ScriptedRigctld();
    await daemon.start();
    rig = await open();
    const reports: (Error | null)[] = [];
    rig.onClose((e) => reports.push(e));
    const set = rig.setFreq(145_800_000).catch((e: Error) => e);
    await daemon.waitCommands(1);
    daemon.reply('145800000\n');
    const err = await set;
    assert.ok(err instanceof RigctldGarbled, String(err));
    assert.equal(reports.length, 1);
    assert.equal(reports[0], err);
  });
});
