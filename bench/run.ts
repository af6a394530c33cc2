// The benchmarks: every figure beside its budget, machine at the top.
//   npm run bench -- [filter...] [--quick] [--json FILE] [--compare OLD.json] [--target dev|pi]
//   node dist/bench.mjs [the same]            (the deployable artifact: no dev dependencies)
//   node dist/bench.mjs --compare OLD.json --to NEW.json   (ratios of two files, nothing run)
//   npm run bench -- --pi-speed               (only the server capped to a tenth of one core)
// Exit status 1 when a budget is missed or a suite fails; sections that cannot run here are
// printed as skipped and do not count.
import { readFileSync, writeFileSync } from 'node:fs';
import { setLogLevel } from '../src/util/logger.js';
import { whereFrom } from './env.js';
import { isSkipped, printTable, profile, type Line, type Suite } from './harness.js';
import { describeMachine, machineLines } from './machine.js';
import { checkReport, compareLines, reportSuite, type Report, type ReportSuite } from './report.js';

setLogLevel('silent');

// Suites register here, one per hot path: an id (used by --child and --list) and a lazy import,
// so a child process initialises only its own suite's modules (see child-bundle.ts).
const SUITES: Array<{ id: string; load: () => Promise<Suite> }> = [
  { id: 'core', load: async () => (await import('./core.bench.js')).coreSuite },
  { id: 'catalog', load: async () => (await import('./catalog.bench.js')).catalogSuite },
  { id: 'orbit', load: async () => (await import('./orbit.bench.js')).orbitSuite },
  { id: 'guidance', load: async () => (await import('./guidance.bench.js')).guidanceSuite },
  { id: 'rotator', load: async () => (await import('./rotator.bench.js')).rotatorSuite },
  { id: 'hamlib', load: async () => (await import('./hamlib.bench.js')).hamlibSuite },
  { id: 'hamlib-rig', load: async () => (await import('./hamlib-rig.bench.js')).hamlibRigSuite },
  { id: 'profiles', load: async () => (await import('./profiles.bench.js')).profilesSuite },
  { id: 'logbook', load: async () => (await import('./logbook.bench.js')).logbookSuite },
  { id: 'station', load: async () => (await import('./station.bench.js')).stationSuite },
  { id: 'civ', load: async () => (await import('./civ.bench.js')).civSuite },
  { id: 'radio', load: async () => (await import('./radio.bench.js')).radioSuite },
  { id: 'yaesu', load: async () => (await import('./yaesu.bench.js')).yaesuSuite },
  { id: 'aprs', load: async () => (await import('./aprs.bench.js')).aprsSuite },
  { id: 'aprs-station', load: async () => (await import('./aprs-station.bench.js')).aprsStationSuite },
  { id: 'afsk', load: async () => (await import('./afsk.bench.js')).afskSuite },
  { id: 'lan', load: async () => (await import('./lan.bench.js')).lanSuite },
  { id: 'robustness', load: async () => (await import('./robustness.bench.js')).robustnessSuite },
  { id: 'system', load: async () => (await import('./system.bench.js')).systemSuite },
  { id: 'events', load: async () => (await import('./events.bench.js')).eventsSuite },
  { id: 'recording', load: async () => (await import('./recording.bench.js')).recordingSuite },
  { id: 'pi-speed', load: async () => (await import('./pi-speed.bench.js')).piSpeedSuite },
];

/**
 * The project designs for a Pi Zero 2 W (4 × Cortex-A53 at 1 GHz, 512 MiB) taken to be about ten
 * times slower than the dev machine the budgets were written on: on that target every duration
 * budget is ×10. Memory budgets come from the unit's MemoryMax and the 512 MiB board, not from
 * CPU speed, and stay as written; so do rates and ratios measured against a reference in the same run.
 */
const PI_TIME_SCALE = 10;

const USAGE = `usage: bench [filter...] [--quick] [--pi-speed] [--json FILE] [--compare OLD.json [--to NEW.json]] [--target dev|pi] [--list]
  filter          run the suites whose id or name contains any filter (case-insensitive)
  --pi-speed      the Pi-speed run: the server under a tenth of one core and the unit's MemoryMax
                  (its budgets are the Pi's on any target); the same as the filter pi-speed
  --quick         fewer samples, smaller workloads, the longest sections skipped
  --json FILE     write the figures (machine, profile, date, suites, lines) to FILE
  --compare OLD   after the run, print new/old for each measurement found in both
  --to NEW        with --compare: compare two files, run nothing
  --target T      budgets for 'dev' (as written) or 'pi' (durations ×${PI_TIME_SCALE}); default: pi on arm/arm64, else dev
  --list          list the suites`;

function parseArgs(argv: string[]) {
  const o = { filters: [] as string[], quick: false, json: null as string | null, compare: null as string | null, to: null as string | null, target: null as string | null, list: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new Error(`${a} needs a value\n${USAGE}`);
      return v;
    };
    if (a === '--quick') o.quick = true;
    else if (a === '--pi-speed') o.filters.push('pi-speed');
    else if (a === '--json') o.json = value();
    else if (a === '--compare') o.compare = value();
    else if (a === '--to') o.to = value();
    else if (a === '--target') o.target = value();
    else if (a === '--list') o.list = true;
    else if (a === '--help' || a === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else if (a.startsWith('-')) throw new Error(`unknown option ${a}\n${USAGE}`);
    else o.filters.push(a);
  }
  if (o.target !== null && o.target !== 'dev' && o.target !== 'pi') throw new Error(`--target must be dev or pi (got ${o.target})`);
  if (o.to && !o.compare) throw new Error('--to goes with --compare OLD.json');
  return o;
}

