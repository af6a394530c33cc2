import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { startLineServer, type LineServer } from '../../src/hamlib/line-server.js';
import { newRigSession, serveRigLine, serveRotLine, type RigSession, type RotDescription } from '../../src/hamlib/protocol/serve-line.js';
import type { RigDescription } from '../../src/hamlib/protocol/dump-state.js';
import { HamlibError } from '../../src/ham/hamlib/errors.js';
import type { Outcome } from '../../src/hamlib/protocol/reply.js';
import type { HamlibRequest } from '../../src/hamlib/protocol/request.js';
import { formatDeg, formatFreqHz, parseFreqHz, parseInteger, parseNumber } from '../../src/ham/hamlib/values.js';
import { parseMode, parseVfo } from '../../src/ham/hamlib/vocab.js';

// Hamlib's own clients (Debian's libhamlib-utils: rigctl -m 2 and rotctl -m 2, the NET backends
// WSJT-X and many loggers use) against the line server answering with the protocol module. The
// rig and the rotator here are plain state in this file, the edge the real radio and rotator
// will take: the test proves the protocol module speaks Hamlib, not what the station does.

const haveRig = spawnSync('rigctl', ['--version']).status === 0;
const haveRot = spawnSync('rotctl', ['--version']).status === 0;
const required = process.env.REQUIRE_HAMLIB === '1';
const skip = !(haveRig && haveRot) && !required ? 'rigctl/rotctl (apt-get install libhamlib-utils) is not installed; set REQUIRE_HAMLIB=1 to make this a failure' : false;

