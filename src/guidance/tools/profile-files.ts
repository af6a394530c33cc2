import { bundledElements } from '../../catalog/bundled.js';
import { parseProfileFile } from '../profiles.js';
import { BUNDLED_TRANSMITTERS_DATE, curatedCorrections } from '../transmitters/bundled.js';
import { bundledTransmitterRecords } from '../transmitters/bundled-records.js';
import { buildProfiles, isTwoWay } from '../transmitters/build-profiles.js';
import { parseTransmitters } from '../transmitters/record.js';
import type { ProfileEntry } from '../schemas.js';

// The two profile files built from the bundled transmitter snapshot with the builder the service
// runs on a refresh: data/profiles.json (the two-way ones, the "bundled" source) and
// data/transmitter-profiles.json (every profile, what the server loads at boot instead of the raw
// records). Dev tool and test code only (test/guidance/prebuilt-profiles.test.ts checks the
// files match what the data builds).

export interface ProfileFiles {
  entries: ProfileEntry[];
  /** File name in src/guidance/data → its exact text. */
  texts: Record<'profiles.json' | 'transmitter-profiles.json', string>;
}

export function buildProfileFiles(): ProfileFiles {
  const byNorad = new Map(bundledElements.map((e) => [e.NORAD_CAT_ID, { name: e.OBJECT_NAME }]));
  const { records } = parseTransmitters(bundledTransmitterRecords);
  const entries = buildProfiles(records, { byNorad }, curatedCorrections()).profiles;
  const from = `SatNOGS DB active transmitters ${BUNDLED_TRANSMITTERS_DATE.slice(0, 10)} (src/guidance/data/satnogs-transmitters.json) + curated-profiles.json`;
  const file = (profiles: ProfileEntry[]) => {
    const f = { version: 1, generated_from: from, profiles };
    const check = parseProfileFile(JSON.parse(JSON.stringify(f)));
    if (check.skipped.length) throw new Error(`generated profiles fail the schema: ${JSON.stringify(check.skipped)}`);
    return JSON.stringify(f, null, 1) + '\n';
  };
  return { entries, texts: { 'profiles.json': file(entries.filter(isTwoWay)), 'transmitter-profiles.json': file(entries) } };
}
