import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { adifChunks, adifDocument, adifField, adifFreq, adifPushString, toAdifAscii } from '../../src/logbook/adif.js';
import { readAdif } from './adif-reader.js';
import { satQso } from './fixtures.js';

const HEADER = { programVersion: '0.1.0', createdMs: Date.parse('2026-08-22T07:08:09.500Z') };

describe('ADIF writer, read back by the independent reader', () => {
  it('writes the header the spec asks for', () => {
    const f = readAdif(adifDocument([], HEADER));
    assert.notEqual(f.preamble.trim(), '');
    assert.deepEqual(f.header, { ADIF_VER: '3.1.4', PROGRAMID: 'satstation', PROGRAMVERSION: '0.1.0', CREATED_TIMESTAMP: '20260822 070809' });
    assert.deepEqual(f.records, []);
  });

  it('round-trips every field of a satellite QSO with exact lengths', () => {
    const f = readAdif(adifDocument([satQso()], HEADER));
    assert.deepEqual(f.records, [
      {
        CALL: 'W1AW',
        QSO_DATE: '20260822',
        TIME_ON: '060509',
        BAND: '2m',
        BAND_RX: '70cm',
        FREQ: '145.85',
        FREQ_RX: '436.795',
        MODE: 'FM',
        PROP_MODE: 'SAT',
        SAT_NAME: 'SO-50',
        SAT_MODE: 'V/U',
        STATION_CALLSIGN: 'DL1ABC',
        MY_GRIDSQUARE: 'JO62qm',
        GRIDSQUARE: 'FN31pr',
        RST_SENT: '59',
        RST_RCVD: '57',
        COMMENT: 'first QSO via SO-50',
      },
    ]);
  });

  it('writes SUBMODE beside SSB and leaves absent or empty fields out', () => {
    const q = satQso({ mode: 'SSB', submode: 'USB', their_grid: null, comment: '', rst_rcvd: null, sat_mode: null });
    const [r] = readAdif(adifDocument([q], HEADER)).records;
    assert.equal(r.MODE, 'SSB');
    assert.equal(r.SUBMODE, 'USB');
    for (const absent of ['GRIDSQUARE', 'COMMENT', 'RST_RCVD', 'SAT_MODE']) assert.ok(!(absent in r), `${absent} written though empty`);
  });

  it('keeps lengths exact for text that looks like ADIF, and transliterates non-ASCII', () => {
    const comment = 'Grüße <EOR> <CALL:4>FAKE: São Paulo ÆØ – ok';
    const [r, second] = readAdif(adifDocument([satQso({ comment }), satQso({ id: 'q2', call: 'K1ABC' })], HEADER)).records;
    assert.equal(r.COMMENT, 'Grusse (EOR) (CALL:4)FAKE: Sao Paulo AEO - ok');
    assert.equal(r.CALL, 'W1AW', 'the comment must not inject a field');
    assert.equal(second.CALL, 'K1ABC', 'the comment must not end the record early');
    // Control characters and characters with no ASCII form.
    assert.equal(toAdifAscii('a\tb\u0007c日本'), 'a b c??');
  });

  it('formats frequencies in MHz with hertz resolution', () => {
    assert.equal(adifFreq(145.99), '145.99');
    assert.equal(adifFreq(435.8), '435.8');
    assert.equal(adifFreq(10489.5505), '10489.5505');
    assert.equal(adifFreq(144), '144');
    assert.equal(adifFreq(0.1 + 0.2), '0.3');
    assert.equal(adifFreq(null), null);
    assert.equal(adifField('FREQ', null), '');
  });

  it('writes dates and times in UTC whatever the ISO offset was', () => {
    const [r] = readAdif(adifDocument([satQso({ time_on: new Date('2026-12-31T23:59:59.900Z').toISOString() })], HEADER)).records;
    assert.equal(r.QSO_DATE, '20261231');
    assert.equal(r.TIME_ON, '235959');
  });

  it('streams a large export in bounded chunks that join to the same file', () => {
    const qsos = Array.from({ length: 1000 }, (_, i) => satQso({ id: `q${i}`, call: `W${i % 10}AB` }));
    const chunks = [...adifChunks(qsos, HEADER, 100)];
    assert.equal(chunks.length, 1 + 10);
    assert.ok(Math.max(...chunks.map((c) => c.length)) < 100 * 400, 'a chunk holds about 100 records');
    const f = readAdif(chunks.join(''));
    assert.equal(f.records.length, 1000);
    assert.equal(f.records[999].CALL, 'W9AB');
    assert.equal(chunks.join(''), adifDocument(qsos, HEADER));
  });

  it('pushes one record without a header, as Cloudlog takes it', () => {
    const s = adifPushString(satQso());
    assert.ok(s.startsWith('<CALL:4>W1AW'));
    assert.equal(readAdif(s).records.length, 1);
  });
});
