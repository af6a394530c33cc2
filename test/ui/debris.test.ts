import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isDebris, withoutDebris } from '../../ui/lib/debris.js';

// ui/lib/debris: which passes the station view hides unless "Debris and rocket bodies" is ticked.

const profile = { label: 'AOS cue' };

describe('ui/lib/debris', () => {
  it('knows debris and rocket bodies by their catalogue names', () => {
    for (const name of ['FREGAT DEB', 'COSMOS 2251 DEB', 'SL-16 R/B', 'CZ-4B R/B', 'IRIDIUM 33 DEBRIS']) assert.equal(isDebris({ name }), true, name);
    for (const name of ['ISS (ZARYA)', 'DEBUT (ORIZURU)', 'JAS-2 (FO-29)', 'SAUDISAT 1C (SO-50)', 'RB-1']) assert.equal(isDebris({ name }), false, name);
  });
  it('keeps a satellite with a radio on a rocket body (RS-44 on its Breeze-KM stage)', () => {
    assert.equal(isDebris({ name: 'RS-44 & BREEZE-KM R/B', frequencyRecommendation: profile }), false);
    assert.equal(isDebris({ name: 'RS-44 & BREEZE-KM R/B', frequencyRecommendation: null }), true);
  });
  it('leaves them out unless asked for, and counts what it left out', () => {
    const passes = [{ name: 'ISS (ZARYA)' }, { name: 'FREGAT DEB' }, { name: 'FREGAT DEB' }, { name: 'RS-44 & BREEZE-KM R/B', frequencyRecommendation: profile }];
    assert.deepEqual(withoutDebris(passes, false), { items: [passes[0], passes[3]], hidden: 2 });
    assert.deepEqual(withoutDebris(passes, true), { items: passes, hidden: 0 });
  });
});
