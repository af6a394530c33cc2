// Dev tool (not bundled): rewrites src/guidance/data/profiles.json (the bundled two-way profiles)
// and data/transmitter-profiles.json (every profile, loaded at boot) from the bundled transmitter
// snapshot with the same buildProfiles the service runs, so the files and a refresh's set cannot
// drift apart.
//   npx tsx src/guidance/tools/build-profiles.ts [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProfileFiles } from './profile-files.js';

const dataDir = join(dirname(fileURLToPath(import.meta.url)), '../data');
const { entries, texts } = buildProfileFiles();
const mhz = (hz: number | null) => (hz === null ? '-' : String(hz / 1e6));
for (const p of entries) console.log(`${String(p.norad_id).padStart(5)} ${p.name.padEnd(10)} ${p.mode.padEnd(6)} ${p.columns.map((c) => `${mhz(c.uplink_hz)}/${mhz(c.downlink_hz)}`).join(' ')}${p.ctcss_hz ? ` ctcss ${p.ctcss_hz}` : ''}`);
let stale = 0;
for (const [name, text] of Object.entries(texts)) {
  const path = join(dataDir, name);
  if (process.argv.includes('--check')) {
    const same = readFileSync(path, 'utf8') === text;
    if (!same) stale++;
    console.log(same ? `${name} is up to date` : `${name} differs from the data: rerun without --check`);
  } else {
    writeFileSync(path, text);
    console.log(`${name} written`);
  }
}
process.exit(stale ? 1 : 0);
