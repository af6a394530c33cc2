// Node 20's test runner takes no globs: find test/**/*.test.ts and hand them over.
// Extra arguments filter by substring: `npm test -- orbit`.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const walk = (dir) =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.test.ts') ? [p] : [];
  });
const filters = process.argv.slice(2);
const files = walk('test').filter((f) => filters.length === 0 || filters.some((x) => f.includes(x))).sort();
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', ...files], { stdio: 'inherit' });
process.exit(r.status ?? 1);
