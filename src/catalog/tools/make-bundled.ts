// Dev tool: builds the shipped catalog data under src/catalog/data from the offline reference data.
//   node --import tsx src/catalog/tools/make-bundled.ts [DATA_ROOT=../shared/data]
// Output (commit it): bundled-catalog.json (GP/OMM JSON), sat-ids.json, aliases.json, radio.json,
// bundled-version.json (the catalogue's version, catalog-build.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { catalogVersion } from '../catalog-build.js';
import { dropRepeatedElementSets, mergeByNorad } from '../merge.js';
import { describeSkipped, parseCatalogText } from '../parse.js';
import { assignSatIds, designationFromName, type AliasTable } from '../sat-ids.js';
import { buildRadioFacts, type JeRow, type SatnogsTransmitter } from './radio-facts.js';
import { parseCsv } from './csv.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
const dataRoot = resolve(process.argv[2] ?? join(root, '../shared/data'));
const out = join(here, '../data');
const read = (p: string) => readFileSync(join(dataRoot, p), 'utf8');

// Identity fixes between CelesTrak and SatNOGS/JE9PEL numbering (see docs/decisions/catalog.md): CelesTrak's
// GREENCUBE (IO-117) is 53109; SatNOGS and JE9PEL file GreenCube under 53106 (53109 = MTCube-2).
const RADIO_SOURCE_NORAD: Record<number, number> = { 53109: 53106 };

// The group membership is the newest snapshot's (2026 TLE files); the older OMM file contributes
// elements only where its epoch is newer. Objects only in the 2025 OMM file left CelesTrak's
// amateur group (many re-entered) and are not shipped.
const now = Date.parse('2026-08-22T12:00:00Z'); // data date of amateur.tle / stations.tle
const files = ['tle/amateur.tle', 'tle/stations.tle', 'tle/amateur.omm.json'];
const parsed = files.map((f) => {
  const r = parseCatalogText(read(f), { nowMs: now });
  for (const s of r.skipped) console.log(`${f}: ${describeSkipped(s)}`);
  console.log(`${f}: ${r.format}, ${r.records.length} records`);
  return r.records;
});
const members = new Set([...parsed[0], ...parsed[1]].map((e) => e.NORAD_CAT_ID));
const amateurGroup = new Set([...parsed[0], ...parsed[2]].map((e) => e.NORAD_CAT_ID));
const merged = [...mergeByNorad(parsed).values()].filter((e) => members.has(e.NORAD_CAT_ID));
const { kept, dropped } = dropRepeatedElementSets(merged);
for (const d of dropped) console.log(`dropped: ${describeSkipped(d)}`);

// Aliases: CelesTrak name, SatNOGS name and names, JE9PEL row names, per NORAD.
const satnogsSats = parseCsv(read('frequencies/satnogs-satellites.csv'));
const jeAll = parseCsv(read('frequencies/je9pel-all-frequencies.csv')) as unknown as JeRow[];
const jeActive = JSON.parse(read('frequencies/je9pel-active-frequencies.json')) as JeRow[];
const transmitters = JSON.parse(read('frequencies/satnogs-transmitters-active.json')) as SatnogsTransmitter[];

const radio = buildRadioFacts({ transmitters, jeActive, amateurGroup, sourceNorad: RADIO_SOURCE_NORAD });
const aliasNorads = new Set<number>([...kept.map((e) => e.NORAD_CAT_ID), ...radio.ham]);
const aliases: AliasTable = {};
const celestrakName = new Map(kept.map((e) => [e.NORAD_CAT_ID, e.OBJECT_NAME]));
for (const norad of [...aliasNorads].sort((a, b) => a - b)) {
  const src = RADIO_SOURCE_NORAD[norad] ?? norad;
  const satnogs: string[] = [];
  for (const s of satnogsSats) {
    if (Math.round(Number(s.norad_cat_id)) !== src) continue;
    satnogs.push(s.name, ...(s.names ?? '').split(/,\s*|\s+(?=[A-Z]{1,2}O-\d)/));
  }
  const je = jeAll.filter((r) => Number(r.norad_id) === src).map((r) => r.name);
  const names = [...new Set([celestrakName.get(norad) ?? '', ...satnogs, ...je].map((n) => (n ?? '').trim()).filter(Boolean))];
  const designation = names.map(designationFromName).find(Boolean) ?? '';
  if (names.length > 1 || designation) aliases[String(norad)] = { designation, names };
}

const ids = assignSatIds(kept.map((e) => ({ norad: e.NORAD_CAT_ID, name: e.OBJECT_NAME })), new Map(), aliases).ids;
const elements = kept.sort((a, b) => a.NORAD_CAT_ID - b.NORAD_CAT_ID);
const write = (name: string, value: unknown, pretty = false) => {
  const text = (pretty ? JSON.stringify(value, null, 1) : JSON.stringify(value)) + '\n';
  writeFileSync(join(out, name), text);
  console.log(`wrote src/catalog/data/${name} (${text.length} bytes)`);
};
write('bundled-catalog.json', elements, true);
write('sat-ids.json', Object.fromEntries([...ids].sort((a, b) => a[0] - b[0]).map(([n, id]) => [String(n), id])), true);
write('aliases.json', aliases);
write('radio.json', { ham: radio.ham, facts: radio.facts });
// Its version, so a station on the bundled data does not hash it at every boot (test/catalog/bundled-version.test.ts).
write('bundled-version.json', catalogVersion(elements));
console.log(`${elements.length} satellites; ids: ${[...ids.values()].slice(0, 30).join(' ')} …`);
