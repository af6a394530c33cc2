// Dev tool (not bundled): builds src/guidance/data/profiles.json from the frequency facts in
// ../shared/data (SatNOGS active transmitters in Hz, JE9PEL list in MHz text) for the satellites of
// the bundled catalog (CelesTrak amateur + stations groups). Selection is generic; the few facts the
// data gets wrong or lacks are in CURATED below, each with its reason.
//   npx tsx src/guidance/tools/build-profiles.ts [dataDir] [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildLinearColumns, LINEAR_COLUMN_COUNT } from '../columns.js';
import { bestFm, bestLinear, parseJe9pelCsv, type Candidate, type SatnogsTx } from './candidates.js';
import { parseProfileFile } from '../profiles.js';
import type { ProfileEntry } from '../schemas.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '../../..');
const dataDir = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? join(repo, '../shared/data');
const outFile = join(here, '../data/profiles.json');

/** FM channels move in 5 kHz steps on the rig; linear guidance changes once per 20% band, so 1 kHz is already finer than its error. */
const FM_STEP_HZ = 5000;
const LINEAR_STEP_HZ = 1000;

interface Curated {
  name?: string;
  ctcss_hz?: number;
  /** Replace the selected record (Hz). */
  passband?: { uplink_low_hz: number; uplink_high_hz: number; downlink_low_hz: number; downlink_high_hz: number; inverting: boolean };
  modes?: { uplink: string; downlink: string };
  note?: string;
}

const CURATED: Record<number, Curated> = {
  25544: { name: 'ISS', note: 'cross-band FM voice repeater (SatNOGS "Mode V/U FM - Voice Repeater CTCSS 67.0 Hz")' },
  43017: {
    name: 'AO-91',
    ctcss_hz: 67.0,
    note: 'JE9PEL lists CTCSS 67.0; SatNOGS notes "no CTCSS any longer". The tone is kept: harmless when not required, needed when it is',
  },
  43678: { name: 'PO-101', ctcss_hz: 141.3, note: 'CTCSS 141.3 Hz is not in the bundled data; it is the tone PO-101 operators publish' },
  44909: { name: 'RS-44', note: 'JE9PEL lists it as DOSAAF-85' },
  7530: { note: 'mode B (U/V, inverting); mode A (V/10 m) has no downlink the rig covers and one profile per satellite is kept' },
  43700: {
    name: 'QO-100',
    passband: { uplink_low_hz: 2_400_050_000, uplink_high_hz: 2_400_300_000, downlink_low_hz: 10_489_550_000, downlink_high_hz: 10_489_800_000, inverting: false },
    modes: { uplink: 'USB', downlink: 'USB' },
    note: 'NB transponder SSB segment from JE9PEL ("Linear transponder"); SatNOGS splits it into bandplan segments labelled FM. Outside the rig ranges, so never radio-eligible',
  },
  44881: { name: 'TO-108' },
  36122: { name: 'HO-68' },
  40025: { name: 'EO-79' },
  60209: { name: 'MO-122', note: 'only JE9PEL has it; its downlink range is written non-reversed, so the profile is non-inverting' },
  48274: { name: 'CSS', note: 'V/U repeater of the Tianhe module (SatNOGS "2A V/U FM repeater"); the U/V twin is not kept (one pair per FM profile)' },
};

function catalogNorads(): Map<number, string> {
  const out = new Map<number, string>();
  for (const f of ['amateur.tle', 'stations.tle']) {
    const lines = readFileSync(join(dataDir, 'tle', f), 'utf8').split(/\r?\n/).filter((l) => l.trim());
    for (let i = 0; i + 2 < lines.length; i += 3) out.set(Number(lines[i + 1].slice(2, 7)), lines[i].trim());
  }
  return out;
}

const shortName = (tleName: string) => /\(([A-Z]{1,3}-\d+)\)/.exec(tleName)?.[1] ?? tleName;

