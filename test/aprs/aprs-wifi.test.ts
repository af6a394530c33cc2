import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { closedUdpPort, lanFixture, LAN_PASS, LAN_USER, type LanFixture } from '../radio/lan/lan-fixture.js';
import { until } from './aprs-fixture.js';
import { ax25 } from './aprs-fixture.js';
import { AfskModulator } from '../../src/aprs/modem/afsk.js';
import { wavBytes } from '../../src/aprs/modem/wav.js';
import { LAN_AUDIO_RATE_HZ } from '../../src/radio/lan/lan-types.js';
import { resolveTncBinary } from '../../src/aprs/tnc/tnc-binary.js';

// APRS through the IC-705's Wi-Fi: Dire Wolf decodes the LAN receive audio from standard input;
// our own modem transmits with PTT over CI-V on the session. What the emulated radio heard is
// decoded by Dire Wolf's atest, an independent receiver.

const have = resolveTncBinary('direwolf').installed;
const required = process.env.REQUIRE_DIREWOLF === '1';

/** Frames atest decodes from 16-bit mono audio at the LAN rate, as TNC2 lines. */
function atestDecode(pcm: Int16Array, dir: string): string[] {
  const file = join(dir, `tx-${Date.now()}.wav`);
  writeFileSync(file, wavBytes(pcm, LAN_AUDIO_RATE_HZ));
  const out = execFileSync('atest', ['-B', '1200', file], { encoding: 'utf8' });
  return out.split('\n');
}

