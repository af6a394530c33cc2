import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { networkInterfaces } from 'node:os';
import net from 'node:net';
import { rigFixture, until, type RigFixture } from '../radio/rig-fixture.js';
import { freePort } from '../rotator/rotctld-peer.js';
import { hamlibTool, LineClient } from './clients.js';
import { systemClock } from '../../src/util/clock.js';
import type { PassEvent } from '../../src/orbit/types.js';

// The Hamlib servers through the real app (issue 26): Hamlib's own rigctl -m 2 and a raw line
// client (gpredict's exact lines) against rigctld, which drives the IC-705 simulator on a
// pseudo-terminal through the radio controller and the real serialport stack. Real time
// throughout: the clients are real processes and sockets.

const have = spawnSync('rigctl', ['--version']).status === 0 && spawnSync('socat', ['-V']).status === 0;
const skip = !have && process.env.REQUIRE_HAMLIB !== '1' ? 'rigctl (libhamlib-utils) or socat is not installed; set REQUIRE_HAMLIB=1 to make this a failure' : false;
const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));
const POLL_MS = 300;

describe('rigctld through the station, with Hamlib rigctl -m 2 and the IC-705 simulator', { skip }, () => {
  let f: RigFixture;
  let port: number;
  const rigctl = (...cmd: string[]) => hamlibTool('rigctl', port, ...cmd);
  const runtime = async () => (await f.s.get('/api/v1/radio/state')).body.runtime;
  const hamlibRuntime = async () => (await f.s.get('/api/v1/system/state')).body.hamlibRuntime;

  before(async () => {
    f = await rigFixture({ clock: systemClock, settings: { poll_interval_ms: POLL_MS } });
    port = await freePort();
  });
  after(async () => {
    await f?.stop();
  });

  it('settings: defaults exactly, partial bodies merge, bad values are 400s naming the field, nothing loaded while off', async () => {
    const g = await f.s.get('/api/v1/settings/hamlib');
    assert.equal(g.status, 200);
    assert.deepEqual(g.body.state, { rigctld_enabled: false, rigctld_port: 4532, rotctld_enabled: false, rotctld_port: 4533, bind_host: '127.0.0.1', allow_ptt: false });
    assert.equal(f.s.app.services.hamlib.loaded, false);
    for (const [body, field] of [
      [{ rigctld_port: 0 }, 'rigctld_port'],
      [{ rotctld_port: 70000 }, 'rotctld_port'],
      [{ bind_host: '' }, 'bind_host'],
      [{ bind_host: 'not a host!' }, 'bind_host'],
      [{ allow_ptt: 'yes' }, 'allow_ptt'],
      [{ rigctld_enabled: true, rotctld_enabled: true, rigctld_port: 4600, rotctld_port: 4600 }, 'rotctld_port'],
    ] as const) {
      const r = await f.s.post('/api/v1/settings/hamlib', body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.body.error.code, 'validation_failed');
      assert.ok(JSON.stringify(r.body.error.details).includes(field), `${JSON.stringify(r.body.error.details)} names ${field}`);
    }
    assert.equal(f.s.app.services.hamlib.loaded, false, 'refused bodies load nothing');
    const m = await f.s.post('/api/v1/settings/hamlib', { rigctld_port: port });
    assert.equal(m.status, 200);
    assert.equal(m.body.state.rigctld_port, port);
    assert.equal(m.body.state.rotctld_port, 4533, 'the rest kept');
    assert.equal(f.s.app.services.hamlib.loaded, false, 'still off');
    assert.equal((await hamlibRuntime()).rigctld_listening, false);
  });

  it('enabling takes effect without a restart: listening on the port, nothing on rotctld', async () => {
    const r = await f.s.post('/api/v1/settings/hamlib', { rigctld_enabled: true });
    assert.equal(r.status, 200);
    await until(async () => (await hamlibRuntime()).rigctld_listening, 'rigctld listening');
    const rt = await hamlibRuntime();
    assert.equal(rt.rotctld_listening, false);
    assert.equal(rt.clients, 0);
    assert.equal(rt.last_error, null);
  });

  it('rigctl reads the rig: f, m, v, s, i, t, and \\dump_state describes an IC-705', async () => {
    const r = await rigctl('f', 'm', 'v', 's', 'i', 't');
    assert.ok(r.ok, r.out);
    assert.deepEqual(r.out.trim().split('\n'), ['145000000', 'FM', '15000', 'VFOA', '0', 'VFOB', '435000000', '0']);
    const c = await LineClient.open(port);
    try {
      assert.deepEqual(await c.ask('\\dump_state', 2), ['0', '3085'], 'protocol 0 (no \\chk_vfo asked), Hamlib model 3085 (IC-705)');
    } finally {
      c.close();
    }
  });

  it('rigctl sets the rig through the radio controller: F, M, I, X, S, V', async () => {
    const r = await rigctl('F', '145800000', 'M', 'USB', '2400', 'I', '435950000', 'X', 'LSB', '0', 'S', '1', 'VFOB');
    assert.ok(r.ok, r.out);
    assert.equal(f.sim.state.vfoA.freq, 145_800_000);
    assert.equal(f.sim.state.vfoA.mode, 'USB');
    assert.equal(f.sim.state.vfoB.freq, 435_950_000);
    assert.equal(f.sim.state.vfoB.mode, 'LSB');
    assert.equal(f.sim.state.split, true);
    const back = await rigctl('f', 'm', 'i', 'x', 's');
    assert.deepEqual(back.out.trim().split('\n'), ['145800000', 'USB', '3000', '435950000', 'LSB', '3000', '1', 'VFOB']);
    const b = await rigctl('V', 'VFOB', 'f');
    assert.equal(b.out.trim(), '435950000', 'V VFOB then f reads VFO B');
    const data = await rigctl('M', 'PKTUSB', '0', 'm');
    assert.equal(data.out.trim().split('\n')[0], 'PKTUSB');
    assert.equal(f.sim.state.vfoA.mode, 'USB');
    assert.equal(f.sim.state.vfoA.data, true, 'PKTUSB is USB with data mode on');
    await rigctl('M', 'USB', '0');
  });

  it('a set makes control external, naming the client, until it disconnects; /radio routes take it back', async () => {
    const c = await LineClient.open(port);
    try {
      assert.deepEqual(await c.ask('F 145810000'), ['RPRT 0']);
      const rt = await runtime();
      assert.equal(rt.control_mode, 'external');
      assert.match(rt.external_client, /^rigctld 127\.0\.0\.1:\d+$/);
      const h = await hamlibRuntime();
      assert.equal(h.clients, 1);
      assert.equal(h.connections[0].server, 'rigctld');
      assert.equal(`rigctld ${h.connections[0].remote}`, rt.external_client);
      // The radio's own routes still work and take the rig back.
      const pair = await f.s.post('/api/v1/radio/pair', { uplink_hz: 145_850_000, downlink_hz: 436_795_000 });
      assert.equal(pair.status, 200, JSON.stringify(pair.body));
      assert.equal(pair.body.runtime.control_mode, 'manual_applied');
      assert.equal(pair.body.runtime.external_client, null);
      assert.deepEqual(await c.ask('F 145820000'), ['RPRT 0']);
      assert.equal((await runtime()).control_mode, 'external');
    } finally {
      c.close();
    }
    await until(async () => (await runtime()).control_mode === 'idle', 'control released when the client goes');
    assert.equal((await runtime()).external_client, null);
    assert.equal((await hamlibRuntime()).clients, 0);
  });

  it('a get answers from a readback at most one poll interval old (the operator turned the knob)', async () => {
    const c = await LineClient.open(port);
    try {
      f.sim.state.vfoA.freq = 145_123_000;
      await settle(POLL_MS * 2 + 100);
      assert.deepEqual(await c.ask('f'), ['145123000']);
      // A burst of gets inside one interval costs the rig no extra reads.
      f.sim.log.length = 0;
      for (let i = 0; i < 20; i++) await c.ask('f');
      assert.ok(f.sim.log.length <= 12, `${f.sim.log.length} CI-V frames for 20 gets (the poll loop's own reads only)`);
    } finally {
      c.close();
    }
  });

  it('unknown commands and bad arguments are RPRT errors on an open connection; gpredict\'s own lines are answered', async () => {
    const c = await LineClient.open(port);
    try {
      assert.deepEqual(await c.ask('\\no_such_command'), ['RPRT -1']);
      assert.deepEqual(await c.ask('F banana'), ['RPRT -1']);
      assert.deepEqual(await c.ask('F 9999000000'), ['RPRT -1'], 'a frequency the rig cannot tune');
      assert.deepEqual(await c.ask('l STRENGTH'), ['RPRT -11'], 'a level the station does not pass on');
      assert.deepEqual(await c.ask('AOS'), ['RPRT 0']);
      assert.deepEqual(await c.ask('LOS'), ['RPRT 0']);
      assert.deepEqual(await c.ask('\\get_powerstat'), ['1']);
      const hz = (await c.ask('f'))[0];
      assert.deepEqual(await c.ask('+f', 3), ['get_freq:', `Frequency: ${hz}`, 'RPRT 0']);
      assert.equal(c.isClosed, false);
    } finally {
      c.close();
    }
  });

  it('gpredict\'s command sequence with vfo_opt on, then off (gtk-rig-ctrl.c)', async () => {
    const on = await LineClient.open(port);
    try {
      // get_vfo_opt, setup_split, then a tracking cycle: downlink on the current VFO, uplink on the split VFO.
      assert.deepEqual(await on.ask('\\set_vfo_opt 1'), ['RPRT 0']);
      assert.deepEqual(await on.ask('\\chk_vfo'), ['1']);
      assert.deepEqual(await on.ask('S VFOA 1 VFOB'), ['RPRT 0']);
      assert.deepEqual(await on.ask('F currVFO  145990000'), ['RPRT 0'], '"%10.0f" pads to ten characters');
      assert.deepEqual(await on.ask('I VFOA  435250000'), ['RPRT 0']);
      assert.deepEqual(await on.ask('f currVFO'), ['145990000']);
      assert.deepEqual(await on.ask('i currVFO'), ['435250000']);
      assert.deepEqual(await on.ask('t currVFO'), ['0']);
      assert.deepEqual(await on.ask('AOS'), ['RPRT 0']);
      assert.equal(f.sim.state.vfoA.freq, 145_990_000);
      assert.equal(f.sim.state.vfoB.freq, 435_250_000);
      assert.equal(f.sim.state.split, true);
      // set_ptt sends "T currVFO 0" and "q" in one write and reads the reply (allow_ptt is off: unkey always works).
      on.write('T currVFO 0\nq\n');
      assert.deepEqual(await on.read(2), ['RPRT 0', 'RPRT 0']);
      await on.closed;
    } finally {
      on.close();
    }
    const off = await LineClient.open(port);
    try {
      assert.deepEqual(await off.ask('\\chk_vfo'), ['0']);
      assert.deepEqual(await off.ask('S 1 2'), ['RPRT 0'], 'set_toggle: the VFO as gpredict\'s own number');
      assert.deepEqual(await off.ask('F  145995000'), ['RPRT 0']);
      assert.deepEqual(await off.ask('f'), ['145995000']);
      assert.deepEqual(await off.ask('I  435255000'), ['RPRT 0']);
      assert.deepEqual(await off.ask('i'), ['435255000']);
      assert.deepEqual(await off.ask('S 0 2'), ['RPRT 0']);
      assert.equal(f.sim.state.split, false);
      assert.deepEqual(await off.ask('LOS'), ['RPRT 0']);
    } finally {
      off.close();
    }
  });

  it('while the pass-pinned session holds the rig, sets are refused (RPRT -9) and change nothing; gets still answer', async () => {
    const passes: PassEvent[] = await f.s.app.services.orbit.passesWhenReady({ from_ms: Date.now(), hours: 48, min_max_el_deg: 5, sat_ids: ['iss'], include_ongoing: false });
    const p = passes[0];
    const sel = await f.s.post('/api/v1/radio/session/select', { sat_id: p.sat_id, sat_name: p.name, pass_aos: p.aos, pass_los: p.los, max_el_deg: p.max_el_deg });
    assert.equal(sel.status, 200, JSON.stringify(sel.body));
    const t = await f.s.post('/api/v1/radio/session/test');
    assert.equal(t.status, 200, JSON.stringify(t.body));
    const c = await LineClient.open(port);
    try {
      const before = { a: f.sim.state.vfoA.freq, b: f.sim.state.vfoB.freq, split: f.sim.state.split };
      assert.deepEqual(await c.ask('F 145700000'), ['RPRT -9']);
      assert.deepEqual(await c.ask('I 435100000'), ['RPRT -9']);
      assert.deepEqual(await c.ask('M FM 0'), ['RPRT -9']);
      assert.deepEqual(await c.ask('S 0 VFOA'), ['RPRT -9']);
      assert.deepEqual({ a: f.sim.state.vfoA.freq, b: f.sim.state.vfoB.freq, split: f.sim.state.split }, before);
      assert.deepEqual(await c.ask('f'), [String(before.a)]);
      assert.equal((await runtime()).control_mode, 'manual_applied', 'the session keeps the rig');
    } finally {
      c.close();
    }
    assert.equal((await f.s.post('/api/v1/radio/session/test/confirm')).status, 200);
    await f.s.post('/api/v1/radio/session/clear').catch(() => {});
  });

  it('PTT: refused without allow_ptt, a valid callsign, out of band or when locked; keys and unkeys when allowed', async () => {
    const c = await LineClient.open(port);
    const ptt = () => f.sim.state.transmitting;
    try {
      await c.ask('S 0 VFOA');
      await c.ask('F 145800000');
      assert.deepEqual(await c.ask('T 1'), ['RPRT -9'], 'allow_ptt is off');
      assert.equal(ptt(), false);
      assert.match((await f.s.get('/api/v1/system/state')).body.hamlibRuntime.last_error, /allow_ptt/);
      assert.equal((await f.s.post('/api/v1/settings/hamlib', { allow_ptt: true })).status, 200);
      assert.deepEqual(await c.ask('T 1'), ['RPRT -9'], 'no valid station callsign yet');
      assert.equal(ptt(), false);
      assert.equal((await f.s.post('/api/v1/aprs/session/identity', { callsign: 'G4ABC', ssid: 0 })).status, 200);
      await c.ask('F 14074000');
      assert.deepEqual(await c.ask('T 1'), ['RPRT -9'], '14.074 MHz is outside the eligibility bands');
      assert.equal(ptt(), false);
      await c.ask('F 145800000');
      assert.deepEqual(await c.ask('T 1'), ['RPRT 0']);
      assert.equal(ptt(), true, 'keyed over CI-V');
      assert.deepEqual(await c.ask('t'), ['1']);
      assert.deepEqual(await c.ask('T 0'), ['RPRT 0']);
      assert.equal(ptt(), false);
      // The operator lock: a locked station takes no PTT from the network.
      const TOKEN = 'a-long-operator-token';
      assert.equal((await f.s.post('/api/v1/access', { locked: true, token: TOKEN })).status, 200);
      try {
        assert.deepEqual(await c.ask('T 1'), ['RPRT -9']);
        assert.equal(ptt(), false);
      } finally {
        await f.s.post('/api/v1/access', { locked: false }, { authorization: `Bearer ${TOKEN}` });
      }
    } finally {
      c.close();
    }
  });

  it('the emergency stop unkeys, drops every rigctld client at once, and refuses PTT while it is in force', async () => {
    const c = await LineClient.open(port);
    const other = await LineClient.open(port);
    try {
      assert.deepEqual(await c.ask('T 1'), ['RPRT 0']);
      assert.equal(f.sim.state.transmitting, true);
      assert.equal((await runtime()).control_mode, 'external');
      const stop = await f.s.post('/api/v1/aprs/emergency-stop');
      assert.equal(stop.status, 200);
      await Promise.all([c.closed, other.closed]);
      await until(() => !f.sim.state.transmitting, 'unkeyed');
      const rt = await runtime();
      assert.equal(rt.control_mode, 'idle');
      assert.equal(rt.external_client, null);
      const again = await LineClient.open(port);
      try {
        assert.deepEqual(await again.ask('T 1'), ['RPRT -9']);
        assert.equal(f.sim.state.transmitting, false);
        assert.deepEqual(await again.ask('f'), ['145800000'], 'gets still answer');
      } finally {
        again.close();
      }
    } finally {
      c.close();
      other.close();
      await f.s.post('/api/v1/settings/hamlib', { allow_ptt: false });
    }
  });

  it('at most 16 clients; a line over 1 KiB disconnects its client only', async () => {
    const clients: LineClient[] = [];
    try {
      for (let i = 0; i < 16; i++) clients.push(await LineClient.open(port));
      await until(async () => (await hamlibRuntime()).clients === 16, '16 clients');
      const extra = await LineClient.open(port);
      await extra.closed;
      assert.deepEqual(await clients[15].ask('v'), ['VFOA'], 'the 16th still served');
      clients[0].write(`${'F'.repeat(1100)}\n`);
      await clients[0].closed;
      assert.deepEqual(await clients[1].ask('v'), ['VFOA'], 'the others still served');
    } finally {
      for (const c of clients) c.close();
    }
    await until(async () => (await hamlibRuntime()).clients === 0, 'all gone');
  });

  it('listens only where bind_host says; moving it or disabling takes effect at once', async () => {
    const lan = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
    const connects = (host: string) =>
      new Promise<boolean>((resolve) => {
        const s = net.connect({ host, port }, () => {
          s.destroy();
          resolve(true);
        });
        s.once('error', () => resolve(false));
      });
    assert.equal(await connects('127.0.0.1'), true);
    if (lan) assert.equal(await connects(lan), false, `not reachable on ${lan} while bound to 127.0.0.1`);
    assert.equal((await f.s.post('/api/v1/settings/hamlib', { bind_host: '127.0.0.2' })).status, 200);
    await until(() => connects('127.0.0.2'), 'listening on 127.0.0.2');
    assert.equal(await connects('127.0.0.1'), false, 'the old address closed');
    assert.equal((await f.s.post('/api/v1/settings/hamlib', { bind_host: '127.0.0.1', rigctld_enabled: false })).status, 200);
    await until(async () => !(await hamlibRuntime()).rigctld_listening, 'closed');
    assert.equal(await connects('127.0.0.1'), false);
    assert.equal((await f.s.post('/api/v1/settings/hamlib', { rigctld_enabled: true })).status, 200);
    await until(() => connects('127.0.0.1'), 'listening again');
  });

  it('a port another program holds is reported in last_error, and the service keeps serving', async () => {
    const blocker = net.createServer();
    const taken = await freePort();
    await new Promise<void>((r) => blocker.listen(taken, '127.0.0.1', () => r()));
    try {
      assert.equal((await f.s.post('/api/v1/settings/hamlib', { rigctld_port: taken })).status, 200);
      await until(async () => /EADDRINUSE|in use/.test((await hamlibRuntime()).last_error ?? ''), 'the error reported');
      assert.equal((await hamlibRuntime()).rigctld_listening, false);
      assert.equal((await f.s.get('/health')).status, 200);
    } finally {
      blocker.close();
      await f.s.post('/api/v1/settings/hamlib', { rigctld_port: port });
    }
    await until(async () => (await hamlibRuntime()).rigctld_listening && !/EADDRINUSE/.test((await hamlibRuntime()).last_error ?? ''), 'back on its port');
  });
});

