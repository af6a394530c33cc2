// One line per event, level and UTC timestamp first, to stdout (journald keeps it).
// Debug messages are lazy: pass a function so hot paths build no strings nobody reads.
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

let threshold = RANK[(process.env.LOG_LEVEL as LogLevel) in RANK ? (process.env.LOG_LEVEL as LogLevel) : 'info'];
let sink: (line: string) => void = (line) => process.stdout.write(line + '\n');

export function setLogLevel(level: LogLevel): void {
  threshold = RANK[level] ?? RANK.info;
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
  const emit = (level: LogLevel, msg: Msg, extra?: unknown) => {
    if (RANK[level] < threshold) return;
    const text = typeof msg === 'function' ? msg() : msg;
    sink(`${new Date().toISOString()} ${level.toUpperCase().padEnd(5)} [${ns}] ${text}${fmtExtra(extra)}`);
  };
  return {
    debug: (m, e) => emit('debug', m, e),
    info: (m, e) => emit('info', m, e),
    warn: (m, e) => emit('warn', m, e),
    error: (m, e) => emit('error', m, e),
    enabled: (level) => RANK[level] >= threshold,
  };
}