describe('APRS over Wi-Fi', { skip: !have && !required ? 'direwolf is not installed (apt-get install direwolf)' : false }, () => {
  let f: LanFixture;
  let dir: string;
  const rt = async () => (await f.s.get('/api/v1/aprs/state')).body.runtime;
  const operatorState = () => {
    f.rig.state.vfoA.freq = 7_074_000;
    f.rig.state.vfoA.mode = 'LSB';
    f.rig.state.vfoA.data = false;
  };
  before(async () => {
    assert.ok(have, 'REQUIRE_DIREWOLF=1 but direwolf is not on PATH');
    dir = mkdtempSync(join(tmpdir(), 'aprs-wifi-'));
    f = await lanFixture({ now: '2026-11-23T12:00:00Z' });
    const set = await f.s.post('/api/v1/settings/aprs', {
      callsign: 'G4ABC',
      ssid: 7,
      listen_only: false,
      transport_mode: 'wifi',
      rig_model: 'rigA',
      wifi_host: '127.0.0.1',
      wifi_control_port: f.lan.controlPort,
      wifi_username: LAN_USER,
      wifi_password: LAN_PASS,
      afsk_txdelay_ms: 200,
      afsk_tail_ms: 50,
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
  });
  after(async () => {
    await f?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('preflight failure: a clear error, nothing started, the rig untouched', async () => {
    operatorState();
    const port = await closedUdpPort();
    await f.s.post('/api/v1/settings/aprs', { wifi_control_port: port });
    const r = await f.s.post('/api/v1/aprs/connect');
    assert.equal(r.status, 504, JSON.stringify(r.body));
    assert.match(r.body.error.message, /host 127\.0\.0\.1 did not respond/);
    const st = await rt();
    assert.equal(st.connected, false);
    assert.equal(st.sidecar_running, false);
    assert.equal(f.rig.state.vfoA.freq, 7_074_000);
    await f.s.post('/api/v1/settings/aprs', { wifi_control_port: f.lan.controlPort });
  });

  it('login rejected: refused plainly, the rig untouched', async () => {
    await f.s.post('/api/v1/settings/aprs', { wifi_password: 'nope' });
    const r = await f.s.post('/api/v1/aprs/connect');
    assert.equal(r.status, 502, JSON.stringify(r.body));
    assert.equal(r.body.error.code, 'rig_login_rejected');
    assert.equal(f.rig.state.vfoA.freq, 7_074_000);
    await f.s.post('/api/v1/settings/aprs', { wifi_password: LAN_PASS });
  });

  it('connects: snapshot, data mode on the target frequency, decode-only Dire Wolf, runtime says so', async () => {
    const c = await f.s.post('/api/v1/aprs/connect');
    assert.equal(c.status, 200, JSON.stringify(c.body));
    const st = c.body.runtime;
    assert.equal(st.transport_mode, 'wifi');
    assert.equal(st.control_endpoint, `lan://127.0.0.1:${f.lan.controlPort}`);
    assert.match(st.owned_resource, /LAN session/);
    assert.match(st.modem_state, /Bell 202/);
    assert.equal(st.sidecar_running, true);
    assert.equal(st.kiss_connected, true);
    assert.equal(st.audio_tx_active, false);
    assert.ok(st.sidecar_command.includes('-p'));
    // The decode-only Dire Wolf prints "Note: PTT not configured ... (Ignore this if using VOX.)":
    // right for a receiver, and no error of a healthy station.
    await until(async () => (await rt()).output_tail.some((l: string) => l.startsWith('Note: PTT not configured')), 'the note printed', 3000);
    const healthy = await rt();
    assert.equal(healthy.last_error, null, healthy.last_error);
    assert.equal(healthy.sidecar_state, 'running');
    assert.equal(healthy.sidecar_problem, null);
    const target = c.body.target;
    assert.equal(f.rig.state.vfoA.freq, target.corrected_frequency_hz ?? target.frequency_hz);
    assert.equal(f.rig.state.vfoA.mode, 'FM');
    assert.equal(f.rig.state.vfoA.data, true);
  });

  it('transmits: PTT on, our audio decodes in atest, PTT off', async () => {
    f.lan.clearTx();
    const pttBefore = f.lan.ptt.length;
    const send = await f.s.post('/api/v1/aprs/send/status', { text: 'over wifi' });
    assert.equal(send.body.sent, true, send.body.tx_block_reason);
    await until(async () => (await rt()).audio_tx_active === true, 'audio going out', 3000);
    await until(() => f.lan.ptt.length >= pttBefore + 2 && !f.lan.keyed, 'PTT on then off', 8000);
    const ptt = f.lan.ptt.slice(pttBefore).map((p) => p.on);
    assert.deepEqual(ptt.slice(0, 2), [true, false]);
    // What the radio put on air: its TX buffer played out in real time, cut where PTT went off.
    // Released when the last sample reached the radio, the buffer's last 150 ms (FCS and closing
    // flags) were lost and atest decoded nothing.
    const lines = atestDecode(f.lan.txAudio(), dir);
    assert.ok(lines.some((l) => l.includes('G4ABC-7>') && l.includes('over wifi')), `atest decoded: ${lines.join(' | ')}`);
    // Paced in real time: the packets arrived over (about) the audio's own duration.
    const pk = f.lan.txAudioPackets;
    const samples = pk.reduce((n, p) => n + p.samples, 0);
    const audioMs = (samples * 1000) / LAN_AUDIO_RATE_HZ;
    const spanMs = pk[pk.length - 1].at - pk[0].at;
    assert.ok(spanMs > audioMs * 0.7, `paced: ${spanMs.toFixed(0)} ms for ${audioMs.toFixed(0)} ms of audio`);
    assert.equal((await rt()).audio_tx_active, false);
  });

  it('receives: LAN audio from the radio decodes through the sidecar into recent packets', async () => {
    const m = new AfskModulator({ sampleRate: LAN_AUDIO_RATE_HZ });
    const pcm = m.modulateCopy([ax25('W1AW-9>APRS,WIDE1-1:>heard over the LAN')]);
    const silence = new Int16Array(LAN_AUDIO_RATE_HZ / 5);
    await f.lan.playRx(silence);
    await f.lan.playRx(pcm);
    await f.lan.playRx(silence);
    await until(async () => (await rt()).recent_packets.some((p: { source: string }) => p.source === 'W1AW-9'), 'the packet decoded', 8000);
    assert.equal((await rt()).audio_rx_active, true);
  });

  it('emergency stop mid-transmit: audio stops and PTT drops at once', async () => {
    f.clock.advance(11_000); // past the flood guard's one transmission per 10 s
    const send = await f.s.post('/api/v1/aprs/send/status', { text: 'x'.repeat(60) });
    assert.equal(send.body.sent, true, send.body.tx_block_reason);
    await until(() => f.lan.keyed, 'keyed', 3000);
    const t0 = Date.now();
    const stop = await f.s.post('/api/v1/aprs/emergency-stop');
    assert.equal(stop.status, 200);
    await until(() => !f.lan.keyed, 'PTT off', 1500);
    const unkeyMs = Date.now() - t0;
    const n = f.lan.txAudioPackets.length;
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(f.lan.txAudioPackets.length <= n + 2, 'no audio after the stop');
    assert.ok(unkeyMs < 1500, `unkeyed in ${unkeyMs} ms`);
    assert.equal((await rt()).connected, false);
    // The operator's state comes back when the transport lets go.
    await until(() => f.rig.state.vfoA.freq === 7_074_000 && f.rig.state.vfoA.mode === 'LSB', 'the rig restored', 5000);
  });

  it('session lost mid-transmit: PTT released, error reported, rig restored on reconnect and disconnect', async () => {
    operatorState();
    const c = await f.s.post('/api/v1/aprs/connect');
    assert.equal(c.status, 200, JSON.stringify(c.body));
    f.clock.advance(11_000);
    const send = await f.s.post('/api/v1/aprs/send/status', { text: 'y'.repeat(60) });
    assert.equal(send.body.sent, true, send.body.tx_block_reason);
    await until(() => f.lan.keyed, 'keyed', 3000);
    f.lan.powerOff();
    await until(async () => /lost/.test((await rt()).last_error ?? ''), 'the loss reported', 15_000);
    assert.equal((await rt()).audio_tx_active, false);
    f.lan.powerOn();
    for (let i = 0; i < 40 && !/idle/.test((await rt()).modem_state); i++) await f.clock.run(1000, 500, 20);
    assert.match((await rt()).modem_state, /idle/, JSON.stringify(await rt()));
    assert.equal(f.lan.keyed, false, 'the new session unkeyed the radio first');
    const d = await f.s.post('/api/v1/aprs/disconnect');
    assert.equal(d.status, 200);
    await until(() => f.rig.state.vfoA.freq === 7_074_000 && f.rig.state.vfoA.mode === 'LSB' && !f.rig.state.vfoA.data, 'the rig restored', 5000);
    await until(() => !f.lan.clientConnected, 'the radio released', 5000);
  });
});
