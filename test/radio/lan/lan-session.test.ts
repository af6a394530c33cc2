import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import dgram from 'node:dgram';
import { CivBus } from '../../../src/radio/civ-bus.js';
import { cmd, decode } from '../../../src/radio/civ/commands.js';
import { IcomLanSession, type LanSessionOptions } from '../../../src/radio/lan/lan-session.js';
import { preflight } from '../../../src/radio/lan/preflight.js';
import { FixedClock } from '../../../src/util/clock.js';
import { setLogLevel } from '../../../src/util/logger.js';
import { CivRigSim } from '../../sims/civ-rig.js';
import { IcomLanSim, type IcomLanSimOptions } from '../../sims/icom-lan-sim.js';

// The client against the emulated IC-705 (test/sims/icom-lan-sim.ts, an independent reading of
// the protocol): login, CI-V through the real CivBus, refusals, loss and reordering, token
// renewal, a clean goodbye, a radio that vanishes, and audio both ways.

setLogLevel(process.env.LOG_LEVEL ?? 'silent');

const USER = 'ham';
const PASS = 'station';
const RIG = 0xa4;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
});

async function radio(o: Partial<IcomLanSimOptions> = {}) {
  const rig = new CivRigSim({ kind: 'IC-705' });
  const sim = new IcomLanSim({ rig, username: USER, password: PASS, ...o });
  await sim.start();
  cleanups.push(() => sim.stop());
  return { rig, sim };
}

function session(sim: IcomLanSim, o: Partial<LanSessionOptions> = {}): IcomLanSession {
  const s = new IcomLanSession({ host: '127.0.0.1', controlPort: sim.controlPort, username: USER, password: PASS, ...o });
  cleanups.push(() => s.close());
  return s;
}

async function readFreq(bus: CivBus): Promise<number> {
  const f = await bus.request(cmd.readVfoFreq(0));
  const hz = decode.freq(f);
  assert.ok(hz !== null, 'a frequency');
  return hz;
}

