import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

// Hamlib's real rotctld with its dummy rotator (-m 1) on a free loopback port: the peer our
// rotctld client is checked against (driver-rotctld.test.ts, rotator-routes.test.ts).

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

export async function startRotctld(port: number): Promise<ChildProcess> {
  const proc = spawn('rotctld', ['-m', '1', '-T', '127.0.0.1', '-t', String(port)], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const c = createServer(); // probe by binding: EADDRINUSE means rotctld listens
      c.once('error', () => resolve(true));
      c.listen(port, '127.0.0.1', () => c.close(() => resolve(false)));
    });
    if (up) return proc;
    await sleep(20);
  }
  proc.kill();
  throw new Error('rotctld did not start listening');
}
