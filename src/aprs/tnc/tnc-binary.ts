import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { writeFileAtomic } from '../../store/atomic-file.js';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { errorMessage } from '../../util/errors.js';
import { logger } from '../../util/logger.js';

// Driver: is the TNC program installed, and install Debian's `direwolf` package when asked.
// Installing needs root; the service never prompts for a password. In order:
//   1. uid 0: run the install helper directly;
//   2. `sudo -n <helper>`: deploy/aprs/satstation-direwolf.sudoers lets the service user run
//      exactly that root-owned script (deploy/aprs/install-direwolf), nothing else, no password;
//   3. under the sandboxed systemd unit (NoNewPrivileges: sudo cannot gain root) the unit sets
//      TNC_INSTALL_REQUEST_DIR: a `request` file there starts a root one-shot unit
//      (deploy/aprs/satstation-tnc-install.path/.service) that runs the helper and leaves `result`;
//   4. otherwise fail, saying what to set up. installInTerminal() is the interactive way: on a
//      desktop it opens a terminal running the helper under sudo, which may prompt there.
// Never throws: each answers with a result.

const log = logger('aprs:tnc');

export const INSTALL_HELPER = '/usr/local/lib/satstation/install-direwolf';
/** The helper's first line: output without it means the helper never ran (sudo refused). */
export const HELPER_MARKER = 'install-direwolf: starting';
const OUTPUT_LINES = 200;
const LINE_CHARS = 300;

export interface TncBinaryStatus {
  installed: boolean;
  configuredBinary: string;
  /** Absolute path of the program that would run; '' when not found. */
  resolvedBinary: string;
}

function executable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A path (anything with a /) is checked as it is; a bare name is looked up on PATH. */
export function resolveTncBinary(configured: string, env: NodeJS.ProcessEnv = process.env): TncBinaryStatus {
  const name = configured.trim() || 'direwolf';
  let found = '';
  if (name.includes('/')) {
    const abs = isAbsolute(name) ? name : resolve(name);
    if (executable(abs)) found = abs;
  } else {
    for (const dir of (env.PATH ?? '/usr/local/bin:/usr/bin:/bin').split(delimiter)) {
      if (!dir || !isAbsolute(dir)) continue; // a relative PATH entry depends on the cwd: skip
      const p = join(dir, name);
      if (executable(p)) {
        found = p;
        break;
      }
    }
  }
  return { installed: found !== '', configuredBinary: configured, resolvedBinary: found };
}

export type InstallResult = { ok: true; output: string[] } | { ok: false; error: string; output: string[] };

export interface InstallOptions {
  /** The root-owned install script. */
  helper?: string;
  /** The sudo program. */
  sudo?: string;
  uid?: () => number;
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  /** Where the root unit watches for a request (default: env TNC_INSTALL_REQUEST_DIR, else none). */
  requestDir?: string;
  /** How long the root unit may take to pick a request up before it counts as not installed. */
  pickupTimeoutMs?: number;
  /** Poll interval for the unit's result. */
  pollMs?: number;
}

interface RunResult {
  code: number | null;
  signal: string | null;
  spawnError: string | null;
  output: string[];
  timedOut: boolean;
}

/** Runs a command, collecting stdout+stderr lines (bounded), never throwing, killed after timeoutMs. */
function run(cmd: string, args: string[], timeoutMs: number, env: NodeJS.ProcessEnv): Promise<RunResult> {
  return new Promise((resolveRun) => {
    const output: string[] = [];
    let part = '';
    const add = (s: string) => {
      part += s;
      const lines = part.split('\n');
      part = lines.pop() ?? '';
      if (part.length > LINE_CHARS * 4) part = part.slice(0, LINE_CHARS * 4);
      for (const l of lines) output.push(l.replace(/\r/g, '').slice(0, LINE_CHARS));
      if (output.length > OUTPUT_LINES) output.splice(0, output.length - OUTPUT_LINES);
    };
    let child;
    try {
      // stdin /dev/null: sudo -n never prompts, and nothing else may read a terminal either.
      child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env, detached: true });
    } catch (err) {
      return resolveRun({ code: null, signal: null, spawnError: errorMessage(err), output, timedOut: false });
    }
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGTERM'); // the whole group: sudo, the script, apt-get
      } catch {
        child.kill('SIGTERM');
      }
    }, timeoutMs);
    child.stdout!.setEncoding('utf8');
    child.stderr!.setEncoding('utf8');
    child.stdout!.on('data', add);
    child.stderr!.on('data', add);
    child.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolveRun({ code: null, signal: null, spawnError: err.code ?? err.message, output, timedOut });
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (part) output.push(part.slice(0, LINE_CHARS));
      resolveRun({ code, signal, spawnError: null, output, timedOut });
    });
  });
}

