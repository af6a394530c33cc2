import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { SATELLITE_RADIOS, parseModelList, runModelList, sortModels } from '../../../src/radio/rigctld/hamlib-models.js';
import { checkHamlibModels } from '../../../src/radio/rigctld/hamlib-model-check.js';
import { hamlibModeFor, radioModeOf } from '../../../src/radio/rigctld/hamlib-modes.js';
import { RIG_MODES } from '../../../src/radio/schemas.js';
import { defaultRadioSettings, type RadioSettings } from '../../../src/radio/settings.js';
import { AppError } from '../../../src/util/errors.js';

// Hamlib's model list as `rigctl -l` prints it (Hamlib 4.5.4, rows copied as printed, columns
// and all), in the order /settings offers it; the settings check it backs; and the station's
// modes in Hamlib's spelling.

const LISTING = [
  ' Rig #  Mfg                    Model                   Version         Status      Macro',
  '     1  Hamlib                 Dummy                   20221128.0      Stable      RIG_MODEL_DUMMY',
  '     5  TRXManager             TRXManager 5.7.630+     20210613.0      Stable      RIG_MODEL_TRXMANAGER_RIG',
  '  1020  Yaesu                  FT-817                  20220419.0      Stable      RIG_MODEL_FT817',
  '  1035  Yaesu                  FT-991                  20230109.15     Stable      RIG_MODEL_FT991',
  '  1003  Yaesu                  FT-1000D                20211111.0      Stable      RIG_MODEL_FT1000D',
  '  2014  Kenwood                TS-2000                 20230109.0      Stable      RIG_MODEL_TS2000',
  '  3032  Icom                   IC-820H                 20230109.0      Beta        RIG_MODEL_IC820',
  '  3081  Icom                   IC-9700                 20230109.11     Stable      RIG_MODEL_IC9700',
  '  3085  Icom                   IC-705                  20230109.8      Stable      RIG_MODEL_IC705',
  '  3020  Icom                   IC-736                  20230109.0      Alpha       RIG_MODEL_IC736',
  ' 23003  DTTS Microwave Society DttSP IPC               20200319.0      Beta        RIG_MODEL_DTTSP',
  ' 25003  Coding Technologies    Digital World Traveller 20200112.0      Alpha       RIG_MODEL_DWT',
  ' 32003  Barrett                4050                    20220113.0f     Stable      RIG_MODEL_BARRETT_4050',
  '',
].join('\n');

const haveRigctl = spawnSync('rigctl', ['--version']).status === 0;
const skip = !haveRigctl && process.env.REQUIRE_HAMLIB !== '1' ? 'rigctl (apt-get install libhamlib-utils) is not installed; set REQUIRE_HAMLIB=1 to make this a failure' : false;

describe('Hamlib model list', () => {
  it('reads rigctl -l by its columns: names with spaces on either side, a version with a letter', () => {
    const items = parseModelList(LISTING);
    assert.equal(items.length, 13);
    const by = (n: number) => items.find((e) => e.model === n);
    assert.deepEqual(by(1020), { model: 1020, manufacturer: 'Yaesu', name: 'FT-817', version: '20220419.0', status: 'Stable', satellite: true });
    assert.deepEqual([by(5)?.manufacturer, by(5)?.name], ['TRXManager', 'TRXManager 5.7.630+']);
    assert.deepEqual([by(23003)?.manufacturer, by(23003)?.name, by(23003)?.status], ['DTTS Microwave Society', 'DttSP IPC', 'Beta']);
    assert.deepEqual([by(25003)?.manufacturer, by(25003)?.name], ['Coding Technologies', 'Digital World Traveller']);
    assert.deepEqual([by(32003)?.name, by(32003)?.version], ['4050', '20220113.0f']);
    assert.equal(by(1)?.satellite, false);
    assert.equal(by(3020)?.satellite, false, 'the IC-736 is no IC-705');
  });

  it("reads Hamlib 3's table too (no Macro column) and rows that overflow the header's columns", () => {
    const items = parseModelList([' Rig #  Mfg                    Model                   Version         Status', '  2014  Kenwood                TS-2000                 0.9.1           Beta', ' 99999  A Very Long Manufacturer Name  Some Rig  1.0  Alpha'].join('\n'));
    assert.deepEqual(items.map((e) => [e.model, e.manufacturer, e.name, e.status]), [[2014, 'Kenwood', 'TS-2000', 'Beta'], [99999, 'A Very Long Manufacturer Name', 'Some Rig', 'Alpha']]);
  });

  it('lists the satellite radios first, in their order, then the rest by manufacturer and name', () => {
    const names = sortModels(parseModelList(LISTING)).map((e) => `${e.manufacturer} ${e.name}`);
    assert.deepEqual(names, [
      'Icom IC-9700', 'Icom IC-820H', 'Kenwood TS-2000', 'Yaesu FT-991', 'Yaesu FT-817', 'Icom IC-705',
      'Barrett 4050', 'Coding Technologies Digital World Traveller', 'DTTS Microwave Society DttSP IPC', 'Hamlib Dummy', 'Icom IC-736', 'TRXManager TRXManager 5.7.630+', 'Yaesu FT-1000D',
    ]);
  });

  it('a missing rigctl is an answer, not an error', async () => {
    assert.deepEqual(await runModelList('/nonexistent/rigctl'), { kind: 'missing', note: 'Hamlib is not installed on this station: install libhamlib-utils (sudo apt-get install libhamlib-utils)' });
    const failed = await runModelList('false');
    assert.equal(failed.kind, 'failed');
  });

  it('every satellite radio is in the installed Hamlib’s list', { skip }, async () => {
    const list = await runModelList('rigctl');
    assert.equal(list.kind, 'ok');
    const items = list.kind === 'ok' ? list.items : [];
    for (const r of SATELLITE_RADIOS) assert.ok(items.some((e) => e.manufacturer === r.manufacturer && r.name.test(e.name)), `${r.manufacturer} ${r.name} is in rigctl -l`);
    const sat = items.filter((e) => e.satellite).map((e) => e.name);
    assert.deepEqual(sat.slice(0, 3), ['IC-9700', 'IC-910', 'IC-9100']);
    assert.ok(items.findIndex((e) => !e.satellite) === sat.length, 'the satellite radios come first');
    assert.ok(['FT-817', 'FT-818', 'FT-857', 'FT-897', 'FT-897D', 'FT-847', 'FT-847UNI', 'FT-736R', 'FT-991', 'TS-2000', 'TS-790', 'IC-705', 'IC-820H', 'IC-821H', 'IC-970'].every((n) => sat.includes(n)), sat.join(', '));
  });
});

