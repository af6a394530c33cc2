import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import bundledProfiles from '../../src/guidance/data/profiles.json';
import { bundledTransmitterProfiles } from '../../src/guidance/transmitters/bundled.js';
import { checkedProfileFile, parseProfileFile } from '../../src/guidance/profiles.js';

// A boot takes the bundle's own profile files as they are (checkedProfileFile): that holds only
// while each parses with no entry skipped and the parse changes nothing, checked here at every commit.

describe('the bundled profile files', () => {
  for (const [name, file] of [
    ['data/profiles.json', bundledProfiles],
    ['data/transmitter-profiles.json', bundledTransmitterProfiles],
  ] as const) {
    it(`${name} parses clean and unchanged, so a boot need not validate it`, () => {
      const parsed = parseProfileFile(file);
      assert.deepEqual(parsed.skipped, [], 'no entry skipped, no duplicate');
      assert.ok(parsed.entries.length > 0);
      assert.deepEqual(checkedProfileFile(file), parsed, 'what a boot takes is what the parse gives');
    });
  }

  it('a file from anywhere else is still validated entry by entry', () => {
    const parsed = parseProfileFile({ version: 1, profiles: [{ norad_id: 'x' }] });
    assert.equal(parsed.entries.length, 0);
    assert.equal(parsed.skipped.length, 1);
  });
});
