// The contract between location state (station issue) and the orbit engine.

export interface ResolvedLocation {
  source: 'manual' | 'gps';
  lat: number;
  lon: number;
  alt_m: number;
}

export interface LocationProvider {
  resolved(): ResolvedLocation;
  /** Called when the resolved location changes (re-keys pass tables, clears lite cache). */
  onChange(fn: (loc: ResolvedLocation) => void): () => void;
}

/** Until the operator sets a location: the Royal Observatory, Greenwich. */
export const DEFAULT_LOCATION: ResolvedLocation = { source: 'manual', lat: 51.4779, lon: -0.0015, alt_m: 46 };
