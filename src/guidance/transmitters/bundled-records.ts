import snapshotJson from '../data/satnogs-transmitters.json';

// The raw bundled SatNOGS records (2026-08-08, reduced to the bundled catalog's norad ids), for
// the profile tool, the coverage test and the prebuilt check: never imported by the server, whose
// bundle carries the profiles built from them instead (bundled.ts).

/** The raw records (validated where they are used, like any refreshed dump). */
export const bundledTransmitterRecords: unknown = snapshotJson;
