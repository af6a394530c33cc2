import type { RigLine } from '../rig-line.js';
import { RigOpenError } from '../rig-line.js';
import type { RigLink } from '../settings.js';
import { hamlibCapabilities } from '../rig-capabilities.js';
import { HamlibDriver } from './hamlib-driver.js';
import { listHamlibModels, modelName, type HamlibModelList } from './hamlib-models.js';
import { connectRigctld, type RigctldClient } from './rigctld-client.js';
import { RigctldProcess, freeLoopbackPort } from './rigctld-process.js';
import type { Clock } from '../../util/clock.js';
import { errorMessage } from '../../util/errors.js';
import { Listeners } from '../../util/listeners.js';
import { logger } from '../../util/logger.js';
import { splitHostPort } from '../../util/net-rules.js';

// Opens a radio through Hamlib: a rigctld the operator runs (hamlib_address "host:port"), or one
// the station runs itself (the sidecar) on 127.0.0.1 and a free port: Hamlib has no
// authentication, and that port can key the transmitter. The line is lost when the connection
// drops or the sidecar ends; RigConnection reopens it with capped backoff, a new sidecar each
// time. What cannot work until the operator changes a setting (no rigctld, a model Hamlib does
// not know) is a RigOpenError without retry; everything else is retried.

const log = logger('radio:hamlib');

export const HAMLIB_TIMING = {
  connectMs: 3_000,
  /** Above rigctld's own timeout and retries on a slow rig: it answers RPRT -5 itself then. */
  replyMs: 10_000,
  /** The sidecar opens the radio before it listens (Hamlib retries a serial open for about 2 s). */
  startMs: 20_000,
  /** Between attempts to reach a sidecar that does not listen yet (real time: the process's pace). */
  pollMs: 50,
  /** A dropped connection waits this long for the sidecar's exit, whose words say more. */
  exitWaitMs: 300,
} as const;

export const RIGCTLD_MISSING = 'rigctld is not installed: install libhamlib-utils (sudo apt-get install libhamlib-utils)';

export interface HamlibLineDeps {
  clock: Clock;
  /** The rigctld program: a name on PATH (the default, rigctld) or a path. */
  rigctld?: string;
  /** Hamlib's model list, for the rig's name (default: rigctl -l, run once). */
  models?: () => Promise<HamlibModelList>;
  startMs?: number;
}

/** A Hamlib rig's line; pid is the sidecar's rigctld (null for one the operator runs). */
export interface HamlibLine extends RigLine {
  readonly rig: HamlibDriver;
  readonly pid: number | null;
}

export function openHamlibLine(d: HamlibLineDeps, link: RigLink): Promise<HamlibLine> {
  return link.hamlib_address ? openExternal(d, link.hamlib_address) : openSidecar(d, link);
}

/** hamlib_model is ignored: the daemon's dump says which rig it drives. */
async function openExternal(d: HamlibLineDeps, address: string): Promise<HamlibLine> {
  const { host, port } = splitHostPort(address);
  const names = (d.models ?? (() => listHamlibModels()))();
  let client: RigctldClient;
  try {
    client = await connectRigctld({ host, port, clock: d.clock, connectMs: HAMLIB_TIMING.connectMs, replyMs: HAMLIB_TIMING.replyMs });
  } catch (err) {
    throw new RigOpenError(`cannot open the rig through rigctld at ${address}: ${errorMessage(err)}`, true);
  }
  const model = client.info!.dump.model;
  return lineOver(d, client, `rigctld://${address}`, hamlibCapabilities(model, modelName(await names, model)), null);
}

async function openSidecar(d: HamlibLineDeps, link: RigLink): Promise<HamlibLine> {
  const model = link.hamlib_model;
  const device = link.serial_device;
  const names = (d.models ?? (() => listHamlibModels()))();
  const port = await freeLoopbackPort();
  const proc = new RigctldProcess({
    program: d.rigctld ?? 'rigctld',
    // -vv: Hamlib's error lines (a device it cannot open), which are the operator's answer.
    args: ['-m', String(model), '-r', device, '-s', String(link.baud_rate), '-T', '127.0.0.1', '-t', String(port), '-vv'],
    clock: d.clock,
  });
  try {
    const client = await untilListening(d, proc, port, { model, device });
    return await lineOver(d, client, `rigctld://127.0.0.1:${port} (${device})`, hamlibCapabilities(model, modelName(await names, model)), proc);
  } catch (err) {
    await proc.stop();
    throw err;
  }
}

