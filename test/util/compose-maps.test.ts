import assert from 'node:assert/strict';
import { SourceMap } from 'node:module';
import { describe, it } from 'node:test';
import { build, transform } from 'esbuild';
import { composeMaps, decodeMappings, encodeMappings } from '../../src/native/compose-maps.mjs';

// build.mjs makes the server in two steps (an ESM split, then each output converted to CommonJS)
// and composes the two source maps; a stack line of dist/ must still name the src/ line.

describe('composeMaps (build.mjs: the server split as ESM, then converted to CommonJS)', () => {
  it('VLQ mappings survive a decode and an encode, negative deltas and empty lines included', () => {
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    const lines = Array.from({ length: 40 }, () => {
      let col = 0;
      return Array.from({ length: rnd(6) }, () => {
        col += rnd(500);
        return rnd(2) ? [col, rnd(3), rnd(2000), rnd(120), rnd(50)] : [col, rnd(3), rnd(2000), rnd(120)];
      });
    });
    const text = encodeMappings(lines);
    assert.deepEqual(decodeMappings(text), lines);
    assert.equal(encodeMappings(decodeMappings(text)), text);
  });

  it("a marker's place in the converted file maps to its line in the source, through both of esbuild's maps", async () => {
    const source = [
      'export function first(x: number): number {',
      '  return x + 1;',
      '}',
      '',
      'export function second(s: string): string {',
      "  const marker = 'MARKER_IN_SECOND';",
      '  return marker + s;',
      '}',
      '',
    ].join('\n');
    const split = await build({
      stdin: { contents: source, sourcefile: 'src/sample.ts', loader: 'ts', resolveDir: '/' },
      bundle: true,
      format: 'esm',
      minify: true,
      sourcemap: 'external',
      write: false,
      outfile: '/out/sample.cjs',
    });
    const code = split.outputFiles.find((f) => f.path.endsWith('.cjs'))!.text;
    const inner = JSON.parse(split.outputFiles.find((f) => f.path.endsWith('.map'))!.text);
    const cjs = await transform(code, { format: 'cjs', minify: true, sourcemap: 'external', sourcefile: '/out/sample.cjs', banner: 'var pad=1;' });
    const map = composeMaps(JSON.parse(cjs.map), inner, 'sample.cjs');
    assert.equal(map.file, 'sample.cjs');
    assert.ok(map.sources.some((s) => s.endsWith('src/sample.ts')), JSON.stringify(map.sources));
    // The converted file's lines and columns of the marker's string literal.
    const lines = cjs.code.split('\n');
    const line = lines.findIndex((l) => l.includes('MARKER_IN_SECOND'));
    const col = lines[line].indexOf('MARKER_IN_SECOND') - 1; // its opening quote
    const e = new SourceMap({ ...map, sourceRoot: '', sourcesContent: [] }).findEntry(line, col) as { originalSource?: string; originalLine?: number };
    assert.ok(e.originalSource?.endsWith('src/sample.ts'), JSON.stringify(e));
    assert.equal(e.originalLine, 5, `the marker is on the source's 6th line: ${JSON.stringify(e)}`);
    // The original text travels with the map.
    assert.equal(map.sourcesContent[map.sources.findIndex((s) => s.endsWith('src/sample.ts'))], source);
  });
});
