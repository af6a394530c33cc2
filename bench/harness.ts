import v8 from 'node:v8';
import vm from 'node:vm';
import { Bench } from 'tinybench';

// Every budget line prints: what, measured figure, budget, verdict.
export interface BudgetLine {
  name: string;
  value: number;
  unit: string;
  budget: number;
  /** 'max': value must stay at or below budget; 'min': at or above. */
  kind?: 'max' | 'min';
  note?: string;
}

export interface Suite {
  name: string;
  run(): Promise<BudgetLine[]>;
}

/** Median of a tinybench task in milliseconds. */
export async function medianMs(name: string, fn: () => unknown | Promise<unknown>, opts: { time?: number; iterations?: number } = {}): Promise<number> {
  const bench = new Bench({ time: opts.time ?? 500, iterations: opts.iterations ?? 10, warmupTime: 100 });
  bench.add(name, fn);
  await bench.run();
  const r = bench.tasks[0].result as any;
  if (!r || r.error) throw r?.error ?? new Error(`bench ${name} produced no result`);
  return r.latency?.p50 ?? r.p50 ?? r.median ?? r.mean;
}

export function printTable(suite: string, lines: BudgetLine[]): boolean {
  let ok = true;
  console.log(`\n## ${suite}`);
  console.log('| measurement | figure | budget | |');
  console.log('|---|---:|---:|---|');
  for (const l of lines) {
    const pass = (l.kind ?? 'max') === 'max' ? l.value <= l.budget : l.value >= l.budget;
    ok &&= pass;
    const fmt = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toPrecision(3));
    console.log(
      `| ${l.name} | ${fmt(l.value)} ${l.unit} | ${(l.kind ?? 'max') === 'max' ? '≤' : '≥'} ${fmt(l.budget)} ${l.unit} | ${pass ? 'ok' : 'OVER'}${l.note ? ' · ' + l.note : ''} |`,
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
