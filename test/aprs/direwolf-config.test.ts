import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { direwolfLaunch, pttPlanFor, mycallFor, DirewolfConfigError, type PttPlan } from '../../src/aprs/tnc/direwolf-config.js';
import { defaultAprsSettings } from '../../src/aprs/settings.js';

const base = { mycall: 'N0CALL-7', audioIn: 'plughw:1,0', audioOut: 'plughw:1,0', configPath: '/var/lib/satstation/direwolf.conf' };
const conf = (ptt: PttPlan, extra: Partial<typeof base> & { audioFromStdin?: boolean } = {}) => direwolfLaunch({ ...base, ptt, ...extra });

const HEAD = `# Written by satstation on every start of the TNC; edits here are overwritten.
# No beacons, igate or digipeater here: satstation does those itself.
ADEVICE plughw:1,0 plughw:1,0
ACHANNELS 1
CHANNEL 0
MYCALL N0CALL-7
MODEM 1200
`;
const TAIL = `# No network servers: KISS goes over the pseudo-terminal (-p) only.
AGWPORT 0
KISSPORT 0
`;

describe('direwolfLaunch', () => {
  it('writes PTT RIG model port rate for Hamlib CAT', () => {
    const l = conf({ kind: 'hamlib', model: 3085, device: '/dev/ttyACM0', baud: 19200 });
    assert.equal(l.configText, HEAD + 'PTT RIG 3085 /dev/ttyACM0 19200\n' + TAIL);
    assert.deepEqual(l.args, ['-c', '/var/lib/satstation/direwolf.conf', '-p', '-t', '0']);
  });

  it('writes PTT device RTS|DTR for a serial control line', () => {
    assert.equal(conf({ kind: 'serial-line', device: '/dev/ttyUSB1', line: 'RTS' }).configText, HEAD + 'PTT /dev/ttyUSB1 RTS\n' + TAIL);
    assert.equal(conf({ kind: 'serial-line', device: '/dev/serial/by-id/usb-Icom_IC-705-if02', line: 'DTR' }).configText, HEAD + 'PTT /dev/serial/by-id/usb-Icom_IC-705-if02 DTR\n' + TAIL);
  });

  it('writes PTT CM108 with or without a hidraw device', () => {
    assert.equal(conf({ kind: 'cm108', device: null }).configText, HEAD + 'PTT CM108\n' + TAIL);
    assert.equal(conf({ kind: 'cm108', device: '/dev/hidraw1' }).configText, HEAD + 'PTT CM108 /dev/hidraw1\n' + TAIL);
  });

  it('writes no PTT line for VOX / listen-only', () => {
    assert.equal(conf({ kind: 'none' }).configText, HEAD + '# PTT: none (the transmitter keys on audio, VOX)\n' + TAIL);
  });

  it('always disables the AGW and KISS TCP servers and never configures beacons, igate or digipeater', () => {
    const plans: PttPlan[] = [{ kind: 'none' }, { kind: 'cm108', device: null }, { kind: 'serial-line', device: '/dev/ttyUSB0', line: 'RTS' }, { kind: 'hamlib', model: 2, device: '127.0.0.1:4532', baud: 9600 }];
    for (const p of plans) {
      const { configText, args } = conf(p);
      const cmds = configText.split('\n').filter((l) => l && !l.startsWith('#'));
      assert.ok(cmds.includes('AGWPORT 0') && cmds.includes('KISSPORT 0'), p.kind);
      assert.equal(cmds.filter((l) => /^(AGWPORT|KISSPORT)\b/.test(l)).length, 2);
      assert.ok(!cmds.some((l) => /^(PBEACON|CBEACON|OBEACON|TBEACON|IBEACON|IGSERVER|IGLOGIN|IGTXVIA|DIGIPEAT|FILTER|SMARTBEACON|GPSD|NMEA|NULLMODEM|SERIALKISS|KISSCOPY)\b/i.test(l)), p.kind);
      assert.ok(args.includes('-p'));
      assert.deepEqual(args.slice(args.indexOf('-t'), args.indexOf('-t') + 2), ['-t', '0']);
    }
  });

  it('uses default for empty audio names, stdin for tests, and quotes names with spaces', () => {
    assert.match(conf({ kind: 'none' }, { audioIn: '', audioOut: ' ' }).configText, /^ADEVICE default default$/m);
    assert.match(conf({ kind: 'none' }, { audioFromStdin: true, audioOut: 'null' }).configText, /^ADEVICE stdin null$/m);
    assert.match(conf({ kind: 'none' }, { audioIn: 'my "card" in', audioOut: 'default' }).configText, /^ADEVICE "my ""card"" in" default$/m);
    assert.match(conf({ kind: 'none' }, { mycall: 'n0call' }).configText, /^MYCALL N0CALL$/m);
  });

  it('runs decode-only for the Wi-Fi transport: stdin at the LAN rate, ALSA null out, no PTT whatever the plan', () => {
    const c = direwolfLaunch({ ...base, ptt: { kind: 'hamlib', model: 3085, device: '/dev/ttyACM0', baud: 19200 }, decodeOnlyStdinRate: 24000 }).configText;
    assert.match(c, /^ADEVICE stdin null$/m);
    assert.match(c, /^ARATE 24000$/m);
    assert.doesNotMatch(c, /^PTT /m);
    assert.match(c, /^KISSPORT 0$/m);
    assert.throws(() => direwolfLaunch({ ...base, ptt: { kind: 'none' }, decodeOnlyStdinRate: 7 }), DirewolfConfigError);
  });

  it('refuses values that would inject lines, be truncated, or open a listener', () => {
    const bad: Array<[string, () => unknown]> = [
      ['newline in audio', () => conf({ kind: 'none' }, { audioIn: 'default\nKISSPORT 8001' })],
      ['CR in audio', () => conf({ kind: 'none' }, { audioOut: 'default\rAGWPORT 8000' })],
      ['tab in device', () => conf({ kind: 'serial-line', device: '/dev/tty\tUSB0', line: 'RTS' })],
      ['newline in ptt device', () => conf({ kind: 'serial-line', device: '/dev/ttyUSB0\nAGWPORT 8000', line: 'RTS' })],
      ['newline in hamlib device', () => conf({ kind: 'hamlib', model: 3085, device: '/dev/ttyACM0\nKISSPORT 1', baud: 19200 })],
      ['newline in cm108 device', () => conf({ kind: 'cm108', device: '/dev/hidraw0\nAGWPORT 1' })],
      ['newline in mycall', () => conf({ kind: 'none' }, { mycall: 'N0CALL\nKISSPORT 8001' })],
      ['bad mycall', () => conf({ kind: 'none' }, { mycall: 'TOOLONGCALL' })],
      ['ssid 16', () => conf({ kind: 'none' }, { mycall: 'N0CALL-16' })],
      ['audio name truncated by Dire Wolf', () => conf({ kind: 'none' }, { audioOut: 'plughw:CARD=Device_1234567,DEV=0' })],
      ['udp audio opens a listener', () => conf({ kind: 'none' }, { audioIn: 'UDP:7355' })],
      ['stdin is not a sound card', () => conf({ kind: 'none' }, { audioIn: 'stdin' })],
      ['hamlib model over 9999', () => conf({ kind: 'hamlib', model: 10001, device: '/dev/ttyACM0', baud: 19200 })],
      ['hamlib model 0', () => conf({ kind: 'hamlib', model: 0, device: '/dev/ttyACM0', baud: 19200 })],
      ['no CAT device', () => conf({ kind: 'hamlib', model: 3085, device: '', baud: 19200 })],
      ['keyword as PTT device', () => conf({ kind: 'serial-line', device: 'GPIO', line: 'RTS' })],
      ['bad line', () => conf({ kind: 'serial-line', device: '/dev/ttyUSB0', line: 'CTS' as 'RTS' })],
      ['relative cm108 device', () => conf({ kind: 'cm108', device: 'hidraw0' })],
    ];
    for (const [name, fn] of bad) assert.throws(fn, DirewolfConfigError, name);
  });
});

