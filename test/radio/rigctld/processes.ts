import { readFileSync, readdirSync } from 'node:fs';

// Which processes live, read from /proc: a zombie (exited, not yet reaped by a parent that is
// gone) counts as gone, since it holds no port, no device and no CPU.

export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Live rigctld processes whose command line names `word` (the serial device a test gave it). */
export function rigctldPids(word: string): number[] {
  const out: number[] = [];
  for (const n of readdirSync('/proc')) {
    if (!/^\d+$/.test(n)) continue;
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${n}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (/(^|\/)rigctld$/.test(argv[0]) && argv.includes(word) && alive(Number(n))) out.push(Number(n));
  }
  return out;
}

/** Whether 127.0.0.1:port is listened on, and on which local addresses a listener holds that port (/proc/net/tcp, tcp6). */
export function listenersOn(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const out: string[] = [];
  for (const f of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(f, 'utf8');
    } catch {
      continue;
    }
    for (const row of text.split('\n').slice(1)) {
      const [, local, , state] = row.trim().split(/\s+/);
      if (state === '0A' && local?.endsWith(`:${hexPort}`)) out.push(local.slice(0, local.lastIndexOf(':')));
    }
  }
  return out;
}
