import { writeSync } from 'node:fs';

// Log lines to standard output without process.stdout at boot (issue 36). Over a pipe or journald's
// socket, process.stdout is a net.Socket: creating it reads net and the stream modules, ~5–10 ms of
// CPU before the first line (a tenth of a second at a tenth of a core). Node writes to pipes
// synchronously on Linux anyway, so a line goes straight to descriptor 1. Only when the descriptor
// would block (EAGAIN: something made it non-blocking and its reader is behind) are this line's
// rest and every later line handed to process.stdout, which queues them in order. A reader that is
// gone (EPIPE) or a closed descriptor loses the line, as it would through the stream.

let direct = true;

export function writeStdoutLine(line: string): void {
  if (direct) {
    const bytes = Buffer.from(line + '\n');
    let off = 0;
    try {
      while (off < bytes.length) off += writeSync(1, bytes, off);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return;
      direct = false;
      process.stdout.write(bytes.subarray(off));
      return;
    }
  }
  process.stdout.write(line + '\n');
}