/** Connects once the sidecar listens; its exit, or a hello that fails, is the open's error in rigctld's words. */
async function untilListening(d: HamlibLineDeps, proc: RigctldProcess, port: number, rig: { model: number; device: string }): Promise<RigctldClient> {
  const startMs = d.startMs ?? HAMLIB_TIMING.startMs;
  const deadline = d.clock.now() + startMs;
  const ended = new Promise<void>((resolve) => proc.onExit(() => resolve()));
  for (;;) {
    if (proc.exit) throw startFailure(proc, rig);
    // Hamlib retried the device and gave up; rigctld would listen anyway and then never answer.
    const cannotOpen = proc.output().find((l) => UNABLE.test(l));
    if (cannotOpen) throw new RigOpenError(`rigctld could not open Hamlib model ${rig.model} on ${rig.device}: ${cannotOpen}`, true);
    try {
      return await connectRigctld({ host: '127.0.0.1', port, clock: d.clock, connectMs: HAMLIB_TIMING.connectMs, replyMs: HAMLIB_TIMING.replyMs });
    } catch (err) {
      if (!/ECONNREFUSED/.test(errorMessage(err))) {
        if (proc.exit) throw startFailure(proc, rig);
        throw new RigOpenError(`rigctld could not open Hamlib model ${rig.model} on ${rig.device}: ${said(proc) ?? errorMessage(err)}`, true);
      }
    }
    if (d.clock.now() >= deadline) throw new RigOpenError(`rigctld did not listen within ${startMs / 1000} s of starting (Hamlib model ${rig.model} on ${rig.device})${said(proc) ? `: ${said(proc)}` : ''}`, true);
    await Promise.race([ended, sleep(HAMLIB_TIMING.pollMs)]);
  }
}

/** Why a sidecar ended before it listened, in the operator's terms. */
function startFailure(proc: RigctldProcess, rig: { model: number; device: string }): RigOpenError {
  const e = proc.exit!;
  if (e.desc === 'not found') return new RigOpenError(RIGCTLD_MISSING, false);
  if (e.desc === 'not executable') return new RigOpenError(`rigctld cannot be run (${said(proc) ?? 'not executable'})`, false);
  const unknown = proc.output().find((l) => /Unknown rig num/i.test(l));
  if (unknown) return new RigOpenError(`Hamlib has no rig model ${rig.model} (rigctld: "${unknown}"): set hamlib_model to a number rigctl -l lists`, false);
  return new RigOpenError(`rigctld ${e.desc} at start (Hamlib model ${rig.model} on ${rig.device})${said(proc) ? `: ${said(proc)}` : ''}`, true);
}

/** The line of rigctld's output that says most: a device it cannot open, else its last error, else (lastLine) its last line. */
function said(proc: RigctldProcess, lastLine = true): string | null {
  const out = proc.output();
  const pick = (re: RegExp) => [...out].reverse().find((l) => re.test(l));
  return pick(UNABLE) ?? pick(SILENT) ?? pick(/error|failed|unknown/i) ?? (lastLine ? (out.at(-1) ?? null) : null);
}

/** What Hamlib prints (at -vv) when it gave up opening the device: "serial_open: Unable to open /dev/ttyUSB0 - Permission denied". */
const UNABLE = /Unable to open/i;
/** A radio that does not answer its CAT (off, a wrong speed, no cable): "read_block_generic(): Timed out 3.1 seconds after 0 chars". */
const SILENT = /Timed out .* after 0 chars/i;

async function lineOver(d: HamlibLineDeps, client: RigctldClient, label: string, capabilities: HamlibDriver['capabilities'], proc: RigctldProcess | null): Promise<HamlibLine> {
  const rig = new HamlibDriver(client, { clock: d.clock, capabilities });
  const lost = new Listeners<string>(log, `${label} lost`);
  let closing = false;
  let lostWhy: string | null = null;
  const fire = (why: string) => {
    if (closing || lostWhy !== null) return;
    lostWhy = why;
    lost.emitOnce(why);
  };
  const exited = (): string | null => (proc?.exit ? `rigctld ${proc.exit.desc}${said(proc, false) ? ` (${said(proc, false)})` : ''}` : null);
  proc?.onExit(() => fire(exited()!));
  client.onClose((err) => {
    if (!err) return;
    const why = `rigctld connection lost: ${err.message}`;
    if (!proc) return fire(why);
    // Killed or crashed, the sidecar's exit arrives right after the connection's end: it says more.
    void Promise.race([new Promise<void>((r) => proc.onExit(() => r())), sleep(HAMLIB_TIMING.exitWaitMs)]).then(() => fire(exited() ?? why));
  });
  return {
    label,
    rig,
    pid: proc?.pid ?? null,
    onLost(fn) {
      if (lostWhy !== null) {
        if (!closing) fn(lostWhy);
        return;
      }
      lost.add(fn);
    },
    async close() {
      closing = true;
      await client.close();
      await proc?.stop();
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref());
}
