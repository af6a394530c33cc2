import * as v from 'valibot';
import { buildLinearColumns, LINEAR_COLUMN_COUNT } from '../columns.js';
import { rigBandOf } from '../eligibility.js';
import type { ProfileEntry } from '../schemas.js';
import { bestDownlink, bestFm, bestLinear, downlinkCentreHz, isActive, whyNoDownlink, type Candidate, type Passband } from './candidates.js';
import type { Transmitter } from './record.js';

// Profiles from transmitter records, pure: the one implementation the run-time service and the
// dev tool share. A transponder wins over an FM repeater (a satellite with both is operated as
// linear), a two-way channel over a receive-only downlink; curated facts are applied last.

/** FM channels move in 5 kHz steps on the rig; linear guidance changes once per 20% band, so 1 kHz is already finer than its error. */
export const FM_STEP_HZ = 5000;
export const LINEAR_STEP_HZ = 1000;
/** A data or CW downlink off the 5 kHz grid (436.8375) must stay within 1 kHz of its centre. */
export const RECEIVE_STEP_HZ = 1000;

const hz = v.pipe(v.number(), v.integer(), v.minValue(1));
export const CuratedSchema = v.object({
  norad_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  name: v.optional(v.string()),
  ctcss_hz: v.optional(v.number()),
  passband: v.optional(v.object({ uplink_low_hz: hz, uplink_high_hz: hz, downlink_low_hz: hz, downlink_high_hz: hz, inverting: v.boolean() })),
  modes: v.optional(v.object({ uplink: v.string(), downlink: v.string() })),
  source: v.optional(v.string()),
  note: v.optional(v.string()),
});
export type Curated = v.InferOutput<typeof CuratedSchema>;
export const CuratedFileSchema = v.object({ version: v.literal(1), about: v.optional(v.string()), corrections: v.array(CuratedSchema) });

/** The catalog as the builder needs it: norad id → name. */
export interface NamedSatellites {
  byNorad: ReadonlyMap<number, { name: string }>;
}

export interface NotCovered {
  norad_id: number;
  name: string;
  reason: string;
}

export interface BuiltProfiles {
  profiles: ProfileEntry[];
  /** Catalog satellites with an active record in a rig band that got no profile, and why. */
  not_covered: NotCovered[];
}

/** "OSCAR 7 (AO-7)" → "AO-7": the short amateur name when the catalog carries one. */
export const shortName = (name: string) => /\(([A-Z]{1,3}-\d+)\)/.exec(name)?.[1] ?? name;

/** A record touching a rig band on either side: what counts a satellite in the coverage goal. */
export function inRigBand(t: Transmitter): boolean {
  const d = downlinkCentreHz(t);
  return (d !== null && rigBandOf(d) !== null) || (t.uplink_low !== null && rigBandOf(t.uplink_low) !== null);
}

function linearEntry(norad_id: number, name: string, pb: Passband, source: string, cur: Curated | undefined): ProfileEntry {
  const modes = cur?.modes ?? (pb.inverting ? { uplink: 'LSB', downlink: 'USB' } : { uplink: 'USB', downlink: 'USB' });
  return {
    norad_id,
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
    source,
    note: cur?.note,
  };
}

function toEntry(norad_id: number, satName: string, c: Candidate, cur: Curated | undefined): ProfileEntry {
  const name = cur?.name ?? shortName(satName);
  if (c.kind === 'linear') return linearEntry(norad_id, name, cur?.passband ?? c.passband, cur?.passband ? (cur.source ?? 'curated') : c.source, cur);
  if (c.kind === 'fm') {
    const ctcss_hz = cur?.ctcss_hz ?? c.ctcss_hz;
    return {
      norad_id,
      name,
      mode: 'fm',
      correction_side: 'uhf_only',
      columns: [{ uplink_hz: c.uplink_hz, downlink_hz: c.downlink_hz, label: 'FM' }],
      uplink_step_hz: FM_STEP_HZ,
      downlink_step_hz: FM_STEP_HZ,
      uplink_mode: 'FM',
      downlink_mode: 'FM',
      ...(ctcss_hz ? { ctcss_hz } : {}),
      source: c.source,
      note: cur?.note,
    };
  }
  // Receive-only: Doppler on the downlink wherever it is, no uplink ever; uplink_mode repeats the
  // downlink mode so a consumer that sets both VFO modes still sets a sensible one.
  return {
    norad_id,
    name,
    mode: 'fm',
    correction_side: 'downlink_only',
    receive_only: true,
    columns: [{ uplink_hz: null, downlink_hz: c.downlink_hz, label: '↓ only' }],
    uplink_step_hz: 0,
    downlink_step_hz: RECEIVE_STEP_HZ,
    uplink_mode: c.rig_mode,
    downlink_mode: c.rig_mode,
    baud: c.baud,
    description: c.description,
    source: c.source,
    note: cur?.note,
  };
}

/**
 * One profile per catalog satellite that the records (or a curated passband) support. Records
 * are grouped by norad id once, so a 2,900-record dump costs one pass plus the catalog's share.
 */
export function buildProfiles(transmitters: readonly Transmitter[], catalog: NamedSatellites, curated: readonly Curated[]): BuiltProfiles {
  const byNorad = new Map<number, Transmitter[]>();
  for (const t of transmitters) {
    if (t.norad_cat_id === null || !catalog.byNorad.has(t.norad_cat_id) || !isActive(t)) continue;
    let list = byNorad.get(t.norad_cat_id);
    if (!list) byNorad.set(t.norad_cat_id, (list = []));
    list.push(t);
  }
  const curatedBy = new Map(curated.map((c) => [c.norad_id, c]));
  const profiles: ProfileEntry[] = [];
  const not_covered: NotCovered[] = [];
  const norads = [...catalog.byNorad.keys()].sort((a, b) => a - b);
  for (const norad of norads) {
    const name = catalog.byNorad.get(norad)!.name;
    const tx = byNorad.get(norad) ?? [];
    const cur = curatedBy.get(norad);
    const twoWay: Candidate | null = bestLinear(tx) ?? bestFm(tx);
    // A curated passband stands for a transponder the data lacks: it beats a receive-only downlink.
    if (!twoWay && cur?.passband) {
      profiles.push(linearEntry(norad, cur.name ?? shortName(name), cur.passband, cur.source ?? 'curated', cur));
      continue;
    }
    const pick = twoWay ?? bestDownlink(tx);
    if (pick) profiles.push(toEntry(norad, name, pick, cur));
    else if (tx.some(inRigBand)) not_covered.push({ norad_id: norad, name, reason: whyNoDownlink(tx) });
  }
  return { profiles, not_covered };
}

/** Two-way profiles only: what the bundled profile file holds (the spec's `uhf_only` set). */
export const isTwoWay = (p: ProfileEntry) => !(p.mode === 'fm' && p.receive_only);
