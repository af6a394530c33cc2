import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { aprsFixture, ax25, tnc2Of, until, type AprsFixture } from './aprs-fixture.js';
import { FakeAprsIsServer, simPasscode } from '../sims/aprs-is-server.js';
import { startServer } from '../helpers/server.js';

// The APRS station end to end over HTTP: the real server, its real KISS-over-TCP transport, a
// fake TNC on 127.0.0.1 and a fake APRS-IS server.

describe('APRS routes without a transport', () => {
  it('rests with transmit blocked and says why; identity is validated', async () => {
    const s = await startServer();
    try {
      const st = await s.get('/api/v1/aprs/state');
      assert.equal(st.status, 200);
      assert.equal(st.body.runtime.connected, false);
      assert.equal(st.body.previewTarget.operating_mode, 'terrestrial');
      assert.equal(st.body.previewTarget.can_transmit, false);
      assert.match(st.body.previewTarget.tx_block_reason, /callsign not valid/);
      const bad = await s.post('/api/v1/aprs/session/identity', { callsign: 'N0CALL', ssid: 0 });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.error.code, 'invalid_callsign');
      const badSsid = await s.post('/api/v1/aprs/session/identity', { callsign: 'G4ABC', ssid: 16 });
      assert.equal(badSsid.status, 400);
      const ok = await s.post('/api/v1/aprs/session/identity', { callsign: 'g4abc', ssid: 9 });
      assert.equal(ok.status, 200);
      assert.deepEqual(ok.body.identity, { valid: true, callsign: 'G4ABC-9' });
      const sys = await s.get('/api/v1/system/state');
      assert.deepEqual(sys.body.stationIdentity.valid, true);
      // Listen-only is the default: still blocked, with that reason.
      const st2 = await s.get('/api/v1/aprs/state');
      assert.match(st2.body.previewTarget.tx_block_reason, /listen-only/);
      // Send while not connected: 200, not sent, reason stated.
      const send = await s.post('/api/v1/aprs/send/status', { text: 'hello' });
      assert.equal(send.status, 200);
      assert.equal(send.body.sent, false);
      const empty = await s.post('/api/v1/aprs/send/message', { to: '', text: 'x' });
      assert.equal(empty.status, 400);
      // Satellite targets: list, select, the gate with its AOS.
      const targets = await s.get('/api/v1/aprs/targets');
      const iss = targets.body.items.find((t: { channel_id: string }) => t.channel_id === 'iss-vhf');
      assert.ok(iss, 'ISS APRS channel listed');
      assert.equal(iss.requires_pass, true);
      const unknown = await s.post('/api/v1/aprs/select-target', { sat_id: 'ao-7', channel_id: null });
      assert.equal(unknown.status, 400);
      const sel = await s.post('/api/v1/aprs/session/select', { sat_id: 'iss', channel_id: 'iss-uhf' });
      assert.equal(sel.status, 200);
      assert.deepEqual(sel.body.state, { operating_mode: 'satellite', selected_satellite_id: 'iss', selected_channel_id: 'iss-uhf' });
      assert.equal(sel.body.previewTarget.sat_id, 'iss');
      assert.ok(sel.body.previewTarget.pass_aos, 'next pass known');
      const back = await s.post('/api/v1/aprs/session/select', { operating_mode: 'terrestrial' });
      assert.equal(back.body.previewTarget.operating_mode, 'terrestrial');
      // TNC status and install without privilege.
      await s.post('/api/v1/settings/aprs', { tnc_binary: 'no-such-tnc-binary' });
      const tnc = await s.get('/api/v1/aprs/tnc/status');
      assert.deepEqual(tnc.body, { installed: false, configuredBinary: 'no-such-tnc-binary', resolvedBinary: '' });
      const clear = await s.post('/api/v1/aprs/log/clear', { age_bucket: '2 days' });
      assert.equal(clear.status, 400);
      const wifi = await s.post('/api/v1/settings/aprs', { transport_mode: 'wifi' });
      assert.equal(wifi.status, 200);
      const conn = await s.post('/api/v1/aprs/connect');
      assert.equal(conn.status, 400, 'Wi-Fi without the rig’s address says so');
      assert.equal(conn.body.error.code, 'no_wifi_host');
    } finally {
      await s.stop();
    }
  });

  it('the APRS POSTs the spec lists clear the lite cache', async () => {
    const s = await startServer();
    try {
      const docs = await s.get('/docs');
      assert.equal(docs.status, 200);
    } finally {
      await s.stop();
    }
  });
});

