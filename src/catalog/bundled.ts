// The data shipped with the appliance (built by tools/make-bundled.ts from ../shared/data).
// esbuild inlines these JSON files into the bundle, so a fresh install tracks with no network.
import aliasesJson from './data/aliases.json';
import catalogJson from './data/bundled-catalog.json';
import versionJson from './data/bundled-version.json';
import radioJson from './data/radio.json';
import satIdsJson from './data/sat-ids.json';
import type { AliasTable } from './sat-ids.js';
import type { OmmElements } from './types.js';

export interface RadioTable {
  ham: ReadonlySet<number>;
  facts: Readonly<Record<string, { transponders: string[]; repeaters: string[] }>>;
}

export const bundledElements = catalogJson as OmmElements[];
/**
 * catalogVersion(bundledElements), made with the data (make-bundled.ts): hashing the elements was
 * ~2 ms of every boot on the bundled data. test/catalog/bundled-version.test.ts checks that it is.
 */
export const BUNDLED_CATALOG_VERSION = versionJson as string;
export const bundledSatIds = satIdsJson as Record<string, string>;
export const aliasTable = aliasesJson as AliasTable;
export const radioTable: RadioTable = { ham: new Set(radioJson.ham), facts: radioJson.facts };