function run(tool: 'rigctl' | 'rotctl', port: number, ...cmd: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(tool, ['-m', '2', '-r', `127.0.0.1:${port}`, ...cmd], { timeout: 15000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${tool} ${cmd.join(' ')}: ${err.message} ${stderr}`));
      else resolve(stdout);
    });
  });
}

const rig: RigDescription = {
  model: 3085,
  rx_ranges: [
    { start_hz: 30_000, end_hz: 199_999_999, modes: ['AM', 'CW', 'USB', 'LSB', 'FM', 'PKTUSB'], low_power_mw: -1, high_power_mw: -1, vfos: ['VFOA', 'VFOB'], ant: 1 },
    { start_hz: 400_000_000, end_hz: 470_000_000, modes: ['AM', 'CW', 'USB', 'LSB', 'FM', 'PKTUSB'], low_power_mw: -1, high_power_mw: -1, vfos: ['VFOA', 'VFOB'], ant: 1 },
  ],
  tx_ranges: [{ start_hz: 144_000_000, end_hz: 146_000_000, modes: ['CW', 'USB', 'LSB', 'FM'], low_power_mw: 100, high_power_mw: 10_000, vfos: ['VFOA', 'VFOB'], ant: 1 }],
  tuning_steps: [{ modes: ['USB', 'LSB', 'CW', 'FM'], step_hz: 10 }],
  filters: [
    { modes: ['USB', 'LSB'], width_hz: 2400 },
    { modes: ['FM'], width_hz: 15000 },
  ],
  ptt_type: 'RIG',
  timeout_ms: 1000,
  has_set_vfo: true,
  has_get_vfo: true,
  has_set_freq: true,
  has_get_freq: true,
  info: 'IC-705 (test rig)',
};

const rot: RotDescription = { model: 2, limits: { min_az_deg: 0, max_az_deg: 450, min_el_deg: 0, max_el_deg: 90, south_zero: false }, info: 'test rotator' };

/** The test's stand-in rig and rotator. */
const state = { freq_hz: 145_000_000, mode: 'FM', passband_hz: 15000, vfo: 'VFOA', ptt: 0, az_deg: 10, el_deg: 5, stops: 0, parks: 0 };

const bad: Outcome = { kind: 'error', code: HamlibError.EINVAL };

function answerRig(req: HamlibRequest): Outcome {
  switch (req.cmd) {
    case 'get_freq':
      return { kind: 'values', values: [formatFreqHz(state.freq_hz)] };
    case 'set_freq': {
      const hz = parseFreqHz(req.args[0]);
      if (hz === null) return bad;
      state.freq_hz = hz;
      return { kind: 'done' };
    }
    case 'get_mode':
      return { kind: 'values', values: [state.mode, state.passband_hz] };
    case 'set_mode': {
      const mode = parseMode(req.args[0]);
      const pb = parseInteger(req.args[1]);
      if (mode === null || pb === null) return bad;
      state.mode = mode;
      state.passband_hz = pb;
      return { kind: 'done' };
    }
    case 'get_vfo':
      return { kind: 'values', values: [state.vfo] };
    case 'set_vfo': {
      const vfo = parseVfo(req.args[0]);
      if (vfo === null) return bad;
      state.vfo = vfo;
      return { kind: 'done' };
    }
    case 'get_ptt':
      return { kind: 'values', values: [state.ptt] };
    default:
      return { kind: 'error', code: HamlibError.ENAVAIL };
  }
}

function answerRot(req: HamlibRequest): Outcome {
  switch (req.cmd) {
    case 'get_pos':
      return { kind: 'values', values: [formatDeg(state.az_deg), formatDeg(state.el_deg)] };
    case 'set_pos': {
      const az = parseNumber(req.args[0]);
      const el = parseNumber(req.args[1]);
      const l = rot.limits;
      if (az === null || el === null || az < l.min_az_deg || az > l.max_az_deg || el < l.min_el_deg || el > l.max_el_deg) return bad;
      state.az_deg = az;
      state.el_deg = el;
      return { kind: 'done' };
    }
    case 'stop':
      state.stops++;
      return { kind: 'done' };
    case 'park':
      state.parks++;
      state.az_deg = 0;
      state.el_deg = 0;
      return { kind: 'done' };
    default:
      return { kind: 'error', code: HamlibError.ENAVAIL };
  }
}

describe("Hamlib's own clients against the line server and the protocol module", { skip }, () => {
  let rigServer: LineServer;
  let rotServer: LineServer;
  const lines: string[] = [];

  before(async () => {
    const sessions = new Map<number, RigSession>();
    const r = await startLineServer({
      host: '127.0.0.1',
      port: 0,
      maxClients: 16,
      maxLineBytes: 1024,
      handle: async (line, client) => {
        lines.push(line);
        const out = await serveRigLine(line, sessions.get(client.id) ?? newRigSession(), rig, answerRig);
        sessions.set(client.id, out.session);
        return out.close ? { last: out.reply } : out.reply;
      },
    });
    assert.equal(r.kind, 'listening');
    rigServer = (r as { server: LineServer }).server;
    const t = await startLineServer({
      host: '127.0.0.1',
      port: 0,
      maxClients: 16,
      maxLineBytes: 1024,
      handle: async (line) => {
        const out = await serveRotLine(line, rot, answerRot);
        return out.close ? { last: out.reply } : out.reply;
      },
    });
    assert.equal(t.kind, 'listening');
    rotServer = (t as { server: LineServer }).server;
  });

  after(async () => {
    await rigServer?.close();
    await rotServer?.close();
  });

  it('rigctl -m 2 opens (\\chk_vfo, \\dump_state) and reads the frequency', async () => {
    lines.length = 0;
    const out = await run('rigctl', rigServer.port, 'f');
    assert.equal(out.trim(), '145000000');
    assert.deepEqual(lines.slice(0, 2), ['\\chk_vfo', '\\dump_state'], 'netrigctl opens with \\chk_vfo and \\dump_state');
  });

  it('rigctl -m 2 sets and reads frequency, mode, VFO and PTT', async () => {
    assert.equal(await run('rigctl', rigServer.port, 'F', '145800000'), '');
    assert.equal(state.freq_hz, 145_800_000);
    assert.equal((await run('rigctl', rigServer.port, 'f')).trim(), '145800000');
    assert.deepEqual((await run('rigctl', rigServer.port, 'm')).trim().split('\n'), ['FM', '15000']);
    await run('rigctl', rigServer.port, 'M', 'USB', '2400');
    assert.deepEqual([state.mode, state.passband_hz], ['USB', 2400]);
    assert.deepEqual((await run('rigctl', rigServer.port, 'm')).trim().split('\n'), ['USB', '2400']);
    assert.equal((await run('rigctl', rigServer.port, 'v')).trim(), 'VFOA');
    assert.equal((await run('rigctl', rigServer.port, 't')).trim(), '0');
  });

  it('rigctl -m 2 loads our \\dump_state: the client keeps and prints back our ranges, steps and filters; chk_vfo says vfo_opt is off', async () => {
    // The CLI takes long names without the backslash and answers them from what netrigctl loaded.
    assert.deepEqual((await run('rigctl', rigServer.port, 'chk_vfo')).trim(), '0');
    const dump = (await run('rigctl', rigServer.port, 'dump_state')).split('\n');
    const has = (line: string) => assert.ok(dump.includes(line), `${line} in\n${dump.join('\n')}`);
    has('30000.000000 199999999.000000 0x82f -1 -1 0x3 0x1');
    has('400000000.000000 470000000.000000 0x82f -1 -1 0x3 0x1');
    has('144000000.000000 146000000.000000 0x2e 100 10000 0x3 0x1');
    has('0x2e 10');
    has('0xc 2400');
    has('0x20 15000');
  });

  it('rotctl -m 2 opens (\\dump_state with our limits), reads and sets the position, stops and parks', async () => {
    assert.deepEqual((await run('rotctl', rotServer.port, 'p')).trim().split('\n'), ['10.00', '5.00']);
    await run('rotctl', rotServer.port, 'P', '120', '30');
    assert.deepEqual([state.az_deg, state.el_deg], [120, 30]);
    assert.deepEqual((await run('rotctl', rotServer.port, 'p')).trim().split('\n'), ['120.00', '30.00']);
    await run('rotctl', rotServer.port, 'S');
    assert.equal(state.stops, 1);
    await run('rotctl', rotServer.port, 'K');
    assert.equal(state.parks, 1);
    const dump = (await run('rotctl', rotServer.port, 'dump_state')).split('\n');
    assert.ok(dump.includes('min_az=0.000000') && dump.includes('max_az=450.000000') && dump.includes('max_el=90.000000'), dump.join('\n'));
  });

  it('rotctl -m 2 gets RPRT -1 for a position outside our limits', async () => {
    await assert.rejects(run('rotctl', rotServer.port, 'P', '500', '30'), /Invalid parameter|out of range|error/i);
    assert.deepEqual([state.az_deg, state.el_deg], [0, 0]);
  });
});
