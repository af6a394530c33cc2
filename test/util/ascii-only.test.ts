import assert from 'node:assert/strict';
import { SourceMap } from 'node:module';
import { describe, it } from 'node:test';
import { transform } from 'esbuild';
import { asciiOnly } from '../../src/native/ascii-only.mjs';

// build.mjs escapes what esbuild leaves outside ASCII in the server's scripts (regex literals): one
// such character makes V8 hold the whole script's source as a two-byte string.

const NON_ASCII = /[^\x00-\x7f]/;

describe('asciiOnly (build.mjs: the server scripts are ASCII, so V8 keeps their sources one byte a character)', () => {
  it('escaped code means what it meant: regex literals with and without u, a class, an identifier, a string', () => {
    const source = [
      'const mice = /^\u2018([0-9a-f]{10})(.*)$/i;',
      'const astral = /^\u{1F4E1}+$/u;',
      'const inClass = /^[\u00b0\u2018-\u2019]+$/;',
      'const caf\u00e9 = "d\u00e9j\u00e0 \u2192";',
      'module.exports = { a: mice.exec("\u20180123456789abcdrest"), b: astral.test("\u{1F4E1}\u{1F4E1}"), c: astral.test("\\ud83d"), d: inClass.test("\u00b0\u2019"), e: inClass.test("x"), f: caf\u00e9 };',
    ].join('\n');
    const map = { version: 3, sources: ['s.js'], names: [], mappings: '' };
    const { code } = asciiOnly(source, map);
    assert.ok(!NON_ASCII.test(code), code);
    const run = (text: string) => {
      const m = { exports: {} as Record<string, unknown> };
      new Function('module', text)(m);
      return m.exports;
    };
    const before = run(source);
    assert.deepEqual(run(code), before);
    assert.equal(before.b, true);
    assert.equal(before.c, false);
    assert.equal(before.d, true);
  });

  it('a mark after an escaped character on its line maps to the same source place as before', async () => {
    const source = ['export function parse(rest: string): string | null {', '  const m = rest.match(/^\u2018\u2019(x+)$/i); return m ? MARK(m[1]) : null;', '}', 'declare function MARK(s: string): string;', ''].join('\n');
    const out = await transform(source, { loader: 'ts', format: 'cjs', minifyWhitespace: true, sourcemap: 'external', sourcefile: 'src/p.ts' });
    const map = JSON.parse(out.map);
    assert.ok(NON_ASCII.test(out.code), 'esbuild left the regex as written (else this test shows nothing)');
    const escaped = asciiOnly(out.code, map);
    const place = (code: string, m: typeof map) => {
      const lines = code.split('\n');
      const line = lines.findIndex((l) => l.includes('MARK('));
      const e = new SourceMap(m).findEntry(line, lines[line].indexOf('MARK(')) as { originalLine?: number; originalColumn?: number };
      return { line: e.originalLine, column: e.originalColumn };
    };
    const was = place(out.code, map);
    assert.equal(was.line, 1);
    assert.deepEqual(place(escaped.code, escaped.map), was);
    // Without moving the mappings the same lookup lands 10 characters early, elsewhere.
    assert.notDeepEqual(place(escaped.code, map), was);
    assert.ok(!NON_ASCII.test(escaped.code));
  });

  it('ASCII code and its map come back as they were', () => {
    const map = { version: 3, sources: ['a.js'], names: [], mappings: 'AAAA,CAAC' };
    const r = asciiOnly('let a = 1;', map);
    assert.equal(r.code, 'let a = 1;');
    assert.equal(r.map, map);
  });
});
