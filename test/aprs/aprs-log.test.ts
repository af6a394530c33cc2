import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import * as v from 'valibot';
import { AGE_BUCKETS, AgeBucketSchema, ageBucketMs } from '../../src/aprs/log/age-bucket.js';
import { AprsLog } from '../../src/aprs/log/aprs-log.js';
import { AprsLogEntrySchema, type AprsLogEntry } from '../../src/aprs/log/log-entry.js';
import { toCsv, toJsonExport } from '../../src/aprs/log/log-export.js';
import { FixedClock, iso } from '../../src/util/clock.js';
import { StorageError } from '../../src/util/errors.js';
import { setLogLevel } from '../../src/util/logger.js';

setLogLevel((process.env.TEST_LOG_LEVEL as 'debug') ?? 'silent');

const T0 = Date.parse('2026-08-22T12:00:00Z');
const HOUR = 3600_000;
const tmp = () => mkdtempSync(join(tmpdir(), 'satstation-aprslog-'));
const pkt = (n: number, at: number, extra: Partial<AprsLogEntry> = {}) => ({
  received_at: iso(at),
  source: `N0CALL-${n % 16}`,
  destination: 'APRS',
  text: `packet ${n}`,
  message: false,
  ...extra,
});
const fileLines = (path: string) => readFileSync(path, 'utf8').split('\n').filter((l, i, a) => i < a.length - 1 || l !== '');

const opened: AprsLog[] = [];
after(async () => {
  for (const l of opened) await l.close();
});
function make(path: string, maxRecords = 100, clock = new FixedClock(T0)): AprsLog {
  const log = new AprsLog({ path, maxRecords, clock });
  opened.push(log);
  return log;
}
async function open(path: string, maxRecords = 100, clock = new FixedClock(T0)): Promise<AprsLog> {
  const log = make(path, maxRecords, clock);
  await log.load();
  return log;
}

describe('APRS log: append and read back', () => {
  it('stores one JSON line per entry, returns newest first, and reads them back after a restart', async () => {
    const path = join(tmp(), 'nested', 'dir', 'aprs-log.jsonl'); // missing directories are created
    const clock = new FixedClock(T0);
    const log = await open(path, 100, clock);
    for (let n = 0; n < 5; n++) {
      const e = log.append(pkt(n, T0 + n * 1000, { message: n === 3 }));
      assert.ok(e && e.id);
      clock.advance(1000);
    }
    assert.equal(log.size, 5);
    assert.deepEqual(
      log.entries().map((e) => e.text),
      ['packet 4', 'packet 3', 'packet 2', 'packet 1', 'packet 0'],
    );
    assert.deepEqual(
      log.entries({ limit: 2 }).map((e) => e.text),
      ['packet 4', 'packet 3'],
    );
    assert.deepEqual(
      log.entries({ since: iso(T0 + 3000) }).map((e) => e.text),
      ['packet 4', 'packet 3'],
    );
    await log.close();
    const lines = fileLines(path);
    assert.equal(lines.length, 5);
    for (const l of lines) assert.ok(v.is(AprsLogEntrySchema, JSON.parse(l)));
    const again = await open(path);
    assert.deepEqual(again.entries(), log.entries());
    assert.equal(again.entries()[1].message, true);
    assert.equal(again.lastError, null);
  });

  it('normalises received_at to UTC, clips over-long fields, refuses an invalid timestamp without throwing', async () => {
    const log = await open(join(tmp(), 'log.jsonl'));
    const e = log.append(pkt(1, 0, { received_at: '2026-08-22T14:00:00+02:00', text: 'x'.repeat(2000), source: 'S'.repeat(100) }));
    assert.equal(e?.received_at, '2026-08-22T12:00:00.000Z');
    assert.equal(e?.text.length, 512);
    assert.equal(e?.source.length, 64);
    assert.equal(log.append(pkt(2, 0, { received_at: 'yesterday' })), null);
    // Newlines and control characters in text stay inside the one line.
    log.append(pkt(3, T0, { text: 'a\nb\r\u0000"c"\u2028' }));
    await log.close();
    assert.equal(fileLines(log.path).length, 2);
    const back = await open(log.path);
    assert.equal(back.entries()[0].text, 'a\nb\r\u0000"c"\u2028');
  });

  it('keeps appends made before load() and writes them after it, with ids after the file\'s', async () => {
    const path = join(tmp(), 'log.jsonl');
    const first = await open(path);
    first.append(pkt(0, T0));
    await first.close();
    const log = make(path, 10, new FixedClock(T0 - HOUR));
    assert.equal(log.append(pkt(1, T0)), null); // deferred, not lost
    await log.load();
    await log.flush();
    assert.deepEqual(
      log.entries().map((e) => e.text),
      ['packet 1', 'packet 0'],
    );
    assert.ok(log.entries()[0].id > log.entries()[1].id);
    assert.equal(fileLines(path).length, 2);
  });
});

