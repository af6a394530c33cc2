import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, afterEach, describe, it } from 'node:test';
import * as v from 'valibot';
import { EnabledArea } from '../../src/util/enabled-area.js';
import { JsonStore } from '../../src/store/json-store.js';
import { setLogLevel, setLogSink } from '../../src/util/logger.js';
import { tmpDataDir } from '../helpers/server.js';

// The one mechanism behind the lazy areas (radio, rotator, Hamlib, logbook): what loads when, what
// a loaded service is told, and what happens after stop. Each area is this class plus its resting
// answers (test/system/lazy-areas.test.ts checks the areas themselves on the real server).

const Schema = v.object({ a: v.boolean(), b: v.boolean(), n: v.number() });
type S = v.InferOutput<typeof Schema>;
const dir = tmpDataDir('satstation-area-');
let files = 0;
const settle = () => new Promise((r) => setTimeout(r, 5));

/** A service that records what happened to it; `loadGate` holds its load until released. */
function fixture(o: { enabled?: (s: S) => boolean; boot?: 'wait' | 'background'; failLoads?: number; initial?: Partial<S> } = {}) {
  const store = new JsonStore({ dir, name: `area-${files++}`, schema: Schema, defaults: () => ({ a: false, b: false, n: 0, ...o.initial }) });
  const events: string[] = [];
  let failures = o.failLoads ?? 0;
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => (release = r));
  let gated = false;
  const area = new EnabledArea({
    name: 'test',
    what: 'the test service',
    settings: store,
    enabled: o.enabled ?? ((s) => s.a),
    boot: o.boot,
    load: async () => {
      events.push('load');
      if (gated) await gate;
      if (failures-- > 0) throw new Error('no such module');
      return { start: async () => void events.push('start'), stop: async () => void events.push('stop') };
    },
    follow: (_svc, prev, next) => void events.push(`follow ${prev.n}→${next.n}`),
  });
  return { store, area, events, holdLoads: () => (gated = true), release };
}

describe('EnabledArea: the lazy areas\' one mechanism', () => {
  const lines: string[] = [];
  setLogSink((l) => lines.push(l));
  afterEach(() => {
    lines.length = 0;
    setLogLevel('silent');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('loads nothing while its settings are off; the first use loads and starts it once', async () => {
    const { area, events } = fixture();
    await area.start();
    assert.equal(area.loaded, false);
    assert.equal(area.current, null);
    const [x, y] = await Promise.all([area.engine(), area.engine()]);
    assert.equal(x, y);
    assert.deepEqual(events, ['load', 'start']);
    assert.equal(area.loaded, true);
    await area.stop();
    assert.deepEqual(events, ['load', 'start', 'stop']);
  });

  it('enabled at boot: start() waits for the load, or with boot "background" goes on while it loads', async () => {
    const waits = fixture({ initial: { a: true } });
    await waits.area.start();
    assert.equal(waits.area.loaded, true);
    await waits.area.stop();

    const bg = fixture({ initial: { a: true }, boot: 'background' });
    bg.holdLoads();
    await bg.area.start();
    assert.equal(bg.area.loaded, false, 'the boot did not wait');
    bg.release();
    await bg.area.engine();
    assert.deepEqual(bg.events, ['load', 'start']);
    await bg.area.stop();
  });

  it('its own enabled rule decides (the Hamlib servers: either one on)', async () => {
    const { store, area } = fixture({ enabled: (s) => s.a || s.b });
    await area.start();
    await store.update({ n: 1 });
    await settle();
    assert.equal(area.loaded, false, 'a change that enables nothing loads nothing');
    await store.update({ b: true });
    await settle();
    assert.equal(area.loaded, true);
    await area.stop();
  });

  it('a loaded service follows every settings change (previous and new), also the one that switches it off', async () => {
    const { store, area, events } = fixture();
    await area.start();
    await store.update({ a: true, n: 1 });
    await settle();
    await store.update({ n: 2 });
    await store.update({ a: false, n: 3 });
    await settle();
    assert.deepEqual(events, ['load', 'start', 'follow 0→1', 'follow 1→2', 'follow 2→3']);
    await area.stop();
  });

  it('after stop no change loads anything', async () => {
    const { store, area, events } = fixture();
    await area.start();
    await area.stop();
    await store.update({ a: true });
    await settle();
    assert.deepEqual(events, []);
    assert.equal(area.loaded, false);
  });

  it('a load a settings change started that fails is logged, and the next use tries again', async () => {
    setLogLevel('warn');
    const { store, area, events } = fixture({ failLoads: 1 });
    await area.start();
    await store.update({ a: true });
    await settle();
    assert.equal(area.loaded, false);
    assert.ok(lines.some((l) => /WARN .*the test service did not load: no such module/.test(l)), lines.join('\n'));
    await area.engine();
    assert.deepEqual(events, ['load', 'load', 'start']);
    await area.stop();
  });
});