describe('the radio settings’ Hamlib model check', () => {
  const list = async () => ({ kind: 'ok' as const, items: parseModelList(LISTING) });
  const hamlib = (o: Partial<RadioSettings>): RadioSettings => ({ ...defaultRadioSettings(), rig_model: 'hamlib', serial_device: '/dev/ttyUSB0', baud_rate: 9600, ...o });
  const refused = (field: string) => (e: Error) => e instanceof AppError && e.status === 400 && e.code === 'unknown_hamlib_model' && (e.details as { field: string }).field === field;

  it('refuses a model the list lacks, naming the field (main rig and uplink_rig), and takes one it has', async () => {
    await assert.rejects(checkHamlibModels(hamlib({ hamlib_model: 999999 }), list), refused('hamlib_model'));
    await checkHamlibModels(hamlib({ hamlib_model: 1020 }), list);
    const up = { ...hamlib({}), hamlib_model: 4242 };
    await assert.rejects(checkHamlibModels({ ...defaultRadioSettings(), uplink_rig: { rig_model: up.rig_model, transport: 'usb', serial_device: '/dev/ttyUSB1', baud_rate: 9600, civ_address: '0xA4', hamlib_model: 4242, hamlib_address: '', wifi_host: '', wifi_username: '', wifi_password: '', wifi_control_port: 50001 } }, list), refused('uplink_rig.hamlib_model'));
  });

  it('asks nothing where no model is to be checked: another rig, model 0, an external rigctld; and takes any model when the list is not there', async () => {
    let asked = 0;
    const counted = async () => {
      asked++;
      return list();
    };
    await checkHamlibModels({ ...defaultRadioSettings(), hamlib_model: 999999 }, counted); // rigA
    await checkHamlibModels(hamlib({ hamlib_model: 0 }), counted);
    await checkHamlibModels(hamlib({ hamlib_model: 999999, hamlib_address: '192.168.1.20:4532' }), counted);
    assert.equal(asked, 0);
    await checkHamlibModels(hamlib({ hamlib_model: 999999 }), async () => ({ kind: 'missing', note: 'x' }));
  });
});

describe('the station’s modes in Hamlib’s spelling', () => {
  it('every mode the station sets has a Hamlib name, and reads back as the station spells it', () => {
    for (const m of RIG_MODES) assert.equal(radioModeOf(hamlibModeFor(m)), m);
    assert.deepEqual(['USB-D', 'CW-R', 'FM-D', 'DV', 'FM'].map(hamlibModeFor), ['PKTUSB', 'CWR', 'PKTFM', 'D-STAR', 'FM']);
    assert.equal(radioModeOf('WFM'), 'WFM');
    assert.throws(() => hamlibModeFor('SSB'), RangeError);
  });
});
