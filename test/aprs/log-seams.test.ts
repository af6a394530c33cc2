import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

// The APRS log is split along its seams: AprsLog composes the memory (ring.ts, entry-ids.ts),
// the line format (log-line.ts), the compaction rules (compaction.ts), the reader at load
// (log-reader.ts) and the one writer (log-writer.ts over store/line-appender.ts, shared with the logbook). Checked on the
// source, so a later edit cannot quietly pour them back into one class.

const root = resolve(import.meta.dirname, '..', '..');
const LOG_DIR = join(root, 'src', 'aprs', 'log');
/** The only modules of the log that touch the file system. */
const FILE_IO = new Set(['log-reader.ts', 'log-writer.ts']);
/** What the rest of the program may import from src/aprs/log/: the log itself (loaded lazily by
 * the APRS service, so its parts ride in its chunk) and the schema, export and bucket rules the
 * HTTP layer needs without loading the log. */
const PUBLIC = new Set(['aprs-log.ts', 'log-entry.ts', 'log-export.ts', 'age-bucket.ts']);

const source = (f: string) => readFileSync(f, 'utf8');
const importsOf = (text: string) => [...text.matchAll(/(?:import|export)\s[^'";]*?from\s+['"]([^'"]+)['"]/g)].map((m) => m[1]);
const tsFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? tsFiles(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : []));

describe('the APRS log is split along its seams', () => {
  it('AprsLog itself is a small composition', () => {
    const lines = source(join(LOG_DIR, 'aprs-log.ts')).split('\n').length;
    assert.ok(lines <= 250, `aprs-log.ts has ${lines} lines`);
  });

  it('only the reader and the writer touch the file system', () => {
    const io = /^(node:)?fs(\/promises)?$|\/store\/atomic-file\.js$/;
    for (const name of readdirSync(LOG_DIR).filter((n) => n.endsWith('.ts'))) {
      if (FILE_IO.has(name)) continue;
      const hits = importsOf(source(join(LOG_DIR, name))).filter((s) => io.test(s));
      assert.deepEqual(hits, [], `${name} imports file I/O`);
    }
  });

  it('the pure parts import nothing but each other, the entry schema and valibot', () => {
    for (const name of ['ring.ts', 'entry-ids.ts', 'log-line.ts', 'compaction.ts']) {
      const deps = importsOf(source(join(LOG_DIR, name)));
      for (const d of deps) assert.ok(d === 'valibot' || /^\.\/(ring|entry-ids|log-line|compaction|log-entry)\.js$/.test(d), `${name} imports ${d}`);
    }
  });

  it('outside src/aprs/log only the log and its public schema are imported, so the parts load with the log', () => {
    for (const f of tsFiles(join(root, 'src'))) {
      if (f.startsWith(LOG_DIR)) continue;
      for (const spec of importsOf(source(f))) {
        const target = resolve(join(f, '..'), spec.replace(/\.js$/, '.ts'));
        if (!target.startsWith(LOG_DIR + '/')) continue;
        const name = relative(LOG_DIR, target);
        assert.ok(PUBLIC.has(name), `${relative(root, f)} imports src/aprs/log/${name}`);
      }
    }
  });
});