describe('APRS log: ids', () => {
  it('are unique and increasing across restarts, even when the clock goes back', async () => {
    const path = join(tmp(), 'log.jsonl');
    const ids: string[] = [];
    const clocks = [T0, T0, T0 - 10 * HOUR, T0 + HOUR]; // same ms twice, then a Pi booting with an old clock
    for (const t of clocks) {
      const log = await open(path, 1000, new FixedClock(t));
      for (let n = 0; n < 3; n++) ids.push(log.append(pkt(n, t))!.id);
      await log.close();
    }
    assert.equal(new Set(ids).size, ids.length);
    assert.deepEqual([...ids].sort(), ids, 'ids sort as text in append order');
    const log = await open(path, 1000);
    assert.deepEqual(
      log.entries().map((e) => e.id),
      [...ids].reverse(),
    );
  });

  it('stay ordered past 10 000 entries within one millisecond', async () => {
    const log = await open(join(tmp(), 'log.jsonl'), 20);
    let prev = '';
    for (let n = 0; n < 10_050; n++) {
      const id = log.append(pkt(n, T0))!.id;
      assert.ok(id > prev, `${id} > ${prev}`);
      prev = id;
    }
    await log.close();
  });
});

describe('APRS log: cap and compaction', () => {
  it('keeps at most maxRecords in memory and at most 1.25× maxRecords lines on disk', async () => {
    const path = join(tmp(), 'log.jsonl');
    const log = await open(path, 20);
    let maxLines = 0;
    for (let n = 0; n < 500; n++) {
      log.append(pkt(n, T0 + n));
      if (n % 3 === 0) {
        await log.flush();
        maxLines = Math.max(maxLines, fileLines(path).length);
      }
    }
    await log.flush();
    assert.equal(log.size, 20);
    assert.ok(maxLines <= 25, `file reached ${maxLines} lines`);
    assert.deepEqual(readdirSync(join(path, '..')), ['log.jsonl'], 'no temp files left');
    const texts = log.entries().map((e) => e.text);
    assert.equal(texts[0], 'packet 499');
    assert.equal(texts[19], 'packet 480');
    await log.close();
    const again = await open(path, 20);
    assert.deepEqual(
      again.entries().map((e) => e.text),
      texts,
    );
  });

  it('a burst without awaiting still ends bounded', async () => {
    const path = join(tmp(), 'log.jsonl');
    const log = await open(path, 50);
    for (let n = 0; n < 5000; n++) log.append(pkt(n, T0 + n));
    await log.flush();
    assert.ok(fileLines(path).length <= 63);
    assert.equal(log.entries()[0].text, 'packet 4999');
    const back = await open(path, 50);
    assert.deepEqual(back.entries(), log.entries());
  });

  it('setMaxRecords shrinks memory at once and the file at the next write', async () => {
    const path = join(tmp(), 'log.jsonl');
    const log = await open(path, 100);
    for (let n = 0; n < 80; n++) log.append(pkt(n, T0 + n));
    await log.flush();
    log.setMaxRecords(10);
    assert.equal(log.size, 10);
    assert.equal(log.entries()[9].text, 'packet 70');
    await log.flush();
    assert.equal(fileLines(path).length, 10);
    assert.throws(() => log.setMaxRecords(0), RangeError);
  });

  it('a file bigger than the cap is loaded from its newest lines and compacted', async () => {
    const path = join(tmp(), 'log.jsonl');
    const big = await open(path, 1000);
    for (let n = 0; n < 1000; n++) big.append(pkt(n, T0 + n));
    await big.close();
    const log = await open(path, 10);
    assert.equal(log.size, 10);
    assert.equal(log.entries()[0].text, 'packet 999');
    await log.flush();
    assert.equal(fileLines(path).length, 10);
  });
});

