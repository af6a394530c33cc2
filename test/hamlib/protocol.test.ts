import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RIG_TABLE, ROT_TABLE, newRigSession, serveRigLine, serveRotLine } from '../../src/hamlib/protocol/serve-line.js';
import { rigDumpState, rotDumpState, type RigDescription } from '../../src/hamlib/protocol/dump-state.js';
import { HamlibError } from '../../src/ham/hamlib/errors.js';
import type { Outcome } from '../../src/hamlib/protocol/reply.js';
import { parseRequestLine, type HamlibRequest } from '../../src/hamlib/protocol/request.js';

// The protocol module without I/O: lines in, Hamlib 4.5's exact replies out.

const rig: RigDescription = {
  model: 3085,
  rx_ranges: [{ start_hz: 30_000, end_hz: 199_999_999, modes: ['USB', 'FM'], low_power_mw: -1, high_power_mw: -1, vfos: ['VFOA', 'VFOB'], ant: 1 }],
  tx_ranges: [],
  tuning_steps: [{ modes: ['USB'], step_hz: 10 }],
  filters: [],
  ptt_type: 'RIG',
  timeout_ms: 1000,
  has_set_vfo: true,
  has_get_vfo: true,
  has_set_freq: true,
  has_get_freq: true,
  info: 'IC-705',
};

/** A stand-in rig answer: f reads 145 MHz, m reads FM 15000, F sets, anything else is not available. */
const answer = (req: HamlibRequest): Outcome =>
  req.cmd === 'get_freq' ? { kind: 'values', values: ['145000000'] } : req.cmd === 'get_mode' ? { kind: 'values', values: ['FM', 15000] } : req.cmd === 'set_freq' ? { kind: 'done' } : { kind: 'error', code: HamlibError.ENAVAIL };

async function rigReplies(...lines: string[]): Promise<string[]> {
  let session = newRigSession();
  const out: string[] = [];
  for (const line of lines) {
    const r = await serveRigLine(line, session, rig, answer);
    session = r.session;
    out.push(r.close ? `${r.reply}<close>` : r.reply);
  }
  return out;
}

describe('rigctld requests', () => {
  it('reads short and long names, the extended prefixes, a VFO under vfo_opt, and gpredict\'s padded numbers', () => {
    const p = (line: string, vfoOpt = false) => {
      const r = parseRequestLine(line, RIG_TABLE, { vfoOpt });
      return r.kind === 'request' ? { ext: r.request.ext, cmd: r.request.cmd, vfo: r.request.vfo, args: r.request.args } : r.kind;
    };
    assert.deepEqual(p('F 145800000'), { ext: null, cmd: 'set_freq', vfo: null, args: ['145800000'] });
    assert.deepEqual(p('\\set_freq 145800000'), { ext: null, cmd: 'set_freq', vfo: null, args: ['145800000'] });
    assert.deepEqual(p('+\\get_freq'), { ext: '+', cmd: 'get_freq', vfo: null, args: [] });
    assert.deepEqual(p(';f'), { ext: ';', cmd: 'get_freq', vfo: null, args: [] });
    assert.deepEqual(p('|m'), { ext: '|', cmd: 'get_mode', vfo: null, args: [] });
    assert.deepEqual(p(',v'), { ext: ',', cmd: 'get_vfo', vfo: null, args: [] });
    assert.deepEqual(p('F currVFO  145800000', true), { ext: null, cmd: 'set_freq', vfo: 'currVFO', args: ['145800000'] }); // gpredict's "%10.0f"
    assert.deepEqual(p('f currVFO'), { ext: null, cmd: 'get_freq', vfo: 'currVFO', args: [] }, 'a VFO name is taken even with vfo_opt off');
    assert.deepEqual(p('S VFOA 1 1', true), { ext: null, cmd: 'set_split_vfo', vfo: 'VFOA', args: ['1', '1'] });
    assert.deepEqual(p('\x8b'), { ext: null, cmd: 'get_dcd', vfo: null, args: [] });
    assert.deepEqual(p('AOS'), { ext: null, cmd: 'AOS', vfo: null, args: [] });
    assert.deepEqual(p('\\chk_vfo'), { ext: null, cmd: 'chk_vfo', vfo: null, args: [] });
    assert.equal(p(''), 'silent');
    assert.equal(p('# comment'), 'silent');
    assert.equal(p('q'), 'quit');
    assert.equal(p('fm'), 'invalid');
    assert.equal(p('\\no_such'), 'invalid');
    assert.equal(p('F'), 'invalid');
    assert.equal(p('f', true), 'invalid', 'vfo_opt on: the VFO is required');
  });

  it('answers gets with values one per line, sets with RPRT 0, errors with RPRT -n', async () => {
    assert.deepEqual(await rigReplies('f', 'm', 'F 145800000', 'T 1', 'fm', 'F'), ['145000000\n', 'FM\n15000\n', 'RPRT 0\n', 'RPRT -11\n', 'RPRT -1\n', 'RPRT -1\n']);
  });

  it('answers in the extended protocol like rigctld: header, labelled values, RPRT 0; the separator from the prefix', async () => {
    assert.deepEqual(await rigReplies('+f', ';m', '|\\get_freq', '+F 145800000', ';T 1', '+T 1'), [
      'get_freq:\nFrequency: 145000000\nRPRT 0\n',
      'get_mode:;Mode: FM;Passband: 15000;RPRT 0\n',
      'get_freq:|Frequency: 145000000|RPRT 0\n',
      'set_freq: 145800000\nRPRT 0\n',
      'set_ptt: 1;RPRT -11\n',
      'set_ptt: 1\nRPRT -11\n',
    ]);
    assert.deepEqual(await rigReplies('\\set_vfo_opt 1', '+f VFOA'), ['RPRT 0\n', 'get_freq: VFOA\nFrequency: 145000000\nRPRT 0\n']);
  });

  it('answers the handshake commands as Hamlib 4.5: chk_vfo, set_vfo_opt, get_powerstat, get_lock_mode, AOS/LOS, q', async () => {
    assert.deepEqual(await rigReplies('\\chk_vfo', '+\\chk_vfo', '\\set_vfo_opt 1', '\\chk_vfo', '\\get_powerstat', '\\get_lock_mode', 'AOS', 'LOS', '_', 'q'), [
      '0\n',
      'ChkVFO: 0\n',
      'RPRT 0\n',
      '1\n',
      '1\n',
      '0\nRPRT 0\n',
      'RPRT 0\n',
      'RPRT 0\n',
      'IC-705\n',
      'RPRT 0\n<close>',
    ]);
  });

  it('dumps state in protocol 1 (with key=value lines and done) after chk_vfo, protocol 0 before it', async () => {
    const [v0] = await rigReplies('\\dump_state');
    const v0lines = v0.split('\n');
    assert.equal(v0lines[0], '0');
    assert.equal(v0lines[1], '3085');
    assert.equal(v0lines[3], '30000.000000 199999999.000000 0x24 -1 -1 0x3 0x1');
    assert.equal(v0lines[4], '0 0 0 0 0 0 0');
    assert.ok(!v0.includes('done'));
    const [, v1] = await rigReplies('\\chk_vfo', '\\dump_state');
    assert.equal(v1.split('\n')[0], '1');
    assert.ok(v1.includes('\nptt_type=0x1\n') && v1.includes('\nrig_model=3085\n') && v1.endsWith('\ndone\n'), v1);
    assert.equal(rigDumpState(rig, 1).slice(2), v1.slice(2), 'the same fixed part in both versions');
    // 3 header lines, 2 range lists, 2 pair lists, rit/xit/ifshift/announces, preamp, attenuator, 6 masks.
    assert.equal(v0lines.length - 1, 3 + 2 + 1 + 2 + 1 + 4 + 2 + 6);
  });
});

