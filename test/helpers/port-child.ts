import { spawn, type ChildProcess } from 'node:child_process';

/**
 * A helper process that prints `{"port": n}` once listening and serves until its stdin closes:
 * the port, and a stop that closes its stdin. A child that exits first, or prints something else,
 * is an error here, not a wait that never ends; one left behind by a crashed caller ends with it
 * (its stdin closes).
 */
export async function spawnPortChild(args: string[]): Promise<{ port: number; child: ChildProcess; stop: () => void }> {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    const onData = (c: Buffer) => {
      out += c;
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      child.stdout!.off('data', onData);
      child.off('exit', onExit);
      try {
        resolve(Number(JSON.parse(out.slice(0, nl)).port));
      } catch {
        reject(new Error(`${args.join(' ')} printed ${JSON.stringify(out.slice(0, 200))}, not {"port": n}`));
      }
    };
    const onExit = (code: number | null) => reject(new Error(`${args.join(' ')} exited (${code}) before it was listening`));
    child.stdout!.on('data', onData);
    child.once('exit', onExit);
  });
  return { port, child, stop: () => child.stdin!.end() };
}
