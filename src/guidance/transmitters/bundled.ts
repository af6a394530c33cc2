// The transmitter data shipped with the appliance, so a fresh install guides with no network:
// the profiles built from SatNOGS DB's active transmitters (reduced to the bundled catalog's norad
// ids) and the curated corrections. The raw snapshot stays out of the server bundle
// (bundled-records.ts, for the tool and the tests): its profiles are prebuilt into
// data/transmitter-profiles.json by tools/build-profiles.ts, and a test checks they match. The
// attribution is what CC BY-SA 4.0 asks for, shown on /settings and in /docs.
import prebuiltProfiles from '../data/transmitter-profiles.json';
import curatedJson from '../data/curated-profiles.json';
import * as v from 'valibot';
import { CuratedFileSchema, type Curated } from './build-profiles.js';

export interface TransmittersAttribution {
  /** Date of the data (UTC day the dump was taken). */
  date: string;
  title: string;
  publisher: string;
  url: string;
  licence: string;
  licence_url: string;
  /** What was changed: the share-alike notice. */
  changes: string;
}

export const TRANSMITTERS_ATTRIBUTION: TransmittersAttribution = {
  date: '2026-08-08',
  title: 'SatNOGS DB transmitters (status active)',
  publisher: 'Libre Space Foundation, SatNOGS DB',
  url: 'https://db.satnogs.org',
  licence: 'CC BY-SA 4.0',
  licence_url: 'https://creativecommons.org/licenses/by-sa/4.0/',
  changes: "reduced to the records of the bundled catalog's satellites; frequency profiles derived from them",
};

/** Date of the bundled records, ISO UTC. */
export const BUNDLED_TRANSMITTERS_DATE = `${TRANSMITTERS_ATTRIBUTION.date}T00:00:00.000Z`;

/** The profiles the bundled records build (a profile file: version, generated_from, profiles). */
export const bundledTransmitterProfiles: unknown = prebuiltProfiles;

let curated: readonly Curated[] | null = null;
/** The curated corrections, parsed at their first use (a refresh's rebuild), not at every boot. */
export const curatedCorrections = (): readonly Curated[] => (curated ??= v.parse(CuratedFileSchema, curatedJson).corrections);
