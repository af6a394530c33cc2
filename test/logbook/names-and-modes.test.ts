import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ADIF_BANDS, adifBandOfHz, adifBandOfMhz } from '../../src/logbook/bands.js';
import { LOTW_SAT_NAMES, LOTW_TABLE_COMPILED, lotwSatName } from '../../src/logbook/lotw-names.js';
import { satModeOf } from '../../src/logbook/sat-mode.js';
import { adifModeOfRig } from '../../src/logbook/rig-mode.js';

describe('ADIF band enumeration', () => {
  it('names the bands a satellite station uses, edges inclusive', () => {
    assert.equal(adifBandOfMhz(145.99), '2m');
    assert.equal(adifBandOfMhz(144), '2m');
    assert.equal(adifBandOfMhz(148), '2m');
    assert.equal(adifBandOfMhz(437.8), '70cm');
    assert.equal(adifBandOfMhz(1268.5), '23cm');
    assert.equal(adifBandOfMhz(2400.1), '13cm');
    assert.equal(adifBandOfMhz(10489.55), '3cm');
    assert.equal(adifBandOfMhz(29.45), '10m');
    assert.equal(adifBandOfMhz(14.074), '20m');
    assert.equal(adifBandOfMhz(0.1357), '2190m');
    assert.equal(adifBandOfMhz(54), '6m');
    assert.equal(adifBandOfMhz(54.000001), '5m');
  });

  it('gives no band outside the amateur bands', () => {
    assert.equal(adifBandOfMhz(148.000001), null);
    assert.equal(adifBandOfMhz(137.1), null);
    assert.equal(adifBandOfHz(NaN), null);
    assert.equal(adifBandOfMhz(8_000_000), null);
  });

  it('is ascending and without overlaps', () => {
    for (let i = 1; i < ADIF_BANDS.length; i++) assert.ok(ADIF_BANDS[i].lower_hz > ADIF_BANDS[i - 1].upper_hz, ADIF_BANDS[i].band);
  });
});

describe('LoTW satellite names', () => {
  it('maps the ISS and the FM and linear birds to LoTW spelling, by NORAD number', () => {
    const cases: Array<[number, string]> = [
      [25544, 'ARISS'], [7530, 'AO-7'], [22825, 'AO-27'], [27607, 'SO-50'], [44909, 'RS-44'], [53109, 'IO-117'],
      [43678, 'PO-101'], [24278, 'FO-29'], [39444, 'AO-73'], [43803, 'JO-97'], [42761, 'CAS-4A'], [42759, 'CAS-4B'],
      [40903, 'XW-2A'], [40911, 'XW-2B'], [40908, 'CAS-3H'], [44881, 'TO-108'], [54684, 'FO-118'], [61781, 'AO-123'], [43700, 'QO-100'],
    ];
    for (const [norad, name] of cases) assert.equal(lotwSatName({ norad_id: norad }), name, String(norad));
  });

  it('maps by our catalog names and designations when the number is unknown', () => {
    assert.equal(lotwSatName({ names: ['ISS (ZARYA)'] }), 'ARISS');
    assert.equal(lotwSatName({ names: ['so 50'] }), 'SO-50');
    assert.equal(lotwSatName({ names: ['GREENCUBE'] }), 'IO-117');
    assert.equal(lotwSatName({ names: ['EYESAT A (AO-27)'] }), 'AO-27');
    assert.equal(lotwSatName({ names: ['TIANYAN 01', 'CAS-6 (TO-108)'] }), 'TO-108');
    assert.equal(lotwSatName({ norad_id: 99999, names: ['NOT A SATELLITE LOTW KNOWS'] }), null);
  });

  it('agrees with the bundled catalog: each designation the catalog gives a LoTW satellite is LoTW’s name', () => {
    const aliases = JSON.parse(readFileSync('src/catalog/data/aliases.json', 'utf8')) as Record<string, { designation: string; names: string[] }>;
    const known = new Set(LOTW_SAT_NAMES);
    let checked = 0;
    for (const [norad, a] of Object.entries(aliases)) {
      if (!a.designation || !known.has(a.designation)) continue;
      assert.equal(lotwSatName({ norad_id: Number(norad) }), a.designation, `${norad} ${a.names[0]}`);
      checked++;
    }
    assert.ok(checked >= 25, `only ${checked} catalog satellites cross-checked`);
  });

  it('keeps its compile date in the repo', () => {
    assert.match(LOTW_TABLE_COMPILED, /^\d{4}-\d{2}-\d{2}$/);
    assert.equal(new Set(LOTW_SAT_NAMES).size, LOTW_SAT_NAMES.length, 'a LoTW name listed twice');
  });
});

describe('SAT_MODE and ADIF mode', () => {
  it('writes uplink/downlink band letters', () => {
    assert.equal(satModeOf(145.85e6, 436.795e6), 'V/U');
    assert.equal(satModeOf(435.6e6, 145.95e6), 'U/V');
    assert.equal(satModeOf(1268.5e6, 436.8e6), 'L/U');
    assert.equal(satModeOf(2400.1e6, 10489.6e6), 'S/X');
    assert.equal(satModeOf(145.9e6, 29.45e6), 'V/A');
    assert.equal(satModeOf(null, 145.8e6), null);
    assert.equal(satModeOf(222e6, 145.8e6), null, '1.25 m has no AMSAT letter');
  });

  it('maps rig modes to ADIF MODE and SUBMODE', () => {
    assert.deepEqual(adifModeOfRig('FM'), { mode: 'FM' });
    assert.deepEqual(adifModeOfRig('USB'), { mode: 'SSB', submode: 'USB' });
    assert.deepEqual(adifModeOfRig('lsb'), { mode: 'SSB', submode: 'LSB' });
    assert.deepEqual(adifModeOfRig('CW-R'), { mode: 'CW' });
    assert.deepEqual(adifModeOfRig('RTTY-R'), { mode: 'RTTY' });
    assert.deepEqual(adifModeOfRig('DV'), { mode: 'DIGITALVOICE', submode: 'DSTAR' });
    assert.deepEqual(adifModeOfRig('FM-D'), { mode: 'PKT' });
    assert.equal(adifModeOfRig('USB-D'), null, 'FT8 or PSK31 cannot be told from the rig mode');
    assert.equal(adifModeOfRig(null), null);
  });
});
