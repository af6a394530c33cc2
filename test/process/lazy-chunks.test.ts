import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { tmpDataDir } from '../helpers/server.js';
import { spawnServer, type SpawnedServer } from '../helpers/spawn-server.js';

// The built server loads radio control, the LAN transport, the APRS station and the serial
// binding from their own chunks, read from disk only when first needed (build.mjs splits them,
// src/util/lazy-part.ts loads them). Checked on the build's own import graph (esbuild's
// metafile, dist/server-meta.json) and on a running server's memory map.

const root = join(import.meta.dirname, '..', '..');

/** Modules that must not be in what dist/main.cjs imports statically (directly or through shared chunks). */
const LAZY = [
  /^src\/radio\/(radio-service|controller|civ-bus|rig-ic705|rig-ic9700|rig-connection|auto-track|two-radio-rig|two-radio-connection)\.ts$/,
  // Issue 34: a rig's driver loads when its model is first opened, not with radio control.
  /^src\/radio\/yaesu\/(cat-port|yaesu-driver|yaesu-line)\.ts$/,
  /^src\/radio\/rigctld\/(rigctld-client|rigctld-line|hamlib-driver|hamlib-line|rigctld-process)\.ts$/,
  /^src\/radio\/lan\/(lan-hub|lan-session|lan-stream|audio-tx)\.ts$/,
  /^src\/links\/serial-driver\.ts$/,
  /^src\/aprs\/(aprs-station|receive|send)\.ts$/,
  /^src\/aprs\/log\/(aprs-log|ring|entry-ids|log-line|compaction|log-reader|log-writer)\.ts$/,
  /^src\/store\/(line-appender|io-error)\.ts$/,
  /^src\/logbook\/(logbook-service|journal|journal-events|push-queue|qso-fill|adif|cloudlog-client|lotw-names)\.ts$/,
  /^src\/aprs\/(tnc|transport|igate|modem|link)\//,
  /^src\/rotator\/(rotator-service|planner)\.ts$/,
  /^src\/rotator\/(drivers|protocol)\//,
  /^src\/rotator\/plan\/(candidates|point|tracker)\.ts$/,
  /^src\/hamlib\/(hamlib-service|line-server|answer-rig|answer-rot|rig-description|station-errors|station-modes)\.ts$/,
  /^src\/hamlib\/protocol\//,
  // Issue 37: the recorder loads when recording is enabled or first listed.
  /^src\/recording\/(recording-service|recording-library|capture-source|alsa-capture|opus-encoder|audio-sink|audio-file|wav|resample|pcm-level|journal-lines)\.ts$/,
  /node_modules\/(serialport|@serialport)\//,
];

interface Meta {
  outputs: Record<string, { inputs: Record<string, unknown>; imports: Array<{ path: string; kind: string; external?: boolean }> }>;
}