describe('APRS log: prune by age bucket', () => {
  it('accepts the documented buckets only', () => {
    assert.deepEqual([...AGE_BUCKETS], ['1h', '6h', '24h', '7d', '30d', 'all']);
    for (const b of AGE_BUCKETS) assert.ok(v.is(AgeBucketSchema, b));
    for (const b of ['2h', '', 'ALL', 1, null]) assert.ok(!v.is(AgeBucketSchema, b));
    assert.equal(ageBucketMs('1h'), HOUR);
    assert.equal(ageBucketMs('7d'), 7 * 24 * HOUR);
    assert.equal(ageBucketMs('all'), null);
  });

  it('removes entries older than the bucket, rewrites the file, and survives a restart', async () => {
    const path = join(tmp(), 'log.jsonl');
    const clock = new FixedClock(T0);
    const log = await open(path, 100, clock);
    // Ages: 40 d, 10 d, 2 d, 12 h, 3 h, 30 min, now.
    const ages = [40 * 24, 10 * 24, 48, 12, 3, 0.5, 0].map((h) => h * HOUR);
    ages.forEach((a, n) => log.append(pkt(n, T0 - a)));
    const texts = () => log.entries().map((e) => e.text);

    assert.deepEqual(await log.prune('30d'), { removed: 1, kept: 6 });
    assert.deepEqual(await log.prune('7d'), { removed: 1, kept: 5 });
    assert.deepEqual(await log.prune('24h'), { removed: 1, kept: 4 });
    assert.deepEqual(await log.prune('6h'), { removed: 1, kept: 3 });
    assert.deepEqual(await log.prune('6h'), { removed: 0, kept: 3 });
    assert.deepEqual(texts(), ['packet 6', 'packet 5', 'packet 4']);
    assert.equal(fileLines(path).length, 3);
    assert.deepEqual((await open(path, 100, clock)).entries().map((e) => e.text), texts());

    assert.deepEqual(await log.prune('1h'), { removed: 1, kept: 2 });
    clock.advance(HOUR + 1); // everything is over an hour old now (exactly 1 h is not "older")
    assert.deepEqual(await log.prune('1h'), { removed: 2, kept: 0 });
    log.append(pkt(7, clock.now()));
    assert.deepEqual(await log.prune('all'), { removed: 1, kept: 0 });
    await log.flush();
    assert.equal(readFileSync(path, 'utf8'), '');
    log.append(pkt(8, clock.now()));
    await log.close();
    assert.deepEqual((await open(path)).entries().map((e) => e.text), ['packet 8']);
  });

  it('a prune asked for before load() runs once the file is read', async () => {
    const path = join(tmp(), 'log.jsonl');
    const first = await open(path);
    first.append(pkt(0, T0 - 2 * HOUR));
    first.append(pkt(1, T0));
    await first.close();
    const log = make(path);
    const pruned = log.prune('1h');
    await log.load();
    assert.deepEqual(await pruned, { removed: 1, kept: 1 });
    assert.equal(fileLines(path).length, 1);
  });

  it('keeps entries appended while the rewrite runs', async () => {
    const path = join(tmp(), 'log.jsonl');
    const log = await open(path, 100);
    for (let n = 0; n < 5; n++) log.append(pkt(n, T0 - 2 * HOUR));
    const pruned = log.prune('all');
    log.append(pkt(5, T0));
    await pruned;
    log.append(pkt(6, T0));
    await log.flush();
    assert.deepEqual(log.entries().map((e) => e.text), ['packet 6', 'packet 5']);
    assert.deepEqual((await open(path)).entries().map((e) => e.text), ['packet 6', 'packet 5']);
  });
});

describe('APRS log: damaged files', () => {
  it('skips malformed lines, cuts a torn last line, and the next append starts a fresh line', async () => {
    const dir = tmp();
    const path = join(dir, 'log.jsonl');
    const good = (n: number) => JSON.stringify({ id: `${T0 + n}-0000`, ...pkt(n, T0 + n) });
    writeFileSync(
      path,
      [
        good(0),
        'not json',
        '\u0000\u0000\u0000\u0000', // a power cut's zero-filled block
        JSON.stringify({ id: 'x', received_at: 'soon', source: 1 }), // JSON, wrong shape
        JSON.stringify({ big: 'y'.repeat(20_000) }), // over the line cap: never parsed
        good(1),
        '',
        good(2),
      ].join('\n') +
        '\n' +
        good(3).slice(0, 30), // torn by a kill
    );
    writeFileSync(join(dir, 'log.jsonl.tmp-999999-1'), 'half a compaction');
    const log = make(path, 100);
    await log.load();
    assert.deepEqual(log.entries().map((e) => e.text), ['packet 2', 'packet 1', 'packet 0']);
    assert.equal(log.stats.malformed_at_load, 5);
    assert.ok(!existsSync(join(dir, 'log.jsonl.tmp-999999-1')), 'stale temp swept');
    log.append(pkt(4, T0 + 4));
    await log.flush();
    // The malformed lines made the file dirty: it was rewritten clean.
    const lines = fileLines(path);
    assert.equal(lines.length, 4);
    for (const l of lines) assert.ok(v.is(AprsLogEntrySchema, JSON.parse(l)));
    const back = await open(path);
    assert.equal(back.stats.malformed_at_load, 0);
    assert.deepEqual(back.entries().map((e) => e.text), ['packet 4', 'packet 2', 'packet 1', 'packet 0']);
    assert.ok(back.entries()[0].id > `${T0 + 2}-0000`, 'new ids follow the file');
  });

  it('only a torn tail: cut without a rewrite; a complete last record missing its newline is kept', async () => {
    const path = join(tmp(), 'log.jsonl');
    const first = await open(path);
    first.append(pkt(0, T0));
    first.append(pkt(1, T0));
    await first.close();
    const whole = readFileSync(path, 'utf8');
    writeFileSync(path, whole + '{"id":"17');
    const log = await open(path);
    assert.equal(log.size, 2);
    assert.equal(readFileSync(path, 'utf8'), whole, 'torn line cut');
    // Now the last record without its '\n'.
    writeFileSync(path, whole.slice(0, -1));
    const log2 = await open(path);
    assert.equal(log2.size, 2);
    log2.append(pkt(2, T0));
    await log2.close();
    assert.equal(fileLines(path).length, 3);
    assert.equal((await open(path)).size, 3);
  });

  it('a directory where the log should be is moved aside', async () => {
    const dir = tmp();
    const path = join(dir, 'log.jsonl');
    mkdirSync(path);
    const log = await open(path);
    log.append(pkt(0, T0));
    await log.flush();
    assert.equal(log.lastError, null);
    assert.equal(readdirSync(dir).filter((n) => n.startsWith('log.jsonl.corrupt-')).length, 1);
    assert.equal(fileLines(path).length, 1);
  });
});

