// Node 20's test runner takes no globs: find test/**/*.test.ts and hand them over.
// Extra arguments filter by substring: `npm test -- orbit`.
//
// Two files at a time (the CI machine has two cores; each file is its own process, on its own
// ephemeral ports and temp folders), except the ones that measure the machine itself: the
// benchmarks run from a copied dist/, the deployed server under load, the page on a 6× slower
// CPU. Those run afterwards, one at a time, with the machine to themselves.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ALONE = [/^test[\\/]process[\\/]/, /lite-perf\.test\.ts$/];

const walk = (dir) =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.test.ts') ? [p] : [];
  });
const filters = process.argv.slice(2);
const files = walk('test').filter((f) => filters.length === 0 || filters.some((x) => f.includes(x))).sort();
const alone = files.filter((f) => ALONE.some((re) => re.test(f)));
const shared = files.filter((f) => !alone.includes(f));
const run = (list, concurrency) =>
  list.length === 0 ? 0 : (spawnSync(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, ...list], { stdio: 'inherit' }).status ?? 1);
const a = run(shared, 2);
const b = run(alone, 1);
process.exit(a || b);
