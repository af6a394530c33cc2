import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { applicableFields, changes, fieldsOf, fitsPattern, fromInput, labelOf, onlyWhen, optionText, pickFields, requestSchema, setAt, summary, toInput, type Field } from '../../ui/lib/schema-form.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { linkFields, linksOnTheirTransport, RIG_LABELS, UPLINK_RIG_START } from '../../ui/components/settings/rig-fields.js';

// The settings forms are built from the live /docs: these read the real document.

describe('schema-form: form fields from the /docs JSON Schema', () => {
  let s: TestServer;
  let docs: unknown;
  before(async () => {
    s = await startServer();
    docs = (await s.get('/docs', { accept: 'application/json' })).body;
  });
  after(() => s.stop());
  const fields = (path: string) => fieldsOf(requestSchema(docs, path)!);
  const byName = (fs: Field[], n: string) => fs.find((f) => f.path === n)!;

  it('maps every settings resource the page edits to fields of the right kind', () => {
    const gps = fields('/api/v1/settings/gps');
    assert.deepEqual(gps.map((f) => [f.path, f.kind]), [
      ['connection_mode', 'enum'],
      ['serial_device', 'text'],
      ['baud_rate', 'enum'],
      ['bluetooth_address', 'text'],
      ['bluetooth_channel', 'integer'],
    ]);
    assert.deepEqual(byName(gps, 'baud_rate').options!.slice(0, 2), [1200, 2400]);
    assert.deepEqual([byName(gps, 'bluetooth_channel').min, byName(gps, 'bluetooth_channel').max], [1, 30]);
    const dev = fields('/api/v1/settings/developer-overrides');
    const eligible = byName(dev, 'force_iss_video_eligible');
    assert.equal(eligible.kind, 'enum', 'a nullable boolean is a tri-state choice');
    assert.equal(eligible.nullable, true);
    assert.deepEqual(eligible.options, [true, false]);
    assert.equal(byName(dev, 'enabled').kind, 'boolean');
    assert.equal(byName(dev, 'force_scene').nullable, true);
    const src = fields('/api/v1/datasets/sources');
    assert.equal(byName(src, 'sources').kind, 'list');
    assert.deepEqual(labelOf('fetch_timeout_ms'), { label: 'Fetch timeout', unit: 'ms' });
    assert.deepEqual(labelOf('stream_url'), { label: 'Stream URL', unit: null });
    assert.deepEqual(labelOf('force_iss_video_eligible').label, 'Force ISS video eligible');
    assert.deepEqual(labelOf('alt_m'), { label: 'Alt', unit: 'm' });
    assert.deepEqual(labelOf('elevation_deg'), { label: 'Elevation', unit: '°' });
    assert.deepEqual(labelOf('tone_hz').unit, 'Hz');
    assert.equal(requestSchema(docs, '/api/v1/nothing'), null);
  });

  it('turns input text into values, leaving bad numbers for the API to name', () => {
    const dev = fields('/api/v1/settings/developer-overrides');
    const eligible = byName(dev, 'force_iss_video_eligible');
    assert.equal(fromInput(eligible, 'true'), true);
    assert.equal(fromInput(eligible, ''), null);
    const ch = byName(fields('/api/v1/settings/gps'), 'bluetooth_channel');
    assert.equal(fromInput(ch, '7'), 7);
    assert.equal(fromInput(ch, 'seven'), 'seven');
    const list = byName(fields('/api/v1/datasets/sources'), 'sources');
    assert.deepEqual(fromInput(list, 'https://a/x.json\n /tmp/b.tle \n'), ['https://a/x.json', '/tmp/b.tle']);
    assert.equal(toInput(list, ['a', 'b']), 'a, b');
    assert.equal(toInput({ ...list, multiline: true }, ['a', 'b']), 'a\nb');
    const device = byName(fields('/api/v1/settings/gps'), 'serial_device');
    assert.equal(fitsPattern(device, '/dev/ttyACM0'), true);
    assert.equal(fitsPattern(device, 'ttyACM0'), false, 'the pattern is a hint for the input');
  });

  it('picks, orders, relabels and hides fields; nested objects become groups', () => {
    const all = fields('/api/v1/settings/gps');
    const picked = pickFields(all, ['baud_rate', { name: 'serial_device', label: 'Port', help: 'h' }, 'no_such_field']);
    assert.deepEqual(picked.map((f) => [f.path, f.label, f.unit, f.help]), [
      ['baud_rate', 'Baud rate', null, undefined],
      ['serial_device', 'Port', null, 'h'],
    ]);
    assert.deepEqual(pickFields(all, undefined, ['bluetooth_address', 'bluetooth_channel']).map((f) => f.path), ['connection_mode', 'serial_device', 'baud_rate']);
    const loc = fields('/api/v1/location');
    const add = byName(loc, 'add_profile');
    assert.equal(add.kind, 'group');
    const point = add.children!.find((f) => f.name === 'point')!;
    assert.deepEqual(point.children!.map((f) => [f.path, f.kind, f.label, f.unit, f.min, f.max]), [
      ['add_profile.point.lat', 'number', 'Lat', null, -90, 90],
      ['add_profile.point.lon', 'number', 'Lon', null, -180, 180],
      ['add_profile.point.alt_m', 'number', 'Alt', 'm', -500, 10000],
    ]);
    assert.deepEqual(pickFields(loc, ['add_profile.point.lat']).map((f) => f.path), ['add_profile.point.lat'], 'a nested field can be shown on its own');
    assert.deepEqual(pickFields(loc, ['add_profile'], ['add_profile.name'])[0].children!.map((f) => f.name), ['id', 'point', 'locator', 'alt_m'], 'hidden reaches into groups');
  });

  it('describes what the server answered for the saved fields', () => {
    const dev = pickFields(fields('/api/v1/settings/developer-overrides'), undefined).map((f) => ({ ...f, nullLabel: 'not forced' }));
    const state = { enabled: true, force_scene: null, force_iss_video_eligible: false, show_debug_badge: false };
    assert.equal(summary(dev, state, ['enabled', 'force_scene', 'force_iss_video_eligible']), 'Enabled: yes · Force scene: not forced · Force ISS video eligible: no');
    const src = fields('/api/v1/datasets/sources');
    assert.equal(summary(src, { fetch_timeout_ms: 5000 }, ['fetch_timeout_ms']), 'Fetch timeout: 5000 ms');
  });

  it('keeps only the fields of the chosen transport, by the draft value', () => {
    const radio = pickFields(fields('/api/v1/settings/radio'), [
      'transport',
      ...onlyWhen({ path: 'transport', is: ['wifi'] }, [{ name: 'wifi_host' }, { name: 'wifi_password', secret: true }]),
      ...onlyWhen({ path: 'transport', is: ['usb'] }, [{ name: 'serial_device' }]),
      'civ_address',
    ]);
    assert.deepEqual(applicableFields(radio, { transport: 'usb' }).map((f) => f.path), ['transport', 'serial_device', 'civ_address']);
    assert.deepEqual(applicableFields(radio, { transport: 'wifi' }).map((f) => f.path), ['transport', 'wifi_host', 'wifi_password', 'civ_address']);
    assert.equal(applicableFields(radio, { transport: 'wifi' })[2].secret, true, 'the spec’s own overrides stay');
  });

  it('shows enum options by their labels; the value stays the API’s', () => {
    const [rig] = pickFields(fields('/api/v1/settings/radio'), [{ name: 'rig_model', label: 'Rig', optionLabels: RIG_LABELS }]);
    assert.deepEqual(rig.options, ['rigA', 'rigB', 'ft817', 'ft818', 'ft857', 'ft897', 'hamlib']);
    assert.deepEqual(rig.options!.map((o) => optionText(rig, o)), [
      'Icom IC-705',
      'Icom IC-9700 (not validated)',
      'Yaesu FT-817 (not validated)',
      'Yaesu FT-818 (not validated)',
      'Yaesu FT-857 (not validated)',
      'Yaesu FT-897 (not validated)',
      'Another radio, through Hamlib (not validated)',
    ]);
    assert.equal(fromInput(rig, 'rigB'), 'rigB');
    assert.equal(summary([rig], { rig_model: 'rigB' }, ['rig_model']), 'Rig: Icom IC-9700 (not validated)');
    assert.equal(optionText({}, true), 'yes');
  });

  it('offers a nullable group as a choice: its own fields by their own rules, the summary saying the choice', () => {
    const radio = pickFields(fields('/api/v1/settings/radio'), [
      ...linkFields('', 'main'),
      { name: 'uplink_rig', label: 'Uplink radio', presence: { label: 'Radios', none: 'One radio', set: 'Two radios', initial: UPLINK_RIG_START }, fields: linkFields('uplink_rig.', 'uplink') },
    ]);
    const up = radio.find((f) => f.path === 'uplink_rig')!;
    assert.equal(up.kind, 'group');
    assert.equal(up.nullable, true);
    const shown = (fs: Field[], values: unknown) => applicableFields(fs, values).map((f) => f.path);
    const main = { rig_model: 'rigA', transport: 'usb', hamlib_address: '' };
    assert.deepEqual(shown(radio, { ...main, uplink_rig: null }), ['rig_model', 'transport', 'serial_device', 'baud_rate', 'civ_address', 'uplink_rig']);
    assert.deepEqual(shown(radio, { ...main, rig_model: 'ft818' }), ['rig_model', 'serial_device', 'baud_rate', 'uplink_rig'], 'an FT-818: no CI-V address, no transport');
    assert.deepEqual(shown(radio, { ...main, rig_model: 'hamlib' }), ['rig_model', 'hamlib_address', 'hamlib_model', 'serial_device', 'baud_rate', 'uplink_rig']);
    assert.deepEqual(shown(radio, { ...main, rig_model: 'hamlib', hamlib_address: 'shack:4532' }), ['rig_model', 'hamlib_address', 'uplink_rig'], 'a rigctld the operator runs');
    assert.deepEqual(shown(radio, { ...main, transport: 'wifi' }), ['rig_model', 'transport', 'wifi_host', 'wifi_control_port', 'wifi_username', 'wifi_password', 'civ_address', 'uplink_rig']);
    // The uplink radio's fields read the uplink radio's choices, not the main rig's.
    const values = { ...main, uplink_rig: { ...UPLINK_RIG_START, transport: 'wifi' } };
    assert.deepEqual(shown(up.children!, values), ['uplink_rig.rig_model', 'uplink_rig.transport', 'uplink_rig.wifi_host', 'uplink_rig.wifi_control_port', 'uplink_rig.wifi_username', 'uplink_rig.wifi_password', 'uplink_rig.civ_address']);
    assert.equal(up.children!.find((f) => f.path === 'uplink_rig.wifi_password')!.secret, true, 'child specs keep their overrides');
    assert.deepEqual(linksOnTheirTransport({ ...values, rig_model: 'ft818', transport: 'wifi', uplink_rig: { ...values.uplink_rig, rig_model: 'rigB' } }), {
      ...values,
      rig_model: 'ft818',
      transport: 'usb',
      uplink_rig: { ...values.uplink_rig, rig_model: 'rigB', transport: 'usb' },
    }, 'a rig without Wi-Fi is on USB');
    assert.equal(linksOnTheirTransport(values), values, 'nothing to change: the same draft');

    assert.equal(summary(radio, { ...main, uplink_rig: null }, ['uplink_rig']), 'Radios: One radio');
    const two = { ...main, uplink_rig: { ...UPLINK_RIG_START, rig_model: 'ft818', serial_device: '/dev/ttyUSB1', baud_rate: 9600 } };
    assert.equal(summary(radio, two, ['uplink_rig']), 'Radios: Two radios · Uplink radio (Rig: Yaesu FT-818 (not validated), Serial device: /dev/ttyUSB1, Baud rate: 9600)');
    assert.equal(summary(radio, two, ['rig_model']), 'Rig: Icom IC-705', 'the main rig alone');
  });

  it('sends only what changed, a changed nested object whole', () => {
    const before = { a: 1, b: { c: 2, d: [1] }, e: 'x' };
    const after = setAt(setAt(before, 'b.c', 3), 'e', 'x');
    assert.deepEqual(changes(before, after), { b: { c: 3, d: [1] } }, 'the API validates a shallow partial');
    assert.deepEqual(before.b.c, 2, 'setAt copies');
    assert.deepEqual(changes(before, before), {});
  });
});