describe('rotctld requests', () => {
  const rot = { model: 2, info: 'rotator', limits: { min_az_deg: -180, max_az_deg: 540, min_el_deg: 0, max_el_deg: 180, south_zero: false } };
  const rotAnswer = (req: HamlibRequest): Outcome => (req.cmd === 'get_pos' ? { kind: 'values', values: ['120.00', '30.00'] } : req.cmd === 'set_pos' ? { kind: 'done' } : { kind: 'error', code: HamlibError.ENAVAIL });
  const reply = async (line: string) => {
    const r = await serveRotLine(line, rot, rotAnswer);
    return r.close ? `${r.reply}<close>` : r.reply;
  };

  it('reads its own table: P is set_pos here, not set_parm', () => {
    const r = parseRequestLine('P 120.00 30.00', ROT_TABLE, { vfoOpt: false });
    assert.equal(r.kind === 'request' && r.request.cmd, 'set_pos');
    const m = parseRequestLine('M 2 50', ROT_TABLE, { vfoOpt: false });
    assert.equal(m.kind === 'request' && m.request.cmd, 'move');
  });

  it('answers p, P, S, K, q as rotctld does', async () => {
    assert.equal(await reply('p'), '120.00\n30.00\n');
    assert.equal(await reply('P 120 30'), 'RPRT 0\n');
    assert.equal(await reply('+p'), 'get_pos:\nAzimuth: 120.00\nElevation: 30.00\nRPRT 0\n');
    assert.equal(await reply('S'), 'RPRT -11\n');
    assert.equal(await reply('P 120'), 'RPRT -1\n');
    assert.equal(await reply('q'), '<close>');
  });

  it('dumps its limits (protocol 1, key=value up to done), labelled under a prefix', async () => {
    assert.equal(await reply('\\dump_state'), '1\n2\nmin_az=-180.000000\nmax_az=540.000000\nmin_el=0.000000\nmax_el=180.000000\nsouth_zero=0\nrot_type=AzEl\ndone\n');
    assert.equal(rotDumpState(2, rot.limits, { sep: ';' }).split(';')[2], 'Minimum Azimuth: -180.000000');
    assert.ok((await reply(';\\dump_state')).startsWith('dump_state:;rotctld Protocol Ver: 1;'));
  });
});
