// Node 20's test runner takes no globs: find test/**/*.test.ts and hand them over.
// Extra arguments filter by substring: `npm test -- orbit`.
//
// Two files at a time (the CI machine has two cores; each file is its own process, on its own
// ephemeral ports and temp folders), except the ones that measure the machine itself: the
// deployed server under load, the page on a 6× slower CPU, the built artifact's boots. Those run
// afterwards, one at a time, with the machine to themselves.
// The bench from a copied dist/ runs beside the shared files instead: its test checks that every
// suite runs and prints each line beside its budget, never a figure, and its Pi-speed run spends
// most of its 75–95 s waiting on a tenth of a core (~25 s of CPU): alone, that was a minute and a
// half of an idle machine in a CI run with little time to spare. Its report is printed after the
// shared files' (two TAP streams on one terminal would interleave).
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';

const ALONE = [/^test[\\/]process[\\/]/, /lite-perf\.test\.ts$/];
const BESIDE = [/^test[\\/]process[\\/]bench-dist\.test\.ts$/];

const walk = (dir) =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.test.ts') ? [p] : [];
  });
const filters = process.argv.slice(2);
const files = walk('test').filter((f) => filters.length === 0 || filters.some((x) => f.includes(x))).sort();
const beside = files.filter((f) => BESIDE.some((re) => re.test(f)));
const alone = files.filter((f) => !beside.includes(f) && ALONE.some((re) => re.test(f)));
const shared = files.filter((f) => !beside.includes(f) && !alone.includes(f));
// Worker threads (src/util/worker-job.ts) start from one bundle of src/worker.ts built here for
// the run: from source, each would first start tsx's loader (0.3 s alone, ~1 s under the run's
// load), and the tests start hundreds (every https fetch, parse and 16k search is one).
// Split, so a job's thread loads its own module only (a fetch reads no satellite.js); inside the
// repo, so the packages left out of it resolve from node_modules.
const workerDir = resolve('node_modules/.cache/satstation-test-worker');
rmSync(workerDir, { recursive: true, force: true }); // chunks of earlier runs
buildSync({ entryPoints: ['src/worker.ts'], bundle: true, splitting: true, platform: 'node', format: 'esm', target: 'node18', packages: 'external', outdir: workerDir, logLevel: 'warning' });
process.env.SATSTATION_WORKER_SCRIPT = join(workerDir, 'worker.js');

// --test-force-exit: a file whose tests are done ends even if something it started still holds
// its event loop (a spawned server left running by a check that failed before its stop): without
// it that file never ends and the whole run waits on it (test/helpers/spawn-server.ts kills the
// servers it started when a file's process exits).
const testArgs = (list, concurrency) => ['--import', 'tsx', '--test', '--test-force-exit', `--test-concurrency=${concurrency}`, ...list];
const run = (list, concurrency) =>
  list.length === 0 ? 0 : (spawnSync(process.execPath, testArgs(list, concurrency), { stdio: 'inherit' }).status ?? 1);

/** Starts `list` now, its output to a file (a pipe nobody reads while spawnSync blocks would fill); `done()` prints it and gives the exit status. */
function startBeside(list) {
  if (list.length === 0) return { done: async () => 0 };
  const out = join(tmpdir(), `satstation-test-beside-${process.pid}.log`);
  const fd = openSync(out, 'w');
  const child = spawn(process.execPath, testArgs(list, 1), { stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const exited = new Promise((res) => {
    child.on('error', () => res(1));
    child.on('exit', (code) => res(code ?? 1));
  });
  return {
    async done() {
      const code = await exited;
      process.stdout.write(readFileSync(out));
      rmSync(out, { force: true });
      return code;
    },
  };
}

const besideRun = startBeside(beside);
const a = run(shared, 2);
const c = await besideRun.done();
const b = run(alone, 1);
process.exit(a || c || b);
