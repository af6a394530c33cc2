import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { build } from 'esbuild';
import * as v from 'valibot';
import { lazyStandardSource, valibotLazyStandard } from '../../src/native/valibot-lazy-standard.mjs';

// build.mjs bundles valibot with each schema's Standard Schema interface made on first read
// (src/native/valibot-lazy-standard.mjs): the server never reads it, and made eagerly it was ~6,300
// of the steady heap's objects. The bundled valibot must validate exactly as the package does.

const root = join(import.meta.dirname, '..', '..');

/** valibot as the server bundle has it: built through the plugin, loaded as CommonJS. */
async function bundledValibot(): Promise<typeof v> {
  const out = await build({
    stdin: { contents: "module.exports = require('valibot');", resolveDir: root, loader: 'js' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    plugins: [valibotLazyStandard],
  });
  const text = out.outputFiles[0]!.text;
  assert.ok(text.includes('_standardProperty'), 'the plugin replaced valibot\'s eager function');
  const mod = { exports: {} as typeof v };
  new Function('module', 'exports', 'require', text)(mod, mod.exports, createRequire(join(root, 'package.json')));
  return mod.exports;
}

/** One schema of each kind the routes use, piped and spread (optional, nullable, pipe copy a schema). */
function schemaOf(lib: typeof v) {
  return lib.object({
    name: lib.pipe(lib.string(), lib.trim(), lib.minLength(1, 'needs a name'), lib.maxLength(8)),
    el_deg: lib.optional(lib.pipe(lib.number(), lib.minValue(0), lib.maxValue(90)), 10),
    mode: lib.nullable(lib.picklist(['FM', 'SSB'])),
    ids: lib.array(lib.pipe(lib.string(), lib.regex(/^[a-z0-9-]+$/))),
    kind: lib.variant('type', [lib.object({ type: lib.literal('a'), n: lib.number() }), lib.object({ type: lib.literal('b') })]),
  });
}

const inputs: unknown[] = [
  { name: ' ISS ', mode: 'FM', ids: ['iss', 'so-50'], kind: { type: 'a', n: 1 } },
  { name: '', el_deg: 95, mode: 'AM', ids: ['ISS!'], kind: { type: 'c' } },
  { name: 'toolongname', mode: null, ids: [], kind: { type: 'b' } },
  'not an object',
  null,
];

/** What a parse says, without the issues' references to the schema objects (two libraries' own). */
const summary = (r: { success: boolean; output: unknown; issues?: unknown }) =>
  JSON.stringify({ success: r.success, output: r.success ? r.output : null, issues: (r.issues as Array<{ message: string; path?: Array<{ key: unknown }> }> | undefined)?.map((i) => [i.message, i.path?.map((p) => p.key)]) });

describe('valibot in the server bundle (Standard Schema properties made on first read)', () => {
  it('parses every input exactly as the package does, through safeParse and through ~standard', async () => {
    const lib = await bundledValibot();
    const ours = schemaOf(lib);
    const theirs = schemaOf(v);
    for (const input of inputs) {
      assert.equal(summary(lib.safeParse(ours, input)), summary(v.safeParse(theirs, input)), `safeParse of ${JSON.stringify(input)}`);
      const a = ours['~standard'].validate(input) as { value?: unknown; issues?: Array<{ message: string }> };
      const b = theirs['~standard'].validate(input) as { value?: unknown; issues?: Array<{ message: string }> };
      assert.deepEqual({ value: a.value, issues: a.issues?.map((i) => i.message) }, { value: b.value, issues: b.issues?.map((i) => i.message) });
    }
  });

  it('a schema holds no ~standard object until it is read, then keeps the one it made', async () => {
    const lib = await bundledValibot();
    const s = lib.pipe(lib.string(), lib.maxLength(3));
    const before = Object.getOwnPropertyDescriptor(s, '~standard');
    // An accessor, one getter for every schema: no object, closure or context per schema.
    assert.equal(typeof before?.get, 'function', 'an accessor until read');
    assert.equal(before?.get, Object.getOwnPropertyDescriptor(lib.number(), '~standard')?.get, 'one getter shared by every schema');
    assert.ok(!Object.keys(s).includes('~standard'), 'not enumerable: a spread copies no getter result');
    const first = s['~standard'];
    assert.equal(first.vendor, 'valibot');
    assert.equal(first.version, 1);
    assert.equal(s['~standard'], first, 'made once');
    assert.equal(Object.getOwnPropertyDescriptor(s, '~standard')?.value, first, 'kept as valibot keeps it');
    assert.notEqual(lib.string()['~standard'], first, 'each schema its own');
  });

  it('the build fails rather than bundle an eager valibot when the function it replaces changes', () => {
    assert.throws(() => lazyStandardSource('function _standardSchema(schema) {\n\treturn schema;\n}'), /not the one this plugin replaces/);
  });
});
