// The figures of one run as --json writes them, and --compare's ratios between two such files.
import { budgetInForce, fmt, isSkipped, isTime, meetsBudget, type Line } from './harness.js';
import type { Machine } from './machine.js';

export interface ReportLine {
  name: string;
  value: number;
  unit: string;
  /** The budget checked in this run (time budgets scaled for the target). */
  budget: number;
  kind: 'max' | 'min';
  ok: boolean;
  note?: string;
}

export interface ReportSuite {
  name: string;
  wall_s: number;
  lines: ReportLine[];
  skipped: Array<{ name: string; reason: string }>;
  /** The suite failed with this error (counted as a failure of the run). */
  error?: string;
}

export interface Report {
  machine: Machine;
  profile: 'full' | 'quick';
  date: string;
  /** Whose budgets: 'dev' as written, 'pi' with time budgets × time_scale. */
  target: { name: 'dev' | 'pi'; time_scale: number };
  /** What ran: dist/bench.mjs or the repo under tsx. */
  runner: string;
  filter: string[];
  wall_s: number;
  ok: boolean;
  suites: ReportSuite[];
}

export function reportSuite(name: string, lines: Line[], wallS: number, error?: string): ReportSuite {
  const out: ReportSuite = { name, wall_s: round(wallS), lines: [], skipped: [] };
  for (const l of lines) {
    if (isSkipped(l)) out.skipped.push({ name: l.name, reason: l.skipped });
    else out.lines.push({ name: l.name, value: l.value, unit: l.unit, budget: budgetInForce(l), kind: l.kind ?? 'max', ok: meetsBudget(l), ...(l.note ? { note: l.note } : {}) });
  }
  if (error) out.error = error;
  return out;
}

const round = (n: number) => Math.round(n * 100) / 100;

/** Throws with a readable message unless `x` looks like a --json file of this bench. */
export function checkReport(x: unknown, file: string): Report {
  const r = x as Report;
  if (!r || typeof r !== 'object' || !Array.isArray(r.suites) || !r.machine) throw new Error(`${file} is not a bench --json file (no machine or suites)`);
  return r;
}

const describe = (r: Report) => `${r.profile}, ${r.date.slice(0, 16).replace('T', ' ')}, ${r.machine.board ?? r.machine.cpu} (${r.machine.arch}, Node ${r.machine.node})`;

/**
 * For each measurement present in both runs (same suite, same name, same unit), new ÷ old, and
 * whether that is better or worse beyond ±10 % (lower is better for a 'max' budget). The summary
 * line gives the geometric mean of the duration ratios: measured on the Pi against a dev-machine
 * file, that is how much slower the Pi really is (the budgets assume 10×).
 */
export function compareLines(old: Report, now: Report, oldLabel: string): string[] {
  const out = [`\n## compare: this run ÷ ${oldLabel}`, `old: ${describe(old)}`, `new: ${describe(now)}`];
  if (old.profile !== now.profile) out.push(`(profiles differ: quick runs skip or shorten some sections)`);
  out.push('| measurement | old | new | new/old | |', '|---|---:|---:|---:|---|');
  // Matched by suite and name with the figures in it blanked ("… (105 sats, 1389 passes)"), so a
  // changed catalogue or payload size does not hide a measurement.
  const key = (suite: string, name: string) => `${suite}\u0000${name.replace(/\d[\d.,]*/g, '#')}`;
  const oldBy = new Map<string, ReportLine>();
  for (const s of old.suites) for (const l of s.lines) oldBy.set(key(s.name, l.name), l);
  let both = 0;
  let logSum = 0;
  let timeCount = 0;
  for (const s of now.suites) {
    for (const l of s.lines) {
      const o = oldBy.get(key(s.name, l.name));
      if (!o || o.unit !== l.unit) continue;
      both++;
      const valid = o.value > 0 && l.value > 0;
      const ratio = valid ? l.value / o.value : NaN;
      let verdict = '';
      if (valid) {
        const better = l.kind === 'max' ? ratio < 1 / 1.1 : ratio > 1.1;
        const worse = l.kind === 'max' ? ratio > 1.1 : ratio < 1 / 1.1;
        verdict = better ? 'better' : worse ? 'worse' : '';
        if (isTime(l.unit) && l.kind === 'max') {
          logSum += Math.log(ratio);
          timeCount++;
        }
      }
      out.push(`| ${s.name} · ${l.name} | ${fmt(o.value)} ${o.unit} | ${fmt(l.value)} ${l.unit} | ${valid ? ratio.toFixed(2) : '–'} | ${verdict} |`);
    }
  }
  out.push(`${both} measurements in both runs` + (timeCount ? `; durations: geometric mean new/old ${Math.exp(logSum / timeCount).toFixed(2)} over ${timeCount}` : ''));
  return out;
}
