// The data shipped with the appliance (built by tools/make-bundled.ts from ../shared/data).
// esbuild inlines these JSON files into the bundle, so a fresh install tracks with no network.
import aliasesJson from './data/aliases.json';
import catalogJson from './data/bundled-catalog.json';
import radioJson from './data/radio.json';
import satIdsJson from './data/sat-ids.json';
import type { AliasTable } from './sat-ids.js';
import type { OmmElements } from './types.js';

export interface RadioTable {
  ham: ReadonlySet<number>;
  facts: Readonly<Record<string, { transponders: string[]; repeaters: string[] }>>;
}

export const bundledElements = catalogJson as OmmElements[];
export const bundledSatIds = satIdsJson as Record<string, string>;
export const aliasTable = aliasesJson as AliasTable;
export const radioTable: RadioTable = { ham: new Set(radioJson.ham), facts: radioJson.facts };