describe('the server bundle loads only what is enabled', () => {
  let out: string;
  let meta: Meta;
  let srv: SpawnedServer | null = null;
  before(() => {
    out = tmpDataDir('satstation-split-');
    execFileSync(process.execPath, ['build.mjs', '--server-only', '--out', out], { cwd: root, stdio: 'pipe' });
    meta = JSON.parse(readFileSync(join(out, 'server-meta.json'), 'utf8'));
  });
  after(() => {
    if (srv) process.kill(-srv.child.pid!, 'SIGKILL');
  });

  /** Every output dist/server.cjs loads at start: main.cjs and the chunks it imports statically, transitively. */
  function bootOutputs(): string[] {
    const key = (f: string) => Object.keys(meta.outputs).find((k) => k.endsWith(f))!;
    const seen = new Set<string>();
    const walk = (k: string) => {
      if (seen.has(k)) return;
      seen.add(k);
      for (const i of meta.outputs[k].imports) if (i.kind === 'import-statement' && !i.external) walk(i.path);
    };
    walk(key('/main.cjs'));
    return [...seen];
  }

  it('no radio, LAN, APRS-station, rotator, Hamlib, recording or serial module, and no node:dgram, crypto, zlib or fs/promises, is in what boot loads', () => {
    const boot = bootOutputs();
    const inputs = boot.flatMap((k) => Object.keys(meta.outputs[k].inputs));
    assert.ok(inputs.some((p) => p === 'src/main.ts'));
    const eager = inputs.filter((p) => LAZY.some((re) => re.test(p)));
    assert.deepEqual(eager, [], 'loaded at boot although lazy');
    const builtins = boot.flatMap((k) => meta.outputs[k].imports.filter((i) => i.external).map((i) => i.path));
    assert.ok(!builtins.includes('node:dgram'), 'UDP (the LAN transport) loaded at boot');
    // crypto and zlib (~2.5 MiB of RSS) are read on first use (src/util/lazy-builtins.ts).
    for (const b of ['node:crypto', 'crypto', 'node:zlib', 'zlib']) assert.ok(!builtins.includes(b), `${b} read at boot`);
    // So is the file system's promise API, with the first asynchronous file operation.
    for (const b of ['node:fs/promises', 'fs/promises']) assert.ok(!builtins.includes(b), `${b} read at boot`);
    // They are in the build, each in a chunk of its own graph, not left out.
    const all = Object.values(meta.outputs).flatMap((o) => Object.keys(o.inputs));
    for (const re of LAZY.slice(0, 4)) assert.ok(all.some((p) => re.test(p)), `${re} is in no chunk`);
  });

  it('the logbook reads crypto at its first QSO, not when it loads (its events topic loads it for every page that subscribes)', () => {
    const chunks = Object.entries(meta.outputs).filter(([, o]) => Object.keys(o.inputs).includes('src/logbook/logbook-service.ts'));
    assert.equal(chunks.length, 1);
    const builtins = chunks[0][1].imports.filter((i) => i.external).map((i) => i.path);
    for (const b of ['node:crypto', 'crypto']) assert.ok(!builtins.includes(b), `${b} read when the logbook loads`);
  });

  it('every script of the server is ASCII, so V8 keeps each source as a one-byte string (build.mjs, src/native/ascii-only.mjs)', () => {
    const scripts = Object.keys(meta.outputs).filter((k) => k.endsWith('.cjs'));
    assert.ok(scripts.some((k) => k.includes('aprs-station-')), 'the APRS station (js-aprs-fap has a regex with U+2018) is one of them');
    const wide = scripts.filter((k) => /[^\x00-\x7f]/.test(readFileSync(resolve(root, k), 'utf8')));
    assert.deepEqual(wide, []);
  });

  it("the serial chunk reads the port lister (node:child_process, for udevadm) only at the first listing, and lists", () => {
    // src/native/lazy-port-list.mjs: opening a rig needs the binding, not the lister.
    const probe = `
      const dir = ${JSON.stringify(join(out, 'chunks'))};
      const f = require('node:fs').readdirSync(dir).find((n) => n.startsWith('serial-driver-'));
      const { nodeSerialDriver } = require(dir + '/' + f);
      const childProcess = () => process.moduleLoadList.some((m) => m === 'NativeModule child_process');
      const before = childProcess();
      nodeSerialDriver.list().then((l) => console.log(JSON.stringify({ before, after: childProcess(), array: Array.isArray(l) })));`;
    const r = JSON.parse(execFileSync(process.execPath, ['-e', probe], { cwd: out, encoding: 'utf8' }).trim().split('\n').pop()!);
    assert.deepEqual(r, { before: false, after: true, array: true });
  });

  it('a running server maps the serial binding only once a serial device is listed', async () => {
    srv = await spawnServer(process.execPath, [join(out, 'server.cjs')], {
      cwd: out,
      env: { PORT: '0', HOST: '127.0.0.1', DATA_DIR: tmpDataDir(), LOG_LEVEL: 'info', NODE_PATH: '' },
    });
    const maps = () => readFileSync(`/proc/${srv!.child.pid}/maps`, 'utf8');
    assert.equal((await fetch(srv.base + '/api/v1/radio/state')).status, 200);
    assert.doesNotMatch(maps(), /serialport\.node/);
    const ports = await fetch(srv.base + '/api/v1/radio/ports');
    assert.equal(ports.status, 200, await ports.text());
    assert.match(maps(), /serialport\.node/);
    assert.ok(!srv.output.some((l) => /radio control loaded/.test(l)), 'listing ports does not load radio control');
    const set = await fetch(srv.base + '/api/v1/settings/radio', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ enabled: true }) });
    assert.equal(set.status, 200, await set.text());
    for (let i = 0; i < 100 && !srv.output.some((l) => /radio control loaded/.test(l)); i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(srv.output.some((l) => /radio control loaded/.test(l)), srv.output.join('\n'));
  });
});