const readReport = (file: string): Report => checkReport(JSON.parse(readFileSync(file, 'utf8')), file);

/** `--child <suite id> <name> …args`: one child's work, its JSON line on stdout, then exit. */
async function runAsChild(args: string[]): Promise<never> {
  const [id, name, ...rest] = args;
  const entry = SUITES.find((s) => s.id === id);
  const fn = entry && (await entry.load()).children?.[name];
  if (!fn) throw new Error(`no bench child ${id} ${name}`);
  await fn(rest);
  process.exit(0);
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv[0] === '--child') return runAsChild(argv.slice(1));
  const opts = parseArgs(argv);

  if (opts.list) {
    for (const s of SUITES) console.log(`${s.id.padEnd(14)} ${(await s.load()).name}`);
    return 0;
  }
  if (opts.compare && opts.to) {
    for (const l of compareLines(readReport(opts.compare), readReport(opts.to), opts.compare)) console.log(l);
    return 0;
  }
  const old = opts.compare ? readReport(opts.compare) : null; // read first: a bad file fails before the run

  const t0 = performance.now();
  profile.quick = opts.quick;
  const auto = process.arch === 'arm' || process.arch === 'arm64' ? 'pi' : 'dev';
  profile.target = (opts.target as 'dev' | 'pi' | null) ?? auto;
  profile.timeScale = profile.target === 'pi' ? PI_TIME_SCALE : 1;

  // Load every suite (a suite whose modules cannot load here, e.g. a native addon for another
  // arch, fails alone), then pick the ones the filters name.
  const wanted = opts.filters.map((f) => f.toLowerCase());
  const picked: Array<{ id: string; suite: Suite | null; loadError?: string }> = [];
  for (const entry of SUITES) {
    let suite: Suite | null = null;
    let loadError: string | undefined;
    try {
      suite = await entry.load();
    } catch (err) {
      loadError = `cannot load: ${(err as Error).message}`;
    }
    const names = [entry.id, suite?.name.toLowerCase() ?? ''];
    if (!wanted.length || wanted.some((f) => names.some((n) => n.includes(f)))) picked.push({ id: entry.id, suite, loadError });
  }
  if (!picked.length) throw new Error(`no suite matches ${opts.filters.join(', ')} (--list shows them)`);

  const machine = describeMachine();
  console.log(`# satstation bench · ${opts.quick ? 'quick' : 'full'} profile · ${whereFrom()}`);
  for (const l of machineLines(machine)) console.log(l);
  console.log(
    profile.target === 'pi'
      ? `budgets: Pi Zero 2 W — durations ×${PI_TIME_SCALE} of the dev-machine budgets (the project's rule: a CPU ~10× slower), memory, sizes, rates and ratios as written${opts.target ? '' : ` (auto: ${process.arch})`}`
      : `budgets: dev machine, as written${opts.target ? '' : ` (auto: ${process.arch}; --target pi checks the Pi's, durations ×${PI_TIME_SCALE})`}`,
  );

  const suites: ReportSuite[] = [];
  let allOk = true;
  let failed = 0;
  for (const { id, suite, loadError } of picked) {
    if (!suite) {
      failed++;
      console.log(`\n## ${id}\nERROR: ${loadError}`);
      suites.push(reportSuite(id, [], 0, loadError));
      continue;
    }
    const s0 = performance.now();
    let lines: Line[] = [];
    let error: string | undefined;
    try {
      lines = await suite.run();
    } catch (err) {
      error = err instanceof Error ? (err.stack ?? err.message) : String(err);
    }
    const wall = (performance.now() - s0) / 1000;
    if (error) {
      failed++;
      console.log(`\n## ${suite.name}\nERROR: ${error}`);
    } else if (lines.length && lines.every(isSkipped)) {
      console.log(`\n## ${suite.name}`);
      for (const l of lines) console.log(`skipped: ${l.name}: ${(l as { skipped: string }).skipped}`);
    } else {
      allOk = printTable(suite.name, lines) && allOk;
    }
    console.log(`(${wall.toFixed(1)} s)`);
    suites.push(reportSuite(suite.name, lines, wall, error));
  }

  const wallS = (performance.now() - t0) / 1000;
  const report: Report = {
    machine,
    profile: opts.quick ? 'quick' : 'full',
    date: new Date().toISOString(),
    target: { name: profile.target, time_scale: profile.timeScale },
    runner: whereFrom(),
    filter: opts.filters,
    wall_s: Math.round(wallS * 10) / 10,
    ok: allOk && !failed,
    suites,
  };
  if (opts.json) {
    writeFileSync(opts.json, JSON.stringify(report, null, 2) + '\n');
    console.log(`\nfigures written to ${opts.json}`);
  }
  if (old) for (const l of compareLines(old, report, opts.compare!)) console.log(l);
  const skipped = suites.reduce((n, s) => n + s.skipped.length, 0);
  console.log(`\ntotal wall time ${wallS.toFixed(1)} s`);
  const verdict = allOk ? 'all budgets met' : 'SOME BUDGETS MISSED';
  console.log(`${failed ? `${failed} SUITE${failed > 1 ? 'S' : ''} FAILED; ` : ''}${verdict}${skipped ? ` (${skipped} section${skipped > 1 ? 's' : ''} skipped)` : ''}`);
  return allOk && !failed ? 0 : 1;
}

try {
  process.exit(await main());
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(2);
}
