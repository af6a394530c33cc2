// kill -9 at random moments while the APRS log appends and compacts: the file only ever loses
// the line being written, never one before it, and the next process carries on from it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import * as v from 'valibot';
import { AprsLog } from '../../src/aprs/log/aprs-log.js';
import { AprsLogEntrySchema } from '../../src/aprs/log/log-entry.js';
import { systemClock } from '../../src/util/clock.js';
import { setLogLevel } from '../../src/util/logger.js';
import { mulberry32 } from '../helpers/prng.js';

setLogLevel('silent');
const MAX = 15;
const ROUNDS = 12;

const rng = mulberry32;

const num = (text: string) => Number(/^seq (\d+)$/.exec(text)?.[1] ?? NaN);

/** The record numbers on file, in file order; every line but an unterminated last one must parse. */
function numbersOnFile(path: string): number[] {
  if (!existsSync(path)) return [];
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  const tail = lines.pop()!; // '' when the file ends in '\n', else the torn line
  void tail;
  return lines.map((l, i) => {
    const e = v.parse(AprsLogEntrySchema, JSON.parse(l), { abortEarly: true });
    assert.ok(Number.isFinite(num(e.text)), `line ${i}: ${l}`);
    return num(e.text);
  });
}

function assertRun(nums: number[], what: string): void {
  for (let i = 1; i < nums.length; i++) assert.equal(nums[i], nums[i - 1] + 1, `${what}: gap or repeat at ${i}: ${nums.slice(Math.max(0, i - 3), i + 2)}`);
}

describe('APRS log under kill -9', () => {
  it('every line but a torn last one parses, the kept tail is unbroken, and appends resume', { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'satstation-aprslog-kill-'));
    const path = join(dir, 'aprs-log.jsonl');
    const writer = join(import.meta.dirname, 'fixtures', 'aprs-log-writer.ts');
    const rand = rng(0x5a7);
    let prevLast = -1;
    let progressed = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const child = spawn(process.execPath, ['--import', 'tsx', writer, path, String(MAX)], { stdio: ['ignore', 'pipe', 'inherit'] });
      const start = await new Promise<number>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
          const m = /ready (\d+)\n/.exec(out);
          if (m) resolve(Number(m[1]));
        });
        child.once('exit', (code) => reject(new Error(`writer exited early (${code})`)));
      });
      assert.equal(start, prevLast + 1, 'the child continues after the last record on file');
      await new Promise((r) => setTimeout(r, Math.floor(rand() * 250)));
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));

      const nums = numbersOnFile(path);
      assertRun(nums, `round ${round}`);
      const last = nums.length ? nums[nums.length - 1] : -1;
      assert.ok(last >= prevLast, `round ${round}: records already on file were lost (${last} < ${prevLast})`);
      // Compaction keeps the newest MAX; only the write in flight may be missing past that.
      assert.ok(nums.length >= Math.min(MAX, last + 1), `round ${round}: only ${nums.length} records kept`);
      assert.ok(nums.length <= Math.ceil(MAX * 1.25) + 1, `round ${round}: ${nums.length} lines, compaction did not bound the file`);
      if (last > prevLast) progressed++;
      prevLast = last;
    }
    assert.ok(progressed >= ROUNDS / 2, `the writer made progress in only ${progressed} rounds`);

    // The next boot: temps swept, a torn tail cut, the same records in memory, appends work.
    const log = new AprsLog({ path, maxRecords: MAX, clock: systemClock });
    await log.load();
    assert.deepEqual(readdirSync(dir), ['aprs-log.jsonl']);
    const inMemory = log.entries().map((e) => num(e.text)).reverse();
    assertRun(inMemory, 'after load');
    assert.equal(inMemory[inMemory.length - 1], prevLast);
    const ids = log.entries().map((e) => e.id);
    assert.deepEqual([...ids].sort().reverse(), ids, 'ids increase in file order');
    log.append({ received_at: new Date().toISOString(), source: 'N0CALL', destination: 'APRS', text: `seq ${prevLast + 1}`, message: false });
    await log.close();
    assert.equal(log.lastError, null);
    const after = numbersOnFile(path);
    assertRun(after, 'after append');
    assert.equal(after[after.length - 1], prevLast + 1);
    assert.ok(readFileSync(path, 'utf8').endsWith('\n'));
  });
});
