import type { LiveSample } from '../orbit/types.js';
import type { DeveloperOverrides } from './developer-overrides.js';
import type { IssDisplay } from './display-settings.js';

// ISS state (spec part 2 "ISS state"), pure. Rules:
// - sunlit, aboveHorizon: from the live ISS sample (elevation above 0°). No sample → false.
// - videoEligible: the ISS is in sunlight. The station's Earth-view camera shows a lit Earth
//   only then (the ground below turns dark a few minutes before the ISS itself does).
// - streamHealthy: the station believes it is online and a stream URL is configured. The
//   server does not probe the stream (the client plays it and would notice first).
// - Developer overrides (when enabled) replace videoEligible/streamHealthy when non-null.
// - mode: `pass` while the ISS is above the horizon (radio contact beats scenery), `video`
//   when the display mode allows it and the stream is worth showing, else `track`.
//   Display mode `auto`: video when eligible and healthy; `video`: whenever healthy;
//   `track`: never video.
// - activeStreamUrl: the configured URL, always (the client may preload it).

export const ISS_MODES = ['pass', 'video', 'track'] as const;
export type IssMode = (typeof ISS_MODES)[number];

export interface IssStateFlags {
  sunlit: boolean;
  aboveHorizon: boolean;
  videoEligible: boolean;
  streamHealthy: boolean;
  mode: IssMode;
  activeStreamUrl: string;
}

export function issState(track: LiveSample | null, display: IssDisplay, overrides: DeveloperOverrides, online: boolean): IssStateFlags {
  const sunlit = track?.sunlit ?? false;
  const aboveHorizon = track !== null && track.el_deg > 0;
  let videoEligible = sunlit;
  let streamHealthy = online && display.stream_url !== '';
  if (overrides.enabled) {
    if (overrides.force_iss_video_eligible !== null) videoEligible = overrides.force_iss_video_eligible;
    if (overrides.force_iss_stream_healthy !== null) streamHealthy = overrides.force_iss_stream_healthy;
  }
  const wantsVideo =
    display.iss_display_mode === 'video' ? streamHealthy : display.iss_display_mode === 'auto' ? videoEligible && streamHealthy : false;
  const mode: IssMode = aboveHorizon ? 'pass' : wantsVideo ? 'video' : 'track';
  return { sunlit, aboveHorizon, videoEligible, streamHealthy, mode, activeStreamUrl: display.stream_url };
}