describe('APRS log: I/O errors', () => {
  it('a failing disk never throws from append; the writes resume on a later append', async () => {
    const dir = tmp();
    const blocker = join(dir, 'data');
    writeFileSync(blocker, 'a file where the directory should be'); // ENOTDIR even for root
    const path = join(blocker, 'log.jsonl');
    const log = await open(path, 10);
    for (let n = 0; n < 30; n++) assert.doesNotThrow(() => log.append(pkt(n, T0 + n)));
    await log.flush();
    assert.match(log.lastError ?? '', /ENOTDIR|EEXIST/);
    assert.equal(log.size, 10, 'memory stays bounded');
    await assert.rejects(log.prune('all'), StorageError);
    assert.equal(log.size, 10, 'a failed prune changes nothing');
    rmSync(blocker);
    mkdirSync(blocker);
    log.append(pkt(30, T0 + 30));
    await log.flush();
    assert.equal(log.lastError, null);
    assert.ok(log.stats.dropped > 0);
    const back = await open(path, 10);
    assert.deepEqual(back.entries().map((e) => e.text), log.entries().map((e) => e.text));
    assert.equal(back.entries()[0].text, 'packet 30');
  });

  it('an unreadable file at load leaves an empty log and does not throw', async () => {
    const path = join(tmp(), 'missing-parent-is-a-file');
    writeFileSync(path, 'x');
    const log = make(join(path, 'log.jsonl'), 5);
    await log.load();
    assert.equal(log.size, 0);
  });
});

describe('APRS log export', () => {
  const entries: AprsLogEntry[] = [
    { id: '1787400000000-0001', received_at: iso(T0), source: 'N0CALL', destination: 'APRS', message: true, text: 'hello, "world"\nline 2' },
    { id: '1787400000000-0000', received_at: iso(T0), source: '=cmd', destination: '+SUM(A1)', message: false, text: '=HYPERLINK("http://x")' },
    { id: '1787400000000-0002', received_at: iso(T0), source: '@x', destination: 'APRS', message: false, text: '-73' },
    { id: '1787400000000-0003', received_at: iso(T0), source: 'A', destination: 'B', message: false, text: '' },
  ];

  it('CSV: header, RFC 4180 quoting, CRLF rows, formula cells defused', () => {
    const csv = toCsv(entries);
    assert.equal(
      csv,
      [
        'id,received_at,source,destination,message,text',
        `1787400000000-0001,2026-08-22T12:00:00.000Z,N0CALL,APRS,true,"hello, ""world""\nline 2"`,
        `1787400000000-0000,2026-08-22T12:00:00.000Z,'=cmd,'+SUM(A1),false,"'=HYPERLINK(""http://x"")"`,
        `1787400000000-0002,2026-08-22T12:00:00.000Z,'@x,APRS,false,'-73`,
        `1787400000000-0003,2026-08-22T12:00:00.000Z,A,B,false,`,
        '',
      ].join('\r\n'),
    );
    assert.equal(toCsv([]), 'id,received_at,source,destination,message,text\r\n');
  });

  it('JSON: exported_at, count and the items as stored', () => {
    const out = toJsonExport(entries, T0);
    assert.deepEqual(out, { exported_at: '2026-08-22T12:00:00.000Z', count: 4, items: entries });
    assert.equal(JSON.parse(JSON.stringify(out)).items[1].text, '=HYPERLINK("http://x")');
  });
});