describe('APRS station on a KISS TNC', () => {
  let f: AprsFixture;
  before(async () => {
    f = await aprsFixture();
  });
  after(() => f.stop());

  it('is connected with the transport shown', async () => {
    const st = await f.s.get('/api/v1/aprs/state');
    const rt = st.body.runtime;
    assert.equal(rt.connected, true);
    assert.equal(rt.kiss_connected, true);
    assert.equal(rt.session_active, true);
    assert.match(rt.owned_resource, /KISS TNC at 127\.0\.0\.1/);
    assert.equal(st.body.previewTarget.can_transmit, true);
  });

  it('sends a status through the gate and the flood guard', async () => {
    const r = await f.s.post('/api/v1/aprs/send/status', { text: 'satstation test' });
    assert.equal(r.status, 200);
    assert.equal(r.body.sent, true, r.body.tx_block_reason);
    assert.equal(r.body.raw_tnc2, 'G4ABC-7>APZSST,WIDE1-1,WIDE2-1:>satstation test');
    await until(() => f.tnc.frames.length === 1, 'the frame at the TNC');
    assert.equal(tnc2Of(f.tnc.frames[0]), 'G4ABC-7>APZSST,WIDE1-1,WIDE2-1:>satstation test');
    assert.equal(r.body.runtime.packets_tx, 1);
    assert.equal(r.body.runtime.last_tx_packet_type, 'status');
    const again = await f.s.post('/api/v1/aprs/send/message', { to: 'N0CALL', text: 'hi' });
    assert.equal(again.body.sent, false);
    assert.match(again.body.tx_block_reason, /flood guard/);
    assert.ok(again.body.runtime.next_tx_allowed_at);
    f.clock.advance(10_000);
    const msg = await f.s.post('/api/v1/aprs/send/message', { to: 'n0call', text: 'hi there' });
    assert.equal(msg.body.sent, true, msg.body.tx_block_reason);
    assert.match(msg.body.raw_tnc2, /^G4ABC-7>APZSST,WIDE1-1,WIDE2-1::N0CALL   :hi there\{\d+$/);
    f.clock.advance(10_000);
    const pos = await f.s.post('/api/v1/aprs/send/position', { comment: 'portable' });
    assert.equal(pos.body.sent, true, pos.body.tx_block_reason);
    assert.match(pos.body.raw_tnc2, /:=\d{4}\.\d\d[NS]\/\d{5}\.\d\d[EW]-portable$/);
    f.clock.advance(10_000);
  });

  it('receives: recent packets, heard stations, the stored log and its exports', async () => {
    f.tnc.push(ax25('N0CALL-9>APRS,WIDE1-1:!4903.50N/07201.75W-Test 001234'));
    f.tnc.push(ax25('N1ABC>APRS,DIGI1*::G4ABC-7  :hello back{7'));
    f.tnc.push(ax25('N9GW>APRS,WIDE1-1:}K1ORIG>APRS,TCPIP,N9GW*:>relayed status'));
    await until(async () => (await f.s.get('/api/v1/aprs/state')).body.runtime.packets_rx === 3, 'three packets received');
    const rt = (await f.s.get('/api/v1/aprs/state')).body.runtime;
    const pos = rt.recent_packets.find((p: { source: string }) => p.source === 'N0CALL-9');
    assert.equal(pos.kind, 'position');
    const msg = rt.recent_packets.find((p: { source: string }) => p.source === 'N1ABC');
    assert.equal(msg.kind, 'message');
    assert.equal(msg.to_us, true);
    const heard = rt.heard_stations.find((h: { callsign: string }) => h.callsign === 'N0CALL-9');
    assert.ok(Math.abs(heard.lat - 49.0583) < 0.001 && Math.abs(heard.lon + 72.0292) < 0.001);
    assert.equal(heard.direct, true);
    assert.ok(rt.heard_stations.some((h: { callsign: string }) => h.callsign === 'K1ORIG'), 'third-party packet credited to its originator');
    assert.equal(rt.heard_stations.find((h: { callsign: string }) => h.callsign === 'N1ABC').direct, false);
    const log = await f.s.get('/api/v1/aprs/log');
    assert.equal(log.body.items.length, 3);
    const back = log.body.items.find((e: { source: string }) => e.source === 'N1ABC');
    assert.equal(back.message, true);
    assert.equal(back.text, 'hello back');
    const csv = await fetch(`${f.s.base}/api/v1/aprs/log/export.csv`);
    assert.match(csv.headers.get('content-type')!, /text\/csv/);
    const text = await csv.text();
    assert.match(text, /^id,received_at,source,destination,message,text\r?\n/);
    assert.match(text, /N0CALL-9/);
    const json = await (await fetch(`${f.s.base}/api/v1/aprs/log/export.json`)).json();
    assert.equal(json.count, 3);
    const clear = await f.s.post('/api/v1/aprs/log/clear', { age_bucket: 'all' });
    assert.equal(clear.status, 200);
    assert.equal(clear.body.removed, 3);
    assert.equal((await f.s.get('/api/v1/aprs/log')).body.items.length, 0);
  });

  it('digipeats WIDE1-1 once and counts the duplicate', async () => {
    const on = await f.s.post('/api/v1/settings/aprs', { digipeater: { enabled: true, aliases: ['WIDE1-1'], max_hops: 2, dedupe_window_s: 30, callsign_allowlist: [], path_blocklist: [] } });
    assert.equal(on.status, 200);
    const before = f.tnc.frames.length;
    f.tnc.push(ax25('N2XYZ>APRS,WIDE1-1,WIDE2-1:>status one'));
    await until(() => f.tnc.frames.length === before + 1, 'the digipeated frame');
    assert.equal(tnc2Of(f.tnc.frames[before]), 'N2XYZ>APRS,G4ABC-7*,WIDE2-1:>status one');
    f.tnc.push(ax25('N2XYZ>APRS,WIDE1-1,WIDE2-1:>status one'));
    f.tnc.push(ax25('N3BAD>APRS,WIDE7-7:>too far'));
    await until(async () => (await f.s.get('/api/v1/aprs/state')).body.runtime.packets_dropped_policy === 1, 'the policy drop');
    const rt = (await f.s.get('/api/v1/aprs/state')).body.runtime;
    assert.equal(rt.packets_digipeated, 1);
    assert.equal(rt.packets_dropped_duplicate, 1);
    assert.equal(rt.digipeater_active, true);
    assert.equal(f.tnc.frames.length, before + 1);
    // Satellite mode: the digipeater is off by policy, with the reason.
    await f.s.post('/api/v1/aprs/session/select', { sat_id: 'iss', channel_id: 'iss-vhf' });
    const sat = (await f.s.get('/api/v1/aprs/state')).body.runtime;
    assert.equal(sat.digipeater_active, false);
    assert.match(sat.digipeater_reason, /satellite mode/);
    await f.s.post('/api/v1/aprs/session/select', { operating_mode: 'terrestrial' });
    await f.s.post('/api/v1/settings/aprs', { digipeater: { enabled: false, aliases: ['WIDE1-1'], max_hops: 2, dedupe_window_s: 30, callsign_allowlist: [], path_blocklist: [] } });
  });

  it('gates received packets to APRS-IS with qAR and our call, never NOGATE/TCPIP ones', async () => {
    const is = await FakeAprsIsServer.start();
    try {
      await f.s.post('/api/v1/settings/aprs', {
        igate: { enabled: true, server_host: '127.0.0.1', server_port: is.port, login_callsign: '', passcode: simPasscode('G4ABC'), filter: '', connect_timeout_s: 5, gate_terrestrial_rx: true, gate_satellite_rx: true },
      });
      f.clock.advance(1); // the housekeeping tick the settings change armed: the client starts
      const why = (await f.s.get('/api/v1/aprs/state')).body.runtime;
      await until(() => is.logins.length === 1, `the iGate login (${why.igate_reason}, ${why.igate_status}, ${why.igate_last_error})`);
      assert.equal(is.logins[0].callsign, 'G4ABC-7');
      assert.equal(is.logins[0].verified, true);
      await until(async () => (await f.s.get('/api/v1/aprs/state')).body.runtime.igate_connected === true, 'igate connected');
      f.tnc.push(ax25('N4GATE>APRS,WIDE1-1:>gate me'));
      f.tnc.push(ax25('N5NOPE>APRS,NOGATE:>not me'));
      f.tnc.push(ax25('N6TCP>APRS,TCPIP*:>not me either'));
      f.tnc.push(ax25('N7RFO>APRS,RFONLY:>nor me'));
      await until(() => is.packets.length === 1, 'the gated line');
      await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(is.packets, ['N4GATE>APRS,WIDE1-1,qAR,G4ABC-7:>gate me']);
      const rt = (await f.s.get('/api/v1/aprs/state')).body.runtime;
      assert.equal(rt.igate_requested, true);
      assert.equal(rt.igate_active, true);
      assert.equal(rt.packets_igated, 1);
      assert.match(rt.igate_server, /127\.0\.0\.1/);
    } finally {
      await f.s.post('/api/v1/settings/aprs', { igate: { enabled: false, server_host: 'rotate.aprs2.net', server_port: 14580, login_callsign: '', passcode: -1, filter: 'm/50', connect_timeout_s: 10, gate_terrestrial_rx: true, gate_satellite_rx: true } });
      f.clock.advance(5000);
      await is.close();
    }
  });

  it('emergency stop: transport down at once, sends blocked until the next connect', async () => {
    const r = await f.s.post('/api/v1/aprs/emergency-stop');
    assert.equal(r.status, 200);
    assert.equal(r.body.ok, true);
    assert.equal(r.body.runtime.connected, false);
    assert.equal(r.body.runtime.emergency_stopped, true);
    await until(() => f.tnc.connections === 0, 'the TNC link dropped');
    f.clock.advance(60_000);
    const send = await f.s.post('/api/v1/aprs/send/status', { text: 'after stop' });
    assert.equal(send.body.sent, false);
    assert.match(send.body.tx_block_reason, /emergency stop/);
    const again = await f.s.post('/api/v1/aprs/emergency-stop');
    assert.equal(again.status, 200, 'emergency stop always answers');
    const c = await f.s.post('/api/v1/aprs/connect');
    assert.equal(c.status, 200);
    assert.equal(c.body.runtime.emergency_stopped, false);
    await until(() => f.tnc.connections === 1, 'reconnected');
    const ok = await f.s.post('/api/v1/aprs/send/status', { text: 'back' });
    assert.equal(ok.body.sent, true, ok.body.tx_block_reason);
  });

  it('disconnect answers the short runtime', async () => {
    const d = await f.s.post('/api/v1/aprs/disconnect');
    assert.equal(d.status, 200);
    assert.deepEqual(Object.keys(d.body.runtime).sort(), ['connected', 'last_error', 'session_active']);
    assert.equal(d.body.runtime.connected, false);
  });
});