const NO_PRIVILEGE =
  'no privilege to install: the service user may not run the install helper through sudo without a password. ' +
  `Install deploy/aprs/install-direwolf as ${INSTALL_HELPER} and deploy/aprs/satstation-direwolf.sudoers in /etc/sudoers.d/, ` +
  'or install the package by hand: sudo apt-get install direwolf';

/** Installs the `direwolf` package through the helper (root directly, else sudo -n); never prompts. */
export async function installTnc(o: InstallOptions = {}): Promise<InstallResult> {
  const helper = o.helper ?? INSTALL_HELPER;
  const uid = (o.uid ?? (() => process.getuid?.() ?? -1))();
  const timeoutMs = o.timeoutMs ?? 15 * 60_000;
  const env = { ...(o.env ?? process.env), DEBIAN_FRONTEND: 'noninteractive' };
  const requestDir = o.requestDir ?? (o.env ?? process.env).TNC_INSTALL_REQUEST_DIR;
  if (uid !== 0 && requestDir) return installThroughUnit(requestDir, timeoutMs, o.pickupTimeoutMs ?? 15_000, o.pollMs ?? 500);
  if (!executable(helper)) return { ok: false, error: `the install helper ${helper} is not installed (deploy/aprs/install-direwolf); install the package by hand: sudo apt-get install direwolf`, output: [] };
  const asRoot = uid === 0;
  const r = asRoot ? await run(helper, [], timeoutMs, env) : await run(o.sudo ?? 'sudo', ['-n', helper], timeoutMs, env);
  log.info(`install helper ${asRoot ? 'as root' : 'via sudo -n'}: ${r.spawnError ?? (r.signal ? `killed by ${r.signal}` : `exit ${r.code}`)}`);
  const output = r.output;
  if (r.spawnError) return { ok: false, error: asRoot ? `cannot run ${helper}: ${r.spawnError}` : r.spawnError === 'ENOENT' ? `sudo is not installed: ${NO_PRIVILEGE}` : `cannot run sudo: ${r.spawnError}`, output };
  if (r.timedOut) return { ok: false, error: `the installation did not finish within ${Math.round(timeoutMs / 60_000)} minutes and was stopped`, output };
  if (r.code === 0) return { ok: true, output };
  const helperRan = output.some((l) => l.includes(HELPER_MARKER));
  if (!asRoot && !helperRan) {
    const text = output.join('\n');
    if (/no new privileges/i.test(text))
      return { ok: false, error: 'no privilege to install: the service runs with NoNewPrivileges, so sudo cannot gain root. Install the package by hand: sudo apt-get install direwolf', output };
    return { ok: false, error: NO_PRIVILEGE, output };
  }
  const last = [...output].reverse().find((l) => l.trim() !== '') ?? '';
  return { ok: false, error: `installing direwolf failed (${r.signal ? `killed by ${r.signal}` : `exit ${r.code}`})${last ? `: ${last}` : ''}`, output };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const UNIT_EXIT = /^tnc-install-request: exit (\d+)$/;

/** Step 3: drop a request for the root one-shot unit and wait for its result file. */
async function installThroughUnit(dir: string, timeoutMs: number, pickupMs: number, pollMs: number): Promise<InstallResult> {
  const request = join(dir, 'request');
  const result = join(dir, 'result');
  try {
    mkdirSync(dir, { recursive: true });
    rmSync(result, { force: true });
    await writeFileAtomic(request, new Date().toISOString() + '\n');
  } catch (err) {
    return { ok: false, error: `cannot ask the install unit (${dir}): ${errorMessage(err)}`, output: [] };
  }
  const start = Date.now();
  for (;;) {
    await sleep(pollMs);
    if (existsSync(result)) break;
    const waited = Date.now() - start;
    if (existsSync(request) && waited >= pickupMs) {
      rmSync(request, { force: true });
      return { ok: false, error: 'no privilege to install: the root install unit (satstation-tnc-install.path) did not take the request; run deploy/install.sh again, or install the package by hand: sudo apt-get install direwolf', output: [] };
    }
    if (waited >= timeoutMs) return { ok: false, error: `the installation did not finish within ${Math.round(timeoutMs / 60_000)} minutes`, output: [] };
  }
  let lines: string[];
  try {
    lines = readFileSync(result, 'utf8').trimEnd().split('\n').map((l) => l.replace(/\r/g, '').slice(0, LINE_CHARS));
  } catch (err) {
    return { ok: false, error: `cannot read the install unit's result: ${errorMessage(err)}`, output: [] };
  }
  const code = Number(UNIT_EXIT.exec(lines.at(-1) ?? '')?.[1] ?? NaN);
  const output = lines.slice(0, -1).slice(-OUTPUT_LINES);
  log.info(`install through the root unit: exit ${code}`);
  if (code === 0) return { ok: true, output };
  const last = [...output].reverse().find((l) => l.trim() !== '') ?? '';
  return { ok: false, error: `installing direwolf failed (exit ${Number.isNaN(code) ? '?' : code})${last ? `: ${last}` : ''}`, output };
}

export type TerminalResult = { ok: true; terminal: string } | { ok: false; error: string };

export interface TerminalOptions {
  helper?: string;
  env?: NodeJS.ProcessEnv;
  /** Terminal emulators to look for, first found wins. */
  terminals?: string[];
}

const TERMINALS = ['x-terminal-emulator', 'lxterminal', 'xfce4-terminal', 'gnome-terminal', 'konsole', 'xterm'];

const shQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** argv to run `sh -c script` in each terminal (their -e conventions differ). */
function terminalArgs(name: string, script: string): string[] {
  const base = name.split('/').pop()!;
  if (base === 'gnome-terminal') return ['--', 'sh', '-c', script];
  if (base === 'lxterminal' || base === 'xfce4-terminal') return ['-e', `sh -c ${shQuote(script)}`]; // one string, parsed by the terminal
  return ['-e', 'sh', '-c', script]; // x-terminal-emulator (Debian's contract), xterm, konsole
}

/**
 * On a desktop session, opens a terminal running the install helper under sudo (which may ask
 * for a password there), detached from this process. Otherwise says why it cannot.
 */
export function installInTerminal(o: TerminalOptions = {}): TerminalResult {
  const env = o.env ?? process.env;
  const helper = o.helper ?? INSTALL_HELPER;
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return { ok: false, error: 'no desktop session: neither DISPLAY nor WAYLAND_DISPLAY is set for the service; install by hand: sudo apt-get install direwolf' };
  let terminal = '';
  for (const t of o.terminals ?? TERMINALS) {
    const r = resolveTncBinary(t, env);
    if (r.installed) {
      terminal = r.resolvedBinary;
      break;
    }
  }
  if (!terminal) return { ok: false, error: `no desktop session: no terminal emulator found on PATH (looked for ${(o.terminals ?? TERMINALS).join(', ')})` };
  const run = executable(helper) ? `sudo ${shQuote(helper)}` : 'sudo apt-get install --no-install-recommends direwolf';
  const script = `${run}; echo; echo 'Press Enter to close this window.'; read _`;
  try {
    const child = spawn(terminal, terminalArgs(terminal, script), { detached: true, stdio: 'ignore', env });
    child.on('error', (err) => log.warn(`terminal ${terminal} failed: ${err.message}`));
    child.unref();
  } catch (err) {
    return { ok: false, error: `cannot open ${terminal}: ${errorMessage(err)}` };
  }
  log.info(`opened ${terminal} to install direwolf`);
  return { ok: true, terminal };
}