describe('rigctld with the IC-9700 simulator (rigB): MAIN receives, SUB transmits', { skip }, () => {
  let f: RigFixture;
  let port: number;
  before(async () => {
    f = await rigFixture({ kind: 'IC-9700', clock: systemClock, settings: { poll_interval_ms: POLL_MS } });
    port = await freePort();
    assert.equal((await f.s.post('/api/v1/settings/hamlib', { rigctld_enabled: true, rigctld_port: port })).status, 200);
    await until(async () => (await f.s.get('/api/v1/system/state')).body.hamlibRuntime.rigctld_listening, 'listening');
  });
  after(async () => {
    await f?.stop();
  });

  it('names Main and Sub, reports split on, sets MAIN and SUB through the radio controller', async () => {
    const dump = await LineClient.open(port);
    assert.deepEqual(await dump.ask('\\dump_state', 2), ['0', '3081'], 'Hamlib model 3081 (IC-9700)');
    dump.close();
    const c = await LineClient.open(port);
    try {
      assert.deepEqual(await c.ask('v'), ['Main']);
      assert.deepEqual(await c.ask('s', 2), ['1', 'Sub']);
      assert.deepEqual(await c.ask('S 0 Main'), ['RPRT -11'], 'SUB transmits in satellite mode: no split off');
      assert.deepEqual(await c.ask('F 145880000'), ['RPRT 0']);
      assert.deepEqual(await c.ask('I 435880000'), ['RPRT 0']);
      assert.equal(f.sim.state.main.vfoA.freq === 145_880_000 || f.sim.state.vfoA.freq === 145_880_000, true, 'MAIN tuned');
      assert.equal(f.sim.state.vfoB.freq, 435_880_000, 'SUB tuned');
      assert.deepEqual(await c.ask('f'), ['145880000']);
      assert.deepEqual(await c.ask('V Sub'), ['RPRT 0']);
      assert.deepEqual(await c.ask('f'), ['435880000']);
      assert.deepEqual(await c.ask('F 50000000'), ['RPRT -1'], '6 m is not');
    } finally {
      c.close();
    }
  });
});
