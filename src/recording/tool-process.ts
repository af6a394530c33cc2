import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { errorMessage } from '../util/errors.js';

// The recorder's two tools (arecord, opusenc) as child processes, started and watched the same
// way: the end of their stderr kept for the message, a tool that is not installed named with the
// Debian package that has it, and one end reported whichever way it comes (could not start, or
// exited). What the tool's exit means is the caller's (describe).

/** stderr kept for the failure message. */
const STDERR_CHARS = 2000;

export interface ToolProcessOptions {
  program: string;
  args: string[];
  spawn: SpawnOptions;
  /** The Debian package that has the program, for "not found (is … installed?)". */
  debianPackage: string;
  /** Whether an end now is one the caller asked for (a stop, a kill): then it is no error. */
  asked(): boolean;
  /** The error the exit means (null: none), given what the tool printed on stderr. */
  describe(code: number | null, signal: NodeJS.Signals | null, stderr: string): string | null;
  /** Once: null, or why it ended. */
  onEnd(error: string | null): void;
}

/** Starts the tool; null when it could not even be spawned (onEnd then says why, on a microtask). */
export function startTool(o: ToolProcessOptions): ChildProcess | null {
  let child: ChildProcess;
  try {
    child = spawn(o.program, o.args, o.spawn);
  } catch (err) {
    queueMicrotask(() => o.onEnd(`cannot start ${o.program}: ${errorMessage(err)}`));
    return null;
  }
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (s: string) => (stderr = (stderr + s).slice(-STDERR_CHARS)));
  child.on('error', (e: NodeJS.ErrnoException) => {
    if (child.pid !== undefined) return; // it runs, and a signal could not be sent: its exit reports
    if (o.asked()) return o.onEnd(null);
    o.onEnd(e.code === 'ENOENT' ? `${o.program} not found (is ${o.debianPackage} installed?)` : `cannot start ${o.program}: ${e.code ?? e.message}`);
  });
  child.on('close', (code, signal) => o.onEnd(o.describe(code, signal, stderr)));
  return child;
}
