import type { LiteSnapshot } from '../../src/station/lite-snapshot';
import type { LiveSample } from '../../src/orbit/types';

// The positions in a lite snapshot are those of when it was built; the snapshot is rebuilt only
// when what it says changes. While the station pushes its live samples, the screen's positions
// (the tracked strip's elevations, the focus, the ISS) are the pushed ones.

/** The body of GET /api/v1/live (the `live` topic). */
export interface LiveSamples {
  timestamp: string;
  items: LiveSample[];
}

/** The snapshot with its samples replaced by newer pushed ones of the same satellites; the same object when there are none. */
export function withLive(s: LiteSnapshot, live: LiveSamples | null): LiteSnapshot {
  if (!live || Date.parse(live.timestamp) <= Date.parse(s.timestamp)) return s;
  const by = new Map(live.items.map((i) => [i.sat_id, i]));
  const newer = <T extends { sat_id: string } | null>(t: T): T => (t ? ((by.get(t.sat_id) as T | undefined) ?? t) : t);
  return {
    ...s,
    tracks: s.tracks.map(newer),
    focusTrack: newer(s.focusTrack),
    iss: { ...s.iss, issTrack: newer(s.iss.issTrack) },
  };
}
