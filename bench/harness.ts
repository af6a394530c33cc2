import v8 from 'node:v8';
import vm from 'node:vm';
import { Bench } from 'tinybench';

// Every budget line prints: what, measured figure, budget, verdict.
export interface BudgetLine {
  name: string;
  value: number;
  unit: string;
  /** As written for the dev machine; time budgets are scaled for the target when checked (budgetInForce). */
  budget: number;
  /** 'max': value must stay at or below budget; 'min': at or above. */
  kind?: 'max' | 'min';
  /**
   * false: the figure was measured at Pi speed (bench/pi-speed.bench.ts) and `budget` is already
   * the Pi's, checked as written on any target (scaling it again would allow 100×).
   */
  scaled?: false;
  note?: string;
}

/** A part of a suite that could not run here (or not in this profile), and why. */
export interface SkippedLine {
  name: string;
  skipped: string;
}

export type Line = BudgetLine | SkippedLine;

export interface Suite {
  name: string;
  run(): Promise<Line[]>;
  /**
   * Work that must run in a fresh process (peak RSS, event-loop figures): started by runChild
   * (child-bundle.ts) as `bench.mjs --child <suite id> <name> …args`, the suite id being its key in
   * bench/run.ts. A child prints its result as one JSON line on stdout.
   */
  children?: Record<string, (args: string[]) => Promise<void>>;
}

/** Thrown when a section cannot run here (a missing tool, no /proc, no built server, --quick): printed, not failed. */
export class Skip extends Error {}

export const isSkipped = (l: Line): l is SkippedLine => 'skipped' in l;

/** What this run measures and against which budgets (set once by bench/run.ts). */
export const profile = {
  /** --quick: fewer samples, smaller workloads, the longest sections skipped. */
  quick: false,
  /** Whose budgets: 'dev' (as written) or 'pi' (time budgets × timeScale). */
  target: 'dev' as 'dev' | 'pi',
  timeScale: 1,
};

/** Throws Skip in the quick profile: `what` says what the full run does that quick leaves out. */
export function fullOnly(what: string): void {
  if (profile.quick) throw new Skip(`--quick leaves out ${what}`);
}

/**
 * Runs one section of a suite: its lines, or, when it cannot run here (Skip), one skipped line
 * named `label` with the reason. Any other error fails the run.
 */
export async function section(label: string, fn: () => Promise<Line[]>): Promise<Line[]> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof Skip) return [{ name: label, skipped: err.message }];
    throw err;
  }
}

export interface MedianOpts {
  /** Minimum measuring time, ms (tinybench `time`). */
  time?: number;
  /** Minimum samples (tinybench `iterations`). */
  iterations?: number;
  /** Minimum samples in the quick profile (default: the lesser of `iterations` and 5). */
  quickIterations?: number;
  /**
   * Whether tinybench warms the task up first (default true). Its full-profile warm-up is at least
   * 16 runs whatever warmupTime says: for a task of a second at the Pi-speed cage's tenth of a core
   * that is minutes. A caller that has already run the task by hand says false.
   */
  warmup?: boolean;
}

/** Median of a tinybench task in milliseconds. The quick profile measures for at most 100 ms after a short warm-up. */
export async function medianMs(name: string, fn: () => unknown | Promise<unknown>, opts: MedianOpts = {}): Promise<number> {
  const time = opts.time ?? 500;
  const iterations = opts.iterations ?? 10;
  const warmup = opts.warmup ?? true;
  const bench = profile.quick
    ? new Bench({ time: Math.min(time, 100), iterations: opts.quickIterations ?? Math.min(iterations, 5), warmup, warmupTime: 20, warmupIterations: 1 })
    : new Bench({ time, iterations, warmup, warmupTime: 100 });
  bench.add(name, fn);
  await bench.run();
  const r = bench.tasks[0].result as any;
  if (!r || r.error) throw r?.error ?? new Error(`bench ${name} produced no result`);
  return r.latency?.p50 ?? r.p50 ?? r.median ?? r.mean;
}

const TIME_UNITS = new Set(['ns', 'µs', 'us', 'ms', 's']);

/** Whether a line's figure is a duration (its budget scales with the target's CPU). */
export const isTime = (unit: string) => TIME_UNITS.has(unit);

/**
 * The budget checked on this target: durations scale with the CPU (× timeScale for a 'max'
 * budget, ÷ for a 'min' one); memory, sizes, rates and ratios measured against a reference in the
 * same run stay as written.
 */
export function budgetInForce(l: BudgetLine): number {
  if (!isTime(l.unit) || profile.timeScale === 1 || l.scaled === false) return l.budget;
  return (l.kind ?? 'max') === 'max' ? l.budget * profile.timeScale : l.budget / profile.timeScale;
}

export function meetsBudget(l: BudgetLine): boolean {
  const b = budgetInForce(l);
  return (l.kind ?? 'max') === 'max' ? l.value <= b : l.value >= b;
}

export const fmt = (n: number) => (!Number.isFinite(n) ? String(n) : Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toPrecision(3));

/** Prints a suite's table; true when every budget line is met (skipped lines do not count). */
export function printTable(suite: string, lines: Line[]): boolean {
  let ok = true;
  console.log(`\n## ${suite}`);
  console.log('| measurement | figure | budget | |');
  console.log('|---|---:|---:|---|');
  for (const l of lines) {
    if (isSkipped(l)) {
      console.log(`| ${l.name} | – | – | skipped: ${l.skipped} |`);
      continue;
    }
    const pass = meetsBudget(l);
    ok &&= pass;
    console.log(
      `| ${l.name} | ${fmt(l.value)} ${l.unit} | ${(l.kind ?? 'max') === 'max' ? '≤' : '≥'} ${fmt(budgetInForce(l))} ${l.unit} | ${pass ? 'ok' : 'OVER'}${l.note ? ' · ' + l.note : ''} |`,
    );
  }
  return ok;
}

/** Full collections until the heap is quiet, so a before/after memory figure is the structures' own. */
export async function settleHeap(): Promise<void> {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setImmediate(r));
  }
}
