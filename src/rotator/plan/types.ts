// The planner's vocabulary, shared by its modules (re-exported from ../planner.ts).

export interface RotatorLimits {
  az_min_deg: number;
  az_max_deg: number;
  el_min_deg: number;
  el_max_deg: number;
  /** Where the mechanical end stop is. */
  az_stop: 'north' | 'south';
  flip: 'auto' | 'never';
}

/** Compass azimuth 0..360 and elevation (the satellite's look angles), or controller coordinates where a function says so. */
export interface LookAngles {
  az_deg: number;
  el_deg: number;
}

/** The satellite's topocentric look angles at t (the service builds it from the orbit engine). */
export type LookAt = (t_ms: number) => LookAngles;

/**
 * How the antenna follows the pass: 'normal' (az, el); 'flipped' over the top for the whole pass
 * (az + 180, 180 − el); 'flip_after' normal until switch_ms then flipped, 'flip_before' flipped
 * until switch_ms then normal (an overhead pass taken with the azimuth held, the elevation
 * sweeping through the zenith).
 */
export type FlipMode = 'normal' | 'flipped' | 'flip_after' | 'flip_before';

/** A zenith keyhole (normal mode, high pass): inside the window the azimuth moves at a steady rate from az_in to az_out. */
export interface Keyhole {
  start_ms: number;
  end_ms: number;
  az_in_deg: number;
  az_out_deg: number;
}

export interface PassPlan {
  sat_id: string;
  aos_ms: number;
  los_ms: number;
  /** True when any part of the pass is taken over the top. */
  flip: boolean;
  /** 'overlap' when the planned azimuth leaves the first turn (an az_max_deg above 360). */
  az_wrap: 'none' | 'overlap';
  /** Controller coordinates to wait at before AOS: the AOS azimuth at minimum elevation. */
  preposition_az_deg: number;
  preposition_el_deg: number;
  mode: FlipMode;
  switch_ms: number;
  keyhole: Keyhole | null;
  /**
   * The planned controller azimuth every path_step_ms from AOS: the reference a live azimuth is
   * unwrapped against (which turn of the cable), so the wrap decided at track start holds all pass.
   */
  path_az_deg: Float64Array;
  path_step_ms: number;
  /** Set when no continuous in-limits path exists (no flip, no overlap, the pass crosses the stop): the one unwind planned. */
  unwind: boolean;
}
