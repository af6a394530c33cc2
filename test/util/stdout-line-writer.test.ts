import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';

// The logger's line writer, run in a child whose stdout is a pipe this test reads slowly: every
// line arrives once and in order whether descriptor 1 blocks (the usual case: nothing made it
// non-blocking) or would block (process.stdout made first, which puts the pipe in non-blocking
// mode, so a full pipe answers EAGAIN and the writer hands over to the stream).

const writer = pathToFileURL(join(import.meta.dirname, '../../src/util/stdout-line-writer.ts')).href;
const LINES = 20_000;

async function run(streamFirst: boolean): Promise<{ lines: string[]; code: number | null }> {
  const script = [
    `import { writeStdoutLine } from ${JSON.stringify(writer)};`,
    streamFirst ? "process.stdout.write('stream first\\n');" : '',
    `for (let i = 0; i < ${LINES}; i++) writeStdoutLine('line ' + i + ' ' + 'x'.repeat(180));`,
  ].join('\n');
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  // 'close': the child has exited and its stdout is read to the end.
  const closed = new Promise<number | null>((r) => child.on('close', r));
  // Nothing read for 300 ms: ~4 MiB of lines meet a 64 KiB pipe.
  child.stdout.pause();
  await new Promise((r) => setTimeout(r, 300));
  let text = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (text += d));
  child.stdout.resume();
  const code = await closed;
  return { lines: text.split('\n').filter(Boolean), code };
}

describe('writeStdoutLine (the logger, without process.stdout at boot)', () => {
  for (const streamFirst of [false, true]) {
    it(`every line once and in order through a slow pipe (${streamFirst ? 'process.stdout made first: non-blocking, EAGAIN' : 'a blocking descriptor'})`, async () => {
      const { lines, code } = await run(streamFirst);
      assert.equal(code, 0);
      const ours = streamFirst ? (assert.equal(lines[0], 'stream first'), lines.slice(1)) : lines;
      assert.equal(ours.length, LINES);
      for (let i = 0; i < LINES; i++) if (!ours[i].startsWith(`line ${i} `)) assert.fail(`line ${i}: ${ours[i].slice(0, 40)}`);
    });
  }
});