async function until(what: string, cond: () => boolean, ms: number): Promise<void> {
  const end = performance.now() + ms;
  while (!cond()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

describe('IcomLanSession against the emulated IC-705', () => {
  it('opens, runs CI-V through CivBus over session.civ, and reads the frequency', async () => {
    const { rig, sim } = await radio();
    rig.state.vfoA.freq = 145_800_000;
    const s = session(sim);
    const r = await s.open();
    assert.equal(r.kind, 'open', JSON.stringify(r));
    assert.ok(r.kind === 'open');
    assert.equal(r.radio.name, 'IC-705');
    assert.equal(r.radio.mac, '00:90:c7:5a:70:05');
    assert.equal(r.radio.civ_port, sim.civPort);
    assert.equal(r.radio.audio_port, null, 'no audio asked for');
    assert.match(s.civ.path, /^lan:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(sim.clientConnected);
    await until('the CI-V stream opened (0x16 magic 04)', () => sim.civOpen, 1000);
    assert.equal(sim.lastLogin?.username, USER);
    assert.equal(sim.lastLogin?.password, PASS);
    const bus = new CivBus(s.civ, { rigAddr: RIG });
    assert.equal(await readFreq(bus), 145_800_000);
    await bus.request(cmd.setVfoFreq(0, 435_300_000));
    assert.equal(rig.state.vfoA.freq, 435_300_000);
    assert.equal(await readFreq(bus), 435_300_000);
    const st = s.stats();
    assert.equal(st.state, 'open');
    assert.ok(st.rx_packets > 0 && st.tx_packets > 0);
    assert.ok(st.last_rx_at !== null);
  });

  it('wrong password: login_rejected, said plainly', async () => {
    const { sim } = await radio();
    const r = await session(sim, { password: 'wrong' }).open();
    assert.equal(r.kind, 'login_rejected');
    assert.match(r.kind === 'login_rejected' ? r.message : '', /rejected the user name or password/);
    assert.ok(sim.events.some((e) => e.kind === 'login_rejected'));
  });

  it('another client holds the radio: busy, with who', async () => {
    const { sim } = await radio();
    sim.busy = true;
    const r = await session(sim).open();
    assert.equal(r.kind, 'busy', JSON.stringify(r));
    assert.match(r.kind === 'busy' ? r.message : '', /IC-705 is in use by OTHER-PC \(192\.168\.0\.99\)/);
  });

  it('a second session while the first holds the radio is busy; after close() the radio is free again', async () => {
    const { sim } = await radio();
    const a = session(sim);
    assert.equal((await a.open()).kind, 'open');
    const b = await session(sim, { clientName: 'other' }).open();
    assert.equal(b.kind, 'busy', JSON.stringify(b));
    const t0 = performance.now();
    await a.close();
    assert.ok(performance.now() - t0 < 1500, 'close is bounded');
    assert.equal(a.stats().state, 'closed');
    await sleep(30);
    assert.ok(!sim.clientConnected, 'released');
    assert.ok(sim.events.some((e) => e.kind === 'token_remove'));
    assert.ok(sim.events.some((e) => e.kind === 'civ_close'));
    assert.ok(sim.events.filter((e) => e.kind === 'disconnect').length >= 2);
    const c = session(sim);
    const rc = await c.open();
    assert.equal(rc.kind, 'open', JSON.stringify(rc));
    assert.equal(await readFreq(new CivBus(c.civ, { rigAddr: RIG })), 145_000_000);
    const again = await a.open();
    assert.equal(again.kind, 'failed', 'single use');
  });

  it('unreachable: a closed port, and a host that never answers', async () => {
    const sock = dgram.createSocket('udp4');
    await new Promise<void>((r) => sock.bind(0, '127.0.0.1', () => r()));
    const port = sock.address().port;
    await new Promise<void>((r) => sock.close(() => r()));
    const r1 = await new IcomLanSession({ host: '127.0.0.1', controlPort: port, username: USER, password: PASS }).open();
    assert.equal(r1.kind, 'unreachable');
    assert.match(r1.kind === 'unreachable' ? r1.message : '', /^host 127\.0\.0\.1 did not respond/);

    const silent = dgram.createSocket('udp4');
    await new Promise<void>((r) => silent.bind(0, '127.0.0.1', () => r()));
    cleanups.push(() => new Promise((r) => silent.close(() => r())));
    const t0 = performance.now();
    const r2 = await new IcomLanSession({ host: '127.0.0.1', controlPort: silent.address().port, username: USER, password: PASS, timings: { connect_ms: 400 } }).open();
    assert.deepEqual(r2, { kind: 'unreachable', message: `host 127.0.0.1 did not respond on UDP port ${silent.address().port} within 0.4 s` });
    assert.ok(performance.now() - t0 < 1000);
  });

  it('preflight: ok against the radio, and "did not respond" against a closed port', async () => {
    const { sim } = await radio();
    const ok = await preflight('127.0.0.1', sim.controlPort);
    assert.equal(ok.ok, true);
    const sock = dgram.createSocket('udp4');
    await new Promise<void>((r) => sock.bind(0, '127.0.0.1', () => r()));
    const port = sock.address().port;
    await new Promise<void>((r) => sock.close(() => r()));
    const no = await preflight('127.0.0.1', port);
    assert.equal(no.ok, false);
    assert.ok(!no.ok && no.message.startsWith('host 127.0.0.1 did not respond'));
  });

  it('10 % loss and reordering both ways: every CI-V answer still right (retransmits both ways)', async () => {
    const { rig, sim } = await radio({ loss: 0.1, reorder: 0.1, seed: Number(process.env.LAN_SEED ?? 7) });
    const s = session(sim);
    const r = await s.open();
    assert.equal(r.kind, 'open', JSON.stringify(r));
    const bus = new CivBus(s.civ, { rigAddr: RIG, timeouts: { reply_ms: 800, read_retries: 2, jam_retries: 2 } });
    // Which packets the loss hits depends on timing: read on (every answer checked) until losses
    // have happened both ways, at least 25 reads.
    const askedByRadio = () => sim.events.some((e) => e.kind === 'retransmit_asked_by_radio');
    for (let i = 0; i < 25 || ((!askedByRadio() || s.stats().retransmits_requested === 0) && i < 200); i++) {
      const hz = 144_000_000 + i * 12_500;
      rig.state.vfoA.freq = hz;
      assert.equal(await readFreq(bus), hz, `read ${i}`);
    }
    const st = s.stats();
    assert.ok(st.retransmits_requested > 0, 'we asked the radio to resend');
    assert.ok(askedByRadio(), 'the radio asked us to resend');
    assert.ok(st.retransmits_answered > 0, 'and we did');
    assert.equal(s.stats().state, 'open');
  });

  it('renews the token before the radio expires it', async () => {
    const { sim } = await radio({ tokenTtlMs: 1200 });
    const s = session(sim, { timings: { token_renew_ms: 300 } });
    assert.equal((await s.open()).kind, 'open');
    await sleep(2000);
    const renewals = sim.events.filter((e) => e.kind === 'token_renew').length;
    assert.ok(renewals >= 4, `renewals: ${renewals}`);
    assert.ok(!sim.events.some((e) => e.kind === 'token_expired'));
    assert.ok(s.tokenStats.renewals_ok >= 4);
    assert.ok(sim.clientConnected);
    assert.equal(await readFreq(new CivBus(s.civ, { rigAddr: RIG })), 145_000_000);
  });

  it('the radio switched off: onLost within the stale period, civ.onClose with the reason, audio ends lost', async () => {
    const { sim } = await radio();
    const s = session(sim, { timings: { stale_ms: 800 }, audio: { sampleRate: 24000 } });
    assert.equal((await s.open()).kind, 'open');
    const lost: string[] = [];
    let closedWith: Error | null | undefined;
    s.onLost((why) => lost.push(why));
    s.civ.onClose((err) => (closedWith = err));
    const playing = s.audioTx.play(new Int16Array(24000 * 5));
    const t0 = performance.now();
    sim.powerOff();
    await until('onLost', () => lost.length > 0, 3000);
    const took = performance.now() - t0;
    assert.ok(took >= 700 && took < 1500, `lost after ${took} ms`);
    assert.equal(lost.length, 1);
    assert.match(lost[0], /stopped answering/);
    assert.ok(closedWith instanceof Error);
    assert.equal((await playing).kind, 'lost');
    assert.equal(s.stats().state, 'lost');
    await assert.rejects(s.civ.write(Uint8Array.of(0xfe, 0xfe, 0xa4, 0xe0, 0x03, 0xfd)));
    await sleep(100);
    assert.equal(lost.length, 1, 'once');
    await s.close();
  });

  it('TX audio reaches the radio intact and paced in real time; abort stops it at once', async () => {
    const { sim } = await radio({ audioRateHz: 24000 });
    const s = session(sim, { audio: { sampleRate: 24000 } });
    const r = await s.open();
    assert.equal(r.kind, 'open', JSON.stringify(r));
    assert.equal(r.kind === 'open' && r.radio.audio_port, sim.audioPort);
    assert.deepEqual(
      { rx: sim.stream?.rxRateHz, tx: sim.stream?.txRateHz, codec: sim.stream?.txCodec, txEnable: sim.stream?.txEnable },
      { rx: 24000, tx: 24000, codec: 0x04, txEnable: true },
    );
    const pcm = new Int16Array(24000); // 1 s: a ramp with a sign
    for (let i = 0; i < pcm.length; i++) pcm[i] = ((i * 37) % 60000) - 30000;
    const t0 = performance.now();
    const res = await s.audioTx.play(pcm);
    const took = performance.now() - t0;
    assert.deepEqual(res, { kind: 'done' });
    // 1 s of audio, then the radio's 150 ms TX buffer and the 50 ms tail before play() is done.
    assert.ok(took >= 1190 && took < 1500, `took ${took} ms`);
    await sleep(150);
    assert.deepEqual(sim.txReceived(), pcm);
    const pk = sim.txAudioPackets;
    assert.equal(pk.length, 50);
    assert.ok(pk.every((p) => p.samples === 480));
    const span = pk[pk.length - 1].at - pk[0].at;
    assert.ok(span > 850 && span < 1100, `packets spread over ${span} ms`);

    sim.clearTx();
    const long = s.audioTx.play(new Int16Array(24000 * 3));
    await sleep(300);
    assert.ok(s.audioTx.active);
    const ta = performance.now();
    s.audioTx.abort();
    assert.deepEqual(await long, { kind: 'aborted' });
    assert.ok(performance.now() - ta < 20, 'at once');
    assert.ok(!s.audioTx.active);
    await sleep(100);
    const n = sim.txAudioPackets.length;
    await sleep(200);
    assert.equal(sim.txAudioPackets.length, n, 'nothing after abort');
    assert.ok(n <= 20, `${n} packets for 300 ms + lead`);
  });

  it('RX audio the radio plays arrives through onAudio intact', async () => {
    const { sim } = await radio({ audioRateHz: 24000 });
    const s = session(sim, { audio: { sampleRate: 24000 } });
    assert.equal((await s.open()).kind, 'open');
    const got: number[] = [];
    s.onAudio((pcm) => {
      for (const x of pcm) got.push(x);
    });
    await sleep(100);
    const pcm = new Int16Array(24000 / 2);
    for (let i = 0; i < pcm.length; i++) pcm[i] = (i % 2000) + 1; // never 0: silence around it is not mistaken for it
    await sim.playRx(pcm);
    await sleep(200);
    const start = got.indexOf(1);
    assert.ok(start >= 0, 'the audio arrived');
    assert.deepEqual(Int16Array.from(got.slice(start, start + pcm.length)), pcm);
  });

  it('protocol timers run on the injected clock: token renewal and the stale watchdog', async () => {
    const { sim } = await radio();
    const clock = new FixedClock(Date.parse('2026-08-22T12:00:00Z'));
    // Virtual time passes with no packets in it, so the watchdog gets a long period here.
    const s = session(sim, { clock, timings: { stale_ms: 300_000 } });
    assert.equal((await s.open()).kind, 'open');
    assert.ok(!sim.events.some((e) => e.kind === 'token_renew'));
    await clock.run(60_000, 500, 2); // one token period in a fraction of the real time
    await clock.run(1_000, 100, 5);
    await until('the renewal', () => sim.events.some((e) => e.kind === 'token_renew'), 1000);
    await until('its answer', () => s.tokenStats.renewals_ok === 1, 1000);
    const lost: string[] = [];
    s.onLost((why) => lost.push(why));
    sim.powerOff();
    await sleep(50);
    clock.advance(299_000);
    assert.equal(lost.length, 0, 'not yet: within the stale period');
    clock.advance(1_100);
    assert.equal(lost.length, 1);
    assert.match(lost[0], /stopped answering/);
    assert.equal(s.stats().state, 'lost');
  });

  it('without audio the session asks for no TX and audioTx refuses', async () => {
    const { sim } = await radio();
    const s = session(sim);
    assert.equal((await s.open()).kind, 'open');
    assert.equal(sim.stream?.txEnable, false);
    const r = await s.audioTx.play(new Int16Array(100));
    assert.equal(r.kind, 'lost');
  });
});
