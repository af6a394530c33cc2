// The transmitter data shipped with the appliance, so a fresh install guides with no network:
// SatNOGS DB's active transmitters reduced to the bundled catalog's norad ids, and the curated
// corrections. esbuild inlines the JSON. The attribution is what CC BY-SA 4.0 asks for; the
// integrator shows it on /settings and in /docs.
import curatedJson from '../data/curated-profiles.json';
import snapshotJson from '../data/satnogs-transmitters.json';
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

/** The raw bundled records (validated where they are used, like any refreshed dump). */
export const bundledTransmitterRecords: unknown = snapshotJson;
/** Date of the bundled records, ISO UTC. */
export const BUNDLED_TRANSMITTERS_DATE = `${TRANSMITTERS_ATTRIBUTION.date}T00:00:00.000Z`;

export const curatedCorrections: readonly Curated[] = v.parse(CuratedFileSchema, curatedJson).corrections;
