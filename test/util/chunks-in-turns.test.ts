import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chunksInTurns, IN_TURNS_BANNER } from '../../src/native/chunks-in-turns.mjs';
import { decodeMappings, encodeMappings } from '../../src/native/compose-maps.mjs';

// esbuild's CommonJS form of `import("./chunks/top.cjs")`, as build.mjs finds it in the server.
const site = (path: string) => `Promise.resolve().then(()=>T(require("${path}")))`;

// A metafile: main imports `shared` statically; the lazy `top` needs `mid`, which needs `leaf`
// and `shared`.
const outputs = {
  'dist/main.cjs': {
    imports: [
      { path: 'dist/chunks/shared.cjs', kind: 'import-statement' },
      { path: 'dist/chunks/top.cjs', kind: 'dynamic-import' },
      { path: 'dist/chunks/other.cjs', kind: 'dynamic-import' },
      { path: 'node:http', kind: 'dynamic-import' },
    ],
  },
  'dist/chunks/shared.cjs': { imports: [] },
  'dist/chunks/leaf.cjs': { imports: [] },
  'dist/chunks/mid.cjs': {
    imports: [
      { path: 'dist/chunks/leaf.cjs', kind: 'import-statement' },
      { path: 'dist/chunks/shared.cjs', kind: 'import-statement' },
    ],
  },
  'dist/chunks/top.cjs': {
    imports: [
      { path: 'dist/chunks/mid.cjs', kind: 'import-statement' },
      { path: 'node:fs', kind: 'import-statement' },
    ],
  },
  'dist/chunks/other.cjs': {
    imports: [
      { path: 'dist/chunks/leaf.cjs', kind: 'import-statement' },
      { path: 'dist/chunks/top.cjs', kind: 'dynamic-import' },
    ],
  },
};

test('each import of a chunk waits for the chunks it needs, dependencies first, those the script loads itself left out', () => {
  const code = `var a=1;exports.top=()=>${site('./chunks/top.cjs')};exports.other=()=>${site('./chunks/other.cjs')};var after=2;\nvar next=3;`;
  // One mapping at `var after` on the first line, one at the start of the second.
  const map = { version: 3, sources: ['x.ts'], names: [], mappings: encodeMappings([[[code.indexOf('var after'), 0, 4, 0]], [[0, 0, 5, 0]]]) };
  const out = chunksInTurns(code, map, 'dist/main.cjs', outputs);
  assert.equal(out.sites, 2);
  assert.ok(out.code.includes(`exports.top=()=>__satInTurns(["./chunks/leaf.cjs","./chunks/mid.cjs","./chunks/top.cjs"]).then(()=>T(require("./chunks/top.cjs")))`));
  assert.ok(out.code.includes(`exports.other=()=>__satInTurns(["./chunks/leaf.cjs","./chunks/other.cjs"]).then(()=>T(require("./chunks/other.cjs")))`));
  const segs = decodeMappings(out.map.mappings);
  assert.equal(segs[0][0][0], out.code.indexOf('var after'), 'the mapping after both sites moved with them');
  assert.equal(segs[1][0][0], 0, 'the next line is untouched');
});

test('paths are relative to the script that imports, in a chunk as in the entry', () => {
  const out = chunksInTurns(`x=()=>${site('./top.cjs')}`, { version: 3, sources: [], names: [], mappings: '' }, 'dist/chunks/other.cjs', outputs);
  // `other` loads `leaf` itself; `shared` stays in the list (at run time it is already loaded).
  assert.ok(out.code.includes('__satInTurns(["./shared.cjs","./mid.cjs","./top.cjs"])'), out.code);
});

test('a script whose code does not show every dynamic import the metafile names fails the build', () => {
  assert.throws(() => chunksInTurns(`x=()=>${site('./chunks/top.cjs')}`, { version: 3, sources: [], names: [], mappings: '' }, 'dist/main.cjs', outputs), /2 dynamic imports of chunks in its metafile, 1 found/);
});

test('at run time each chunk not yet loaded is required in a turn of its own, after the asking one, and a failed load is tried again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'satstation-turns-'));
  try {
    mkdirSync(join(dir, 'chunks'));
    const chunk = (name: string, needs: string[]) =>
      writeFileSync(join(dir, 'chunks', `${name}.cjs`), `${needs.map((n) => `require("./${n}.cjs");`).join('')}globalThis.__turnsSeen.push(["${name}",globalThis.__turnNow]);exports.name="${name}";`);
    chunk('shared', []);
    chunk('mid', ['leaf', 'shared']);
    chunk('top', ['mid']);
    chunk('other', ['leaf']);
    const main = `var T=(m)=>m;require("./chunks/shared.cjs");exports.top=()=>${site('./chunks/top.cjs')};exports.other=()=>${site('./chunks/other.cjs')};`;
    const out = chunksInTurns(main, { version: 3, sources: [], names: [], mappings: '' }, 'dist/main.cjs', outputs);
    writeFileSync(join(dir, 'main.cjs'), IN_TURNS_BANNER + out.code);

    const seen: Array<[string, number]> = [];
    const names = () => seen.map(([n]) => n);
    const g = globalThis as unknown as { __turnsSeen: typeof seen; __turnNow: number };
    g.__turnsSeen = seen;
    g.__turnNow = 0;
    let ticking = true;
    const tick = () => {
      g.__turnNow++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const m = createRequire(join(dir, 'x.cjs'))('./main.cjs') as { top(): Promise<{ name: string }>; other(): Promise<{ name: string }> };
    assert.deepEqual(names(), ['shared']);

    // `leaf` is missing: the import fails, as a require of it would, and nothing is half kept.
    seen.length = 0;
    await assert.rejects(m.top(), /Cannot find module/);
    assert.equal(seen.length, 0);

    chunk('leaf', []);
    const asked = g.__turnNow;
    const top = await m.top();
    assert.equal(top.name, 'top');
    assert.deepEqual(names(), ['leaf', 'mid', 'top'], 'dependencies first');
    const turns = seen.map(([, t]) => t);
    assert.ok(turns[0] > asked, 'nothing is loaded in the asking turn');
    assert.equal(new Set(turns).size, 3, `one chunk per turn: ${JSON.stringify(seen)}`);

    // `leaf` is loaded now: `other` alone is left, and a second import of `top` loads nothing.
    seen.length = 0;
    assert.equal((await m.other()).name, 'other');
    assert.equal((await m.top()).name, 'top');
    assert.deepEqual(names(), ['other']);
    ticking = false;
  } finally {
    delete (globalThis as Record<string, unknown>).__turnsSeen;
    delete (globalThis as Record<string, unknown>).__turnNow;
    rmSync(dir, { recursive: true, force: true });
  }
});
