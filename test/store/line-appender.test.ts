import assert from 'node:assert/strict';
import { openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { LineAppender } from '../../src/store/line-appender.js';
import { tmpDataDir } from '../helpers/server.js';

// The appender writes through a raw descriptor (util/fs-calls.ts): a close asked for while a batch
// is being written waits for it, so the batch never goes to a descriptor another open has reused.
test('a close during a batch waits for it: every line reaches this file, none another', async () => {
  const dir = tmpDataDir('satstation-appender-');
  try {
    const path = join(dir, 'log.jsonl');
    const other = join(dir, 'other.txt');
    const a = new LineAppender(path);
    for (let i = 0; i < 2000; i++) a.queue(`{"n":${i},"pad":"${'x'.repeat(60)}"}\n`);
    const order: string[] = [];
    const batch = a.writeBatch().then(() => order.push('batch')); // a first batch of 64 KiB
    const closed = a.close().then(() => order.push('closed'));
    // An open right after the close was asked for takes the lowest free descriptor.
    await closed;
    assert.deepEqual(order, ['batch', 'closed'], 'the close waited for the batch');
    const fd = openSync(other, 'w');
    closeSync(fd);
    await batch;
    while (a.waiting) await a.writeBatch();
    await a.close();
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    assert.equal(lines.length, 2000);
    assert.deepEqual(lines.map((l) => JSON.parse(l).n), Array.from({ length: 2000 }, (_, i) => i));
    assert.equal(readFileSync(other, 'utf8'), '');
    assert.equal(a.fileLines, 2000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
