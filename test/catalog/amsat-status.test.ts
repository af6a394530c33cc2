import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { amsatBase, buildNameIndex, matchStatuses, parseAmsatStatus } from '../../src/catalog/amsat-status.js';
import { aliasTable } from '../../src/catalog/bundled.js';
import { CatalogService } from '../../src/catalog/catalog-service.js';
import { FixedClock } from '../../src/util/clock.js';
import { tmpDataDir } from '../helpers/server.js';
import { SAT_INFO_SAMPLE, STATUS_HTML, SUMMARY } from './fixtures/amsat.js';

const catalog = () => new CatalogService({ dataDir: tmpDataDir(), clock: new FixedClock(Date.parse('2026-08-22T12:00:00Z')) }).current();

describe('AMSAT status parsing', () => {
  it('legacy sat_info.php array: latest report per name, counts all', () => {
    const r = parseAmsatStatus(SAT_INFO_SAMPLE);
    const ao91 = r.find((x) => x.name === 'AO-91')!;
    assert.deepEqual(ao91, { name: 'AO-91', report: 'Heard', count: 4, latest: '2020-08-20T06:30:00Z' });
    assert.equal(r.length, 2);
  });

  it('summary.php envelope: the most recent report value wins', () => {
    const r = parseAmsatStatus(SUMMARY);
    assert.deepEqual(r.find((x) => x.name === 'AO-91_[FM]'), { name: 'AO-91_[FM]', report: 'Heard', count: 5, latest: '2026-08-22T10:30:00Z' });
  });

  it('status page HTML: first coloured cell, conflicts recognised, empty rows ignored', () => {
    const r = parseAmsatStatus(STATUS_HTML);
    assert.deepEqual(r.map((x) => [x.name, x.report]), [['AO-7_[U/v]', 'Heard'], ['FO-29_[V/u]', 'Not Heard'], ['RS-44_[V/u]', 'Conflicting']]);
  });

  it('garbage is an error', () => {
    assert.throws(() => parseAmsatStatus('hello'), /neither JSON nor/);
    assert.throws(() => parseAmsatStatus('{"error":"x"}'), /no report array/);
  });
});

describe('matching AMSAT names to catalog satellites', () => {
  const cat = catalog();
  const index = buildNameIndex(cat.satellites, aliasTable);

  it('strips the mode suffix', () => {
    assert.equal(amsatBase('AO-91_[FM]'), 'AO-91');
    assert.equal(amsatBase('ISS [Crew]'), 'ISS');
    assert.equal(amsatBase('QO-100_[NB]'), 'QO-100');
  });

  it('AO-91 matches RADFXSAT (FOX-1B); ISS names combine; unknown names stay unmatched', () => {
    const m = matchStatuses(parseAmsatStatus(SUMMARY), index, 'AMSAT');
    assert.equal(cat.byNorad.get(43017)!.name, 'RADFXSAT (FOX-1B)');
    assert.deepEqual(m.get(43017), { source: 'AMSAT', summary: 'FM: Heard (5 reports, latest 2026-08-22T10:30:00Z)', matched_name: 'AO-91_[FM]' });
    assert.equal(m.get(25544)!.matched_name, 'ISS_[Crew], ISS_[FM]');
    assert.match(m.get(25544)!.summary, /Crew: Crew Active .*; FM: Not Heard/);
    assert.equal(m.get(43678)!.matched_name, 'PO-101_[FM]'); // DIWATA-2B by alias
    assert.equal(m.get(44909)!.matched_name, 'RS-44_[V/u]');
    assert.equal(m.get(40908)!.matched_name, 'CAS-3H_[FM]'); // LILACSAT-2 by SatNOGS alias
    assert.equal(m.get(27607)!.matched_name, 'SO-50_[FM]');
    assert.equal(m.size, 6); // NOSUCH-1 matched nothing
  });

  it('bare legacy names match too', () => {
    const m = matchStatuses(parseAmsatStatus(SAT_INFO_SAMPLE), index, 'AMSAT');
    assert.equal(m.get(43017)!.matched_name, 'AO-91');
  });
});
