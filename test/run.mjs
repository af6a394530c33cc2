// Node 20's test runner takes no globs: find test/**/*.test.ts and hand them over.
// Extra arguments filter by substring: `npm test -- orbit`.
//
// Two files at a time (the CI machine has two cores; each file is its own process, on its own
// ephemeral ports and temp folders), except the ones that measure the machine itself: the
// benchmarks run from a copied dist/, the deployed server under load, the page on a 6× slower
// CPU. Those run afterwards, one at a time, with the machine to themselves.
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';

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
// Worker threads (src/util/worker-job.ts) start from one bundle of src/worker.ts built here for
// the run: from source, each would first start tsx's loader (0.3 s alone, ~1 s under the run's
// load), and the tests start hundreds (every https fetch, parse and 16k search is one).
// Split, so a job's thread loads its own module only (a fetch reads no satellite.js); inside the
// repo, so the packages left out of it resolve from node_modules.
const workerDir = resolve('node_modules/.cache/satstation-test-worker');
rmSync(workerDir, { recursive: true, force: true }); // chunks of earlier runs
buildSync({ entryPoints: ['src/worker.ts'], bundle: true, splitting: true, platform: 'node', format: 'esm', target: 'node18', packages: 'external', outdir: workerDir, logLevel: 'warning' });
process.env.SATSTATION_WORKER_SCRIPT = join(workerDir, 'worker.js');

const run = (list, concurrency) =>
  list.length === 0 ? 0 : (spawnSync(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, ...list], { stdio: 'inherit' }).status ?? 1);
const a = run(shared, 2);
const b = run(alone, 1);
process.exit(a || b);
