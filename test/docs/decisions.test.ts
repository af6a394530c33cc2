import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The decisions record stays readable: docs/decisions.md is an index of one file per area, and
// every decision in an area file says what was open (Gap), what we chose (Choice) and why (Why).
// Guarded because the single file it replaced grew to 130 KB with 1,800-character lines.

const DOCS = resolve(dirname(fileURLToPath(import.meta.url)), '../../docs');
const INDEX = join(DOCS, 'decisions.md');
const AREAS = join(DOCS, 'decisions');
const MAX_LINE = 200;

const areaFiles = () =>
  existsSync(AREAS) ? readdirSync(AREAS).filter((n) => n.endsWith('.md')).sort() : [];
/** Relative Markdown link targets of a text, without their #fragment. */
const links = (text: string) =>
  [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1])
    .filter((t) => !/^[a-z]+:/i.test(t) && !t.startsWith('#'))
    .map((t) => t.split('#')[0]);

/** An area file's decisions: each `## ` heading up to the next one. */
function decisions(text: string): { title: string; body: string }[] {
  return text
    .split(/^## /m)
    .slice(1)
    .map((s) => ({ title: s.slice(0, s.indexOf('\n')), body: s.slice(s.indexOf('\n') + 1) }));
}

describe('docs/decisions', () => {
  it('has area files', () => {
    assert.ok(areaFiles().length >= 5, `expected area files in ${relative(process.cwd(), AREAS)}`);
  });

  it('the index links every area file, and every link in it resolves', () => {
    const index = readFileSync(INDEX, 'utf8');
    const targets = links(index);
    const linked = new Set(targets.map((t) => resolve(DOCS, t)));
    for (const n of areaFiles()) assert.ok(linked.has(join(AREAS, n)), `decisions.md does not link decisions/${n}`);
    for (const t of targets) assert.ok(existsSync(resolve(DOCS, t)), `decisions.md links ${t}, which does not exist`);
  });

  it('every relative link in the area files resolves', () => {
    for (const n of areaFiles()) {
      for (const t of links(readFileSync(join(AREAS, n), 'utf8'))) {
        assert.ok(existsSync(resolve(AREAS, t)), `decisions/${n} links ${t}, which does not exist`);
      }
    }
  });

  it(`no line over ${MAX_LINE} characters in the index or an area file`, () => {
    for (const f of [INDEX, ...areaFiles().map((n) => join(AREAS, n))]) {
      readFileSync(f, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          assert.ok(line.length <= MAX_LINE, `${relative(DOCS, f)}:${i + 1} is ${line.length} characters`);
        });
    }
  });

  it('every decision has a Gap, a Choice and a Why, once each', () => {
    for (const n of areaFiles()) {
      const ds = decisions(readFileSync(join(AREAS, n), 'utf8'));
      assert.ok(ds.length > 0, `decisions/${n} has no decision (## heading)`);
      for (const d of ds) {
        for (const part of ['Gap', 'Choice', 'Why']) {
          const count = d.body.match(new RegExp(`^- \\*\\*${part}:\\*\\* \\S`, 'gm'))?.length ?? 0;
          assert.equal(count, 1, `decisions/${n} "${d.title}": expected one "- **${part}:** …" line, found ${count}`);
        }
      }
    }
  });
});
