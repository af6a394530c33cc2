import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tmpDataDir } from '../helpers/server.js';
import { LogbookJournal } from '../../src/logbook/journal.js';
import { backoffMs, DEFAULT_BACKOFF } from '../../src/logbook/push-queue.js';
import { logger } from '../../src/util/logger.js';
import { satQso } from './fixtures.js';

// The logbook's journal file on a real directory: replay of QSO, push and delete events, a torn
// last line cut off at load, bad lines skipped and compacted away, the bound keeping the newest;
// and the push queue's backoff rule.

const log = logger('test');
const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter((l) => l !== '');

describe('logbook journal', () => {
  it('replays the events, cuts a torn last line off and keeps appending on a fresh line', async () => {
    const path = join(tmpDataDir(), 'logbook.jsonl');
    const a = satQso({ id: 'a1', call: 'W1AW' });
    const b = satQso({ id: 'b2', call: 'K1ABC' });
    writeFileSync(
      path,
      [
        JSON.stringify({ t: 'qso', q: a }),
        JSON.stringify({ t: 'qso', q: b }),
        JSON.stringify({ t: 'push', id: 'a1', state: 'pushed', error: null }),
        'not json at all',
        JSON.stringify({ t: 'del', id: 'b2' }),
      ].join('\n') + '\n',
    );
    appendFileSync(path, '{"t":"qso","q":{"id":"c3","ca'); // the write a kill cut
    const j = new LogbookJournal({ path, maxRecords: 100, log });
    await j.load();
    assert.deepEqual([...j.records.keys()], ['a1']);
    assert.equal(j.records.get('a1')!.push_state, 'pushed');
    assert.ok(readFileSync(path, 'utf8').endsWith('\n'), 'torn line cut off');
    await j.change({ t: 'qso', q: satQso({ id: 'd4', call: 'VE3XYZ' }) });
    await j.close();
    // The bad line made the file dirty: the first change compacted it to one line per QSO.
    const after = lines(path).map((l) => JSON.parse(l));
    assert.deepEqual(after.map((e) => e.q.id), ['a1', 'd4']);
    const again = new LogbookJournal({ path, maxRecords: 100, log });
    await again.load();
    assert.deepEqual([...again.records.keys()], ['a1', 'd4']);
    assert.equal(again.records.get('a1')!.push_state, 'pushed');
  });

  it('stays bounded: the oldest go at compaction, dead lines do not pile up', async () => {
    const path = join(tmpDataDir(), 'logbook.jsonl');
    const j = new LogbookJournal({ path, maxRecords: 5, log });
    await j.load();
    for (let i = 0; i < 12; i++) {
      await j.change({ t: 'qso', q: satQso({ id: `q${i}`, call: `W${i % 10}AB` }) });
      await j.change({ t: 'push', id: `q${i}`, state: 'pushed', error: null });
    }
    await j.close();
    assert.deepEqual([...j.records.keys()], ['q7', 'q8', 'q9', 'q10', 'q11']);
    assert.ok(lines(path).length <= 5 * 2 + 64);
    const again = new LogbookJournal({ path, maxRecords: 5, log });
    await again.load();
    assert.deepEqual([...again.records.keys()], ['q7', 'q8', 'q9', 'q10', 'q11']);
    assert.ok([...again.records.values()].every((q) => q.push_state === 'pushed'));
  });

  it('a change that cannot be written rejects and changes nothing', async () => {
    const path = join(tmpDataDir(), 'logbook.jsonl');
    const j = new LogbookJournal({ path, maxRecords: 5, log });
    await j.load();
    mkdirSync(path); // something that cannot take an append sits where the file goes
    await assert.rejects(j.change({ t: 'qso', q: satQso() }), (e: Error & { status?: number }) => e.status === 507);
    assert.equal(j.records.size, 0);
    assert.match(j.lastError!, /EISDIR/);
    rmdirSync(path);
    await j.change({ t: 'qso', q: satQso({ id: 'ok1' }) });
    assert.deepEqual(lines(path).map((l) => JSON.parse(l).q.id), ['ok1'], 'the refused line was not written later behind the caller');
  });
});

describe('push backoff', () => {
  it('doubles from 5 s to a 5 min cap, and waits at least a Retry-After up to an hour', () => {
    const waits = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => backoffMs(n, null, DEFAULT_BACKOFF));
    assert.deepEqual(waits, [5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000]);
    assert.equal(backoffMs(1, 30_000, DEFAULT_BACKOFF), 30_000);
    assert.equal(backoffMs(7, 30_000, DEFAULT_BACKOFF), 300_000);
    assert.equal(backoffMs(1, 86_400_000, DEFAULT_BACKOFF), 3_600_000);
  });
});