function toEntry(norad: number, tleName: string, c: Candidate, cur: Curated | undefined): ProfileEntry {
  const name = cur?.name ?? shortName(tleName);
  if (c.kind === 'fm') {
    return {
      norad_id: norad,
      name,
      mode: 'fm',
      correction_side: 'uhf_only',
      columns: [{ uplink_hz: c.uplink_hz, downlink_hz: c.downlink_hz, label: 'FM' }],
      uplink_step_hz: FM_STEP_HZ,
      downlink_step_hz: FM_STEP_HZ,
      uplink_mode: 'FM',
      downlink_mode: 'FM',
      ...((cur?.ctcss_hz ?? c.ctcss_hz) ? { ctcss_hz: cur?.ctcss_hz ?? c.ctcss_hz } : {}),
      source: c.source,
      note: cur?.note,
    };
  }
  const pb = cur?.passband ?? c.passband;
  const modes = cur?.modes ?? (pb.inverting ? { uplink: 'LSB', downlink: 'USB' } : { uplink: 'USB', downlink: 'USB' });
  return {
    norad_id: norad,
    name,
    mode: 'linear',
    correction_side: 'uhf_only',
    columns: buildLinearColumns(pb),
    default_column_index: Math.floor(LINEAR_COLUMN_COUNT / 2),
    uplink_step_hz: LINEAR_STEP_HZ,
    downlink_step_hz: LINEAR_STEP_HZ,
    uplink_mode: modes.uplink,
    downlink_mode: modes.downlink,
    inverting: pb.inverting,
    passband: { uplink_low_hz: pb.uplink_low_hz, uplink_high_hz: pb.uplink_high_hz, downlink_low_hz: pb.downlink_low_hz, downlink_high_hz: pb.downlink_high_hz },
    source: cur?.passband ? 'curated' : c.source,
    note: cur?.note,
  };
}

const norads = catalogNorads();
const satnogs = (JSON.parse(readFileSync(join(dataDir, 'frequencies/satnogs-transmitters-active.json'), 'utf8')) as SatnogsTx[]).filter((t) =>
  norads.has(t.norad_cat_id),
);
const je9pel = parseJe9pelCsv(readFileSync(join(dataDir, 'frequencies/je9pel-all-frequencies.csv'), 'utf8')).filter((r) => norads.has(r.norad_id));

const profiles: ProfileEntry[] = [];
for (const [norad, tleName] of [...norads].sort((a, b) => a[0] - b[0])) {
  const tx = satnogs.filter((t) => t.norad_cat_id === norad);
  const rows = je9pel.filter((r) => r.norad_id === norad);
  // A transponder record wins over an FM one: a satellite with both is operated as linear.
  const pick = bestLinear(tx, rows) ?? bestFm(tx, rows);
  if (!pick) continue;
  profiles.push(toEntry(norad, tleName, pick, CURATED[norad]));
}

const file = { version: 1, generated_from: 'SatNOGS DB active transmitters 2026-08-08 + JE9PEL list 2026-08-08 (../shared/data/frequencies)', profiles };
const check = parseProfileFile(JSON.parse(JSON.stringify(file)));
if (check.skipped.length) throw new Error(`generated profiles fail the schema: ${JSON.stringify(check.skipped)}`);
for (const p of profiles) console.log(`${String(p.norad_id).padStart(5)} ${p.name.padEnd(10)} ${p.mode.padEnd(6)} ${p.columns.map((c) => `${c.uplink_hz / 1e6}/${c.downlink_hz / 1e6}`).join(' ')}${p.ctcss_hz ? ` ctcss ${p.ctcss_hz}` : ''}`);
if (process.argv.includes('--check')) {
  const same = readFileSync(outFile, 'utf8') === JSON.stringify(file, null, 1) + '\n';
  console.log(same ? 'profiles.json is up to date' : 'profiles.json differs from the data: rerun without --check');
  process.exit(same ? 0 : 1);
}
writeFileSync(outFile, JSON.stringify(file, null, 1) + '\n');
console.log(`${profiles.length} profiles written to ${outFile}`);
