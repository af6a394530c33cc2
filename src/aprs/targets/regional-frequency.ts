// The terrestrial APRS frequency and path by the station's location (pure). The first region
// whose box holds the location wins, so national exceptions come before their IARU region.
// Sources: the APRS frequency lists of the national societies as gathered at aprs.org/frequencies
// (2024); boxes are coarse on purpose: near a border the operator sets a manual frequency.

export interface AprsRegion {
  label: string;
  frequency_hz: number;
  path: string;
  /** [south, west, north, east] in degrees; west > east crosses the antimeridian. */
  box: readonly [number, number, number, number];
}

const WIDE = 'WIDE1-1,WIDE2-1';

export const APRS_REGIONS: readonly AprsRegion[] = [
  { label: 'Japan', frequency_hz: 144_640_000, path: WIDE, box: [24, 122, 46, 154] },
  { label: 'China', frequency_hz: 144_640_000, path: WIDE, box: [18, 73, 54, 135] },
  { label: 'Australia', frequency_hz: 145_175_000, path: WIDE, box: [-44, 112, -10, 154] },
  { label: 'New Zealand', frequency_hz: 144_575_000, path: WIDE, box: [-48, 165, -33, -175] },
  { label: 'Brazil', frequency_hz: 145_570_000, path: WIDE, box: [-34, -74, 5, -34] },
  { label: 'Argentina', frequency_hz: 144_930_000, path: WIDE, box: [-56, -74, -21, -53] },
  { label: 'North America', frequency_hz: 144_390_000, path: WIDE, box: [7, -170, 84, -50] },
  { label: 'IARU Region 1 (Europe, Africa, Middle East)', frequency_hz: 144_800_000, path: WIDE, box: [-40, -30, 84, 60] },
  { label: 'IARU Region 1 (Russia, Central Asia)', frequency_hz: 144_800_000, path: WIDE, box: [40, 60, 84, 180] },
  { label: 'IARU Region 2 (Americas)', frequency_hz: 144_390_000, path: WIDE, box: [-60, -170, 84, -30] },
];

/** Asia-Pacific outside the named countries mostly uses 144.390 MHz (India, Indonesia, Malaysia, Philippines). */
export const APRS_REGION_FALLBACK: AprsRegion = { label: 'IARU Region 3 (Asia-Pacific)', frequency_hz: 144_390_000, path: WIDE, box: [-90, -180, 90, 180] };

function inBox(lat: number, lon: number, [s, w, n, e]: AprsRegion['box']): boolean {
  if (lat < s || lat > n) return false;
  return w <= e ? lon >= w && lon <= e : lon >= w || lon <= e;
}

export function aprsRegionFor(lat: number, lon: number): AprsRegion {
  for (const r of APRS_REGIONS) if (inBox(lat, lon, r.box)) return r;
  return APRS_REGION_FALLBACK;
}
