// Merging element sets from several sources (pure).
import type { RecordFailure } from './tle.js';
import type { OmmElements } from './types.js';
import { epochMs } from './validate.js';
import { drain } from '../util/loop-slices.js';

/** One record per NORAD id; the newest epoch wins, on a tie the earlier list wins. */
export const mergeByNorad = (lists: readonly (readonly OmmElements[])[]): Map<number, OmmElements> => drain(mergeByNoradSteps(lists));

export function* mergeByNoradSteps(lists: readonly (readonly OmmElements[])[]): Generator<void, Map<number, OmmElements>, undefined> {
  const out = new Map<number, OmmElements>();
  let n = 0;
  for (const list of lists) {
    for (const el of list) {
      const prev = out.get(el.NORAD_CAT_ID);
      if (!prev || epochMs(el) > epochMs(prev)) out.set(el.NORAD_CAT_ID, el);
      if ((++n & 255) === 0) yield;
    }
  }
  return out;
}

const elementKey = (e: OmmElements) =>
  `${e.EPOCH}|${e.MEAN_MOTION}|${e.ECCENTRICITY}|${e.INCLINATION}|${e.RA_OF_ASC_NODE}|${e.ARG_OF_PERICENTER}|${e.MEAN_ANOMALY}`;

/**
 * CelesTrak's station group lists modules (POISK, NAUKA) that repeat the station's element set
 * under their own numbers: tracking them would show the same pass several times under odd names.
 * Keep the lowest NORAD id of each identical element set (the station itself) and drop the rest.
 */
export const dropRepeatedElementSets = (records: readonly OmmElements[]) => drain(dropRepeatedSteps(records));

/** The same, yielding every 128 records (for the running server). */
export function* dropRepeatedSteps(records: readonly OmmElements[]): Generator<void, { kept: OmmElements[]; dropped: RecordFailure[] }, undefined> {
  const sorted = [...records].sort((a, b) => a.NORAD_CAT_ID - b.NORAD_CAT_ID);
  const owner = new Map<string, OmmElements>();
  const kept: OmmElements[] = [];
  const dropped: RecordFailure[] = [];
  let n = 0;
  for (const el of sorted) {
    if ((++n & 127) === 0) yield;
    const key = elementKey(el);
    const first = owner.get(key);
    if (first) {
      dropped.push({ norad_id: el.NORAD_CAT_ID, name: el.OBJECT_NAME, reason: `repeats the elements of ${first.NORAD_CAT_ID} ${first.OBJECT_NAME}` });
      continue;
    }
    owner.set(key, el);
    kept.push(el);
  }
  return { kept, dropped };
}
