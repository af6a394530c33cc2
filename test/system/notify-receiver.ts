import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A real datagram receiver on a Unix socket, standing in for systemd's notify socket. Perl (in
// perl-base, essential in every Debian) rather than `socat -u UNIX-RECV:`: socat takes the file
// descriptor that systemd-notify's BARRIER=1 passes and keeps it open, so every send would wait
// out the 5 s barrier timeout; perl's recv() takes no ancillary data, so the kernel closes that
// descriptor at once, as PID 1 does after processing the message.

export interface NotifyMessage {
  /** The datagram, newlines as spaces ("READY=1 STATUS=…"). */
  text: string;
  /** performance.now() of this (test) process when the line arrived. */
  at: number;
}

export interface NotifyReceiver {
  path: string;
  messages: NotifyMessage[];
  /** Resolves with the first message (from index `from`) matching, or rejects after timeoutMs. */
  waitFor(pred: (text: string) => boolean, timeoutMs?: number, from?: number): Promise<NotifyMessage>;
  close(): void;
}

const PERL =
  'use IO::Socket::UNIX; $|=1; my $s=IO::Socket::UNIX->new(Type=>SOCK_DGRAM(), Local=>$ARGV[0]) or die "bind: $!"; ' +
  'print "bound\\n"; while (defined $s->recv(my $b, 4096)) { $b =~ s/\\n/ /g; print "$b\\n"; }';

export async function startReceiver(): Promise<NotifyReceiver> {
  const dir = mkdtempSync(join(tmpdir(), 'satstation-notify-'));
  const path = join(dir, 'notify.sock');
  const child: ChildProcess = spawn('perl', ['-e', PERL, path], { stdio: ['ignore', 'pipe', 'pipe'] });
  const messages: NotifyMessage[] = [];
  const waiters = new Set<() => void>();
  let part = '';
  let bound = false;
  let stderr = '';
  child.stderr!.on('data', (b) => (stderr += b));
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (s: string) => {
    const at = performance.now();
    part += s;
    const lines = part.split('\n');
    part = lines.pop()!;
    for (const l of lines) {
      if (!bound && l === 'bound') bound = true;
      else messages.push({ text: l.trim(), at });
    }
    for (const w of [...waiters]) w();
  });
  const t0 = Date.now();
  while (!bound || !existsSync(path)) {
    if (child.exitCode !== null || Date.now() - t0 > 5000) throw new Error(`notify receiver did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return {
    path,
    messages,
    waitFor(pred, timeoutMs = 10_000, from = 0) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = messages.slice(from).find((x) => pred(x.text));
          if (!m) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(m);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching notify message in ${timeoutMs} ms; got: ${JSON.stringify(messages.map((x) => x.text))}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close() {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
