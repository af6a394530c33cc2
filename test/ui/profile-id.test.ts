import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { profileIdFor, slugOf } from '../../ui/lib/profile-id.js';
import { ProfileIdSchema } from '../../src/station/location-state.js';
import * as v from 'valibot';

// Issue 33: adding a location asked for an "Id"; it is now made from the name, and must be an id
// the API accepts (1–32 of A-Za-z0-9_-, a letter or digit first) that no profile has yet.

describe('location profile id from its name', () => {
  it('slugs the name: lower case, accents dropped, anything else a single dash', () => {
    assert.equal(slugOf('Field day'), 'field-day');
    assert.equal(slugOf('  Zürich / Üetliberg (870 m)  '), 'zurich-uetliberg-870-m');
    assert.equal(slugOf('Ålesund'), 'alesund');
    assert.equal(slugOf('Москва'), 'place', 'nothing latin: a plain word');
    assert.equal(slugOf('---'), 'place');
  });

  it('is unique among the profiles: -2, -3… when taken', () => {
    assert.equal(profileIdFor('Field day', ['default']), 'field-day');
    assert.equal(profileIdFor('Field Day', ['default', 'field-day']), 'field-day-2');
    assert.equal(profileIdFor('field  day!', ['field-day', 'field-day-2']), 'field-day-3');
  });

  it('always makes an id the API accepts, even from a long or odd name', () => {
    const long = 'A very long name for a hilltop portable operation site near the lake';
    const taken: string[] = [];
    for (let i = 0; i < 12; i++) {
      const id = profileIdFor(long, taken);
      assert.ok(v.is(ProfileIdSchema, id), id);
      assert.ok(id.length <= 32 && !taken.includes(id), id);
      taken.push(id);
    }
    for (const name of ['', ' ', '-x-', '9 Elms', 'ÆØÅ', '中文']) assert.ok(v.is(ProfileIdSchema, profileIdFor(name, ['place'])), name);
  });
});
