import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

// Hamlib's real daemons on a free loopback port: rotctld with its dummy rotator (-m 1), the peer our
// rotctld client is checked against (driver-rotctld.test.ts, rotator-routes.test.ts), and rigctld
// for the rigctld client (test/radio/rigctld/).

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * Whether a socket listens on 127.0.0.1:port, read from the kernel's table (/proc/net/tcp): a
 * probe that connects is a client session of its own, and rigctld could close the next client's
 * connection while it wound the probe's session down (the hello of a test's first connection failed
 * with "closed the connection", now and then, on a busy machine).
 */
function listening(port: number): boolean {
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  let table: string;
  try {
    table = readFileSync('/proc/net/tcp', 'utf8');
  } catch {
    return false;
  }
  // Columns: sl, local_address, rem_address, st (0A: LISTEN), ...
  return table.split('\n').some((line) => {
    const f = line.trim().split(/\s+/);
    return f[1] === local && f[3] === '0A';
  });
}

/**
 * Starts a Hamlib daemon (rotctld, rigctld) and resolves once it listens. The probe neither binds
 * the port (a probe that did could hold it at the moment the daemon bound, and the daemon exited
 * with status 1) nor connects (see listening). Its exit ends the wait at once.
 */
export async function startHamlibDaemon(program: string, args: string[], port: number): Promise<ChildProcess> {
  const proc = spawn(program, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-2000)));
  for (let i = 0; i < 100; i++) {
    if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`${program} exited (${proc.exitCode ?? proc.signalCode}): ${stderr.trim()}`);
    if (listening(port)) return proc;
    await sleep(20);
  }
  proc.kill();
  throw new Error(`${program} did not start listening: ${stderr.trim()}`);
}

/** rotctld with its dummy rotator (-m 1) on 127.0.0.1:port. */
export function startRotctld(port: number): Promise<ChildProcess> {
  return startHamlibDaemon('rotctld', ['-m', '1', '-T', '127.0.0.1', '-t', String(port)], port);
}
