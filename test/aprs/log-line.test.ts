import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { APRS_LOG_FIELD_MAX, type AprsLogEntry } from '../../src/aprs/log/log-entry.js';
import { admitInput, encodeLine, MAX_LINE_BYTES, parseLine } from '../../src/aprs/log/log-line.js';

// The line format of the APRS log file, without a file: what one entry looks like on disk, what
// reads back, and what an incoming packet is cut to before it becomes an entry.

const entry: AprsLogEntry = {
  id: '1787400000000-0003',
  received_at: '2026-08-22T12:00:00.000Z',
  source: 'N0CALL-9',
  destination: 'APRS',
  text: '!4903.50N/07201.75W-"quoted" \\ back\nslash ü',
  message: false,
};

describe('APRS log line format', () => {
  it('an entry is one JSON line (its newline escaped inside) and reads back equal and frozen', () => {
    const line = encodeLine(entry);
    assert.ok(line.endsWith('\n'));
    assert.equal(line.indexOf('\n'), line.length - 1, 'one line, whatever the text holds');
    assert.deepEqual(Object.keys(JSON.parse(line)), ['id', 'received_at', 'source', 'destination', 'text', 'message']);
    const back = parseLine(Buffer.from(line.slice(0, -1)));
    assert.deepEqual(back, entry);
    assert.ok(Object.isFrozen(back));
    assert.deepEqual(parseLine(line.slice(0, -1)), entry, 'a string reads the same as its bytes');
  });

  it('anything that is not a valid entry parses to null', () => {
    const bad = [
      '',
      '{"id":"1","received_at":"2026-08-22T12:00:00Z"', // torn by a kill
      'not json',
      JSON.stringify({ ...entry, message: 'yes' }),
      JSON.stringify({ ...entry, received_at: '2026-08-22 12:00' }),
      JSON.stringify({ ...entry, received_at: '2026-08-22T25:00:00Z' }),
      JSON.stringify({ ...entry, text: 'x'.repeat(APRS_LOG_FIELD_MAX.text + 1) }),
      JSON.stringify({ ...entry, id: '' }),
      '[]',
      'null',
    ];
    for (const l of bad) assert.equal(parseLine(Buffer.from(l)), null, l);
  });

  it('the longest entry, every character escaped, fits in MAX_LINE_BYTES', () => {
    const worst = '\u0001';
    const longest: AprsLogEntry = {
      id: 'x'.repeat(APRS_LOG_FIELD_MAX.id),
      received_at: '2026-08-22T12:00:00.123456789Z',
      source: worst.repeat(APRS_LOG_FIELD_MAX.source),
      destination: worst.repeat(APRS_LOG_FIELD_MAX.destination),
      text: worst.repeat(APRS_LOG_FIELD_MAX.text),
      message: true,
    };
    const line = encodeLine(longest);
    assert.ok(Buffer.byteLength(line) <= MAX_LINE_BYTES, `${Buffer.byteLength(line)} bytes`);
    assert.deepEqual(parseLine(line.slice(0, -1)), longest);
  });

  it('a packet is admitted with its time made canonical UTC and its text fields clipped, not refused', () => {
    const r = admitInput({
      received_at: '2026-08-22T14:00:00+02:00',
      source: 'S'.repeat(100),
      destination: 'D'.repeat(100),
      text: 'T'.repeat(1000),
      message: true,
    });
    assert.ok(r.ok);
    assert.deepEqual(r.entry, {
      received_at: '2026-08-22T12:00:00.000Z',
      source: 'S'.repeat(APRS_LOG_FIELD_MAX.source),
      destination: 'D'.repeat(APRS_LOG_FIELD_MAX.destination),
      text: 'T'.repeat(APRS_LOG_FIELD_MAX.text),
      message: true,
    });
    assert.ok(!('id' in r.entry), 'the id is the log’s to assign');
  });

  it('a packet whose time is no instant, or whose flag is no boolean, is refused with a reason', () => {
    const base = { received_at: '2026-08-22T12:00:00Z', source: 'A', destination: 'B', text: 'c', message: false };
    for (const bad of [{ ...base, received_at: 'yesterday' }, { ...base, message: 1 as unknown as boolean }]) {
      const r = admitInput(bad);
      assert.equal(r.ok, false);
      assert.ok(!r.ok && r.reason.length > 0);
    }
  });
});
