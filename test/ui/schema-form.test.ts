import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { changes, fieldsOf, fromInput, labelOf, requestSchema, setAt, toInput, type Field } from '../../ui/lib/schema-form.js';
import { startServer, type TestServer } from '../helpers/server.js';

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
    assert.equal(toInput(list, ['a', 'b']), 'a\nb');
  });

  it('sends only what changed, nested objects as partial objects', () => {
    const before = { a: 1, b: { c: 2, d: [1] }, e: 'x' };
    const after = setAt(setAt(before, 'b.c', 3), 'e', 'x');
    assert.deepEqual(changes(before, after), { b: { c: 3 } });
    assert.deepEqual(before.b.c, 2, 'setAt copies');
    assert.deepEqual(changes(before, before), {});
  });
});
