// Dev tool (not bundled): rewrites src/guidance/data/profiles.json, the bundled two-way profiles,
// from the bundled transmitter snapshot with the same buildProfiles the service runs, so the file
// and the run-time set cannot drift apart.
//   npx tsx src/guidance/tools/build-profiles.ts [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundledElements } from '../../catalog/bundled.js';
import { parseProfileFile } from '../profiles.js';
import { BUNDLED_TRANSMITTERS_DATE, bundledTransmitterRecords, curatedCorrections } from '../transmitters/bundled.js';
import { buildProfiles, isTwoWay } from '../transmitters/build-profiles.js';
import { parseTransmitters } from '../transmitters/record.js';

const outFile = join(dirname(fileURLToPath(import.meta.url)), '../data/profiles.json');
const byNorad = new Map(bundledElements.map((e) => [e.NORAD_CAT_ID, { name: e.OBJECT_NAME }]));
const { records } = parseTransmitters(bundledTransmitterRecords);
const profiles = buildProfiles(records, { byNorad }, curatedCorrections).profiles.filter(isTwoWay);

const file = { version: 1, generated_from: `SatNOGS DB active transmitters ${BUNDLED_TRANSMITTERS_DATE.slice(0, 10)} (src/guidance/data/satnogs-transmitters.json) + curated-profiles.json`, profiles };
const check = parseProfileFile(JSON.parse(JSON.stringify(file)));
if (check.skipped.length) throw new Error(`generated profiles fail the schema: ${JSON.stringify(check.skipped)}`);
const mhz = (hz: number | null) => (hz === null ? '-' : String(hz / 1e6));
for (const p of profiles) console.log(`${String(p.norad_id).padStart(5)} ${p.name.padEnd(10)} ${p.mode.padEnd(6)} ${p.columns.map((c) => `${mhz(c.uplink_hz)}/${mhz(c.downlink_hz)}`).join(' ')}${p.ctcss_hz ? ` ctcss ${p.ctcss_hz}` : ''}`);
const text = JSON.stringify(file, null, 1) + '\n';
if (process.argv.includes('--check')) {
  const same = readFileSync(outFile, 'utf8') === text;
  console.log(same ? 'profiles.json is up to date' : 'profiles.json differs from the data: rerun without --check');
  process.exit(same ? 0 : 1);
}
writeFileSync(outFile, text);
console.log(`${profiles.length} profiles written to ${outFile}`);
