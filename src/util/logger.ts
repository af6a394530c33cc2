// One line per event, level and UTC timestamp first, to stdout (journald keeps it).
// Levels are set per namespace: LOG_LEVEL=info,radio:civ=debug (a bare level is the default; a
// namespace rule also covers its children, radio=debug covers radio:civ). Debug messages are
// lazy: pass a function, or test enabled('debug') first, so hot paths build no strings nobody reads.
import { writeStdoutLine } from './stdout-line-writer.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };
const isLevel = (s: string): s is LogLevel => Object.prototype.hasOwnProperty.call(RANK, s);

interface LevelSpec {
  fallback: number;
  /** Longest namespace first, so the most specific rule wins. */
  rules: Array<{ ns: string; rank: number }>;
}

/** Parses `info,radio:civ=debug`; returns null (with nothing applied) when any part is not valid. */
export function parseLogLevel(spec: string): LevelSpec | null {
  const out: LevelSpec = { fallback: RANK.info, rules: [] };
  for (const raw of spec.split(',')) {
    const part = raw.trim();
    if (!part) continue;
    const eq = part.indexOf('=');
    if (eq < 0) {
      if (!isLevel(part)) return null;
      out.fallback = RANK[part];
      continue;
    }
    const ns = part.slice(0, eq).trim();
    const level = part.slice(eq + 1).trim();
    if (!/^[\w:.-]+$/.test(ns) || !isLevel(level)) return null;
    out.rules.push({ ns, rank: RANK[level] });
  }
  out.rules.sort((a, b) => b.ns.length - a.ns.length);
  return out;
}

let spec: LevelSpec = parseLogLevel(process.env.LOG_LEVEL ?? '') ?? { fallback: RANK.info, rules: [] };
let generation = 0; // loggers re-resolve their threshold when this moves
let sink: (line: string) => void = writeStdoutLine;

/** A level or a per-namespace spec; an invalid spec leaves the levels as they were. */
export function setLogLevel(level: LogLevel | string): void {
  const parsed = parseLogLevel(level);
  if (!parsed) return;
  spec = parsed;
  generation++;
}

function thresholdFor(ns: string): number {
  for (const r of spec.rules) if (ns === r.ns || ns.startsWith(r.ns + ':')) return r.rank;
  return spec.fallback;
}

/** Tests capture log lines through this. */
export function setLogSink(fn: (line: string) => void): void {
  sink = fn;
}

type Msg = string | (() => string);

export interface Logger {
  debug(msg: Msg, extra?: unknown): void;
  info(msg: Msg, extra?: unknown): void;
  warn(msg: Msg, extra?: unknown): void;
  error(msg: Msg, extra?: unknown): void;
  enabled(level: LogLevel): boolean;
}

function fmtExtra(extra: unknown): string {
  if (extra === undefined) return '';
  if (extra instanceof Error) return ' ' + (extra.stack ?? extra.message).replace(/\n\s*/g, ' | ');
  try {
    return ' ' + JSON.stringify(extra);
  } catch {
    return ' ' + String(extra);
  }
}

export function logger(ns: string): Logger {
  let seen = -1;
  let threshold = RANK.info;
  const current = () => {
    if (seen !== generation) {
      threshold = thresholdFor(ns);
      seen = generation;
    }
    return threshold;
  };
  const emit = (level: LogLevel, msg: Msg, extra?: unknown) => {
    if (RANK[level] < current()) return;
    const text = typeof msg === 'function' ? msg() : msg;
    sink(`${new Date().toISOString()} ${level.toUpperCase().padEnd(5)} [${ns}] ${text}${fmtExtra(extra)}`);
  };
  return {
    debug: (m, e) => emit('debug', m, e),
    info: (m, e) => emit('info', m, e),
    warn: (m, e) => emit('warn', m, e),
    error: (m, e) => emit('error', m, e),
    enabled: (level) => RANK[level] >= current(),
  };
}
