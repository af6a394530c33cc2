import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

// The zone list is the runtime's (Intl, the edge of the process): counted here to show that a
// station on UTC never reads it, and that the first other zone reads it once.
describe('isKnownTimeZone', () => {
  it('reads the runtime zone list at the first zone other than UTC, once', async () => {
    const real = Intl.supportedValuesOf;
    let reads = 0;
    Intl.supportedValuesOf = ((key: Parameters<typeof real>[0]) => {
      reads++;
      return real(key);
    }) as typeof real;
    try {
      // Imported after the count is in place: this file is a process of its own.
      const { isKnownTimeZone } = await import('../../src/station/display-settings.js');
      assert.equal(isKnownTimeZone('UTC'), true);
      assert.equal(reads, 0, 'UTC is known without the list');
      assert.equal(isKnownTimeZone('Europe/London'), true);
      assert.equal(isKnownTimeZone('Asia/Kolkata'), true, 'an IANA name the runtime lists under an older spelling');
      assert.equal(isKnownTimeZone('Mars/Olympus_Mons'), false);
      assert.equal(isKnownTimeZone('+01:00'), false);
      assert.equal(isKnownTimeZone('europe/london'), false);
      assert.equal(reads, 1);
    } finally {
      Intl.supportedValuesOf = real;
    }
  });
});