describe('pttPlanFor / mycallFor', () => {
  const s = { ...defaultAprsSettings(), listen_only: false, serial_device: '/dev/ttyACM0', ptt_device: '/dev/ttyACM1' };
  it('maps each ptt_method, and listen-only to no PTT at all', () => {
    assert.deepEqual(pttPlanFor({ ...s, ptt_method: 'cat' }), { kind: 'hamlib', model: 3085, device: '/dev/ttyACM0', baud: 19200 });
    assert.deepEqual(pttPlanFor({ ...s, ptt_method: 'rts' }), { kind: 'serial-line', device: '/dev/ttyACM1', line: 'RTS' });
    assert.deepEqual(pttPlanFor({ ...s, ptt_method: 'dtr' }), { kind: 'serial-line', device: '/dev/ttyACM1', line: 'DTR' });
    assert.deepEqual(pttPlanFor({ ...s, ptt_method: 'cm108', ptt_device: '' }), { kind: 'cm108', device: null });
    assert.deepEqual(pttPlanFor({ ...s, ptt_method: 'vox' }), { kind: 'none' });
    assert.deepEqual(pttPlanFor({ ...s, ptt_method: 'cat', listen_only: true }), { kind: 'none' });
  });
  it('builds MYCALL', () => {
    assert.equal(mycallFor({ callsign: '', ssid: 5 }), 'N0CALL');
    assert.equal(mycallFor({ callsign: 'G4ABC', ssid: 0 }), 'G4ABC');
    assert.equal(mycallFor({ callsign: 'G4ABC', ssid: 10 }), 'G4ABC-10');
  });
});
