import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';

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

/** Whether something accepts connections on 127.0.0.1:port (a probe that takes nothing from it). */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = connect(port, '127.0.0.1');
    c.once('connect', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });
}

/**
 * Starts a Hamlib daemon (rotctld, rigctld) and resolves once it accepts a connection. The probe
 * connects: a probe that binds the port (as this once did) can hold it at the moment the daemon
 * binds, and the daemon then exits with status 1, the more often the busier the machine. Its exit
 * ends the wait at once.
 */
export async function startHamlibDaemon(program: string, args: string[], port: number): Promise<ChildProcess> {
  const proc = spawn(program, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-2000)));
  for (let i = 0; i < 100; i++) {
    if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`${program} exited (${proc.exitCode ?? proc.signalCode}): ${stderr.trim()}`);
    if (await accepts(port)) return proc;
    await sleep(20);
  }
  proc.kill();
  throw new Error(`${program} did not start listening: ${stderr.trim()}`);
}

/** rotctld with its dummy rotator (-m 1) on 127.0.0.1:port. */
export function startRotctld(port: number): Promise<ChildProcess> {
  return startHamlibDaemon('rotctld', ['-m', '1', '-T', '127.0.0.1', '-t', String(port)], port);
}
