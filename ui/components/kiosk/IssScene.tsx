import { GroundMap } from '../GroundMap';
import { compass, deg } from '../../lib/format';
import { clock, countdown, zoneLabel, type Zone } from '../../lib/time';
import { passClock } from '../../lib/pass';
import { footprintRadiusKm } from '../../lib/geo';
import { groundAt, type Ground } from './ground';
import type { LiteSnapshot, PassItem, TrackPoint } from './types';

/**
 * The ISS: its Earth-view stream when the server's mode says video (eligible and healthy, and
 * the operator's display mode allows it), else its ground track for the next orbit; always
 * its az/el now and the next pass.
 */
export function IssScene(props: { iss: LiteSnapshot['iss']; next: PassItem | null; location: { lat: number; lon: number }; path: readonly TrackPoint[] | null; now: number; zone: Zone }) {
  const { iss, next, now, zone } = props;
  const st = iss.state;
  const video = st.mode === 'video' && st.activeStreamUrl !== '';
  const t = iss.issTrack;
  const ground = (props.path ?? []).filter((p): p is Ground => p.lat_deg != null && p.lon_deg != null);
  const ahead = ground.filter((p, i) => p.t_ms >= now || ground[i + 1]?.t_ms > now);
  const alt = ground[0]?.alt_km;
  const pc = next ? passClock(next, now) : null;
  return (
    <section class="scene k-iss" data-scene="iss" data-iss-mode={video ? 'video' : 'track'}>
      <div class="k-media">
        {video ? (
          <iframe src={st.activeStreamUrl} allow="autoplay; encrypted-media; fullscreen" title="ISS Earth-view stream" data-iss-video />
        ) : (
          <GroundMap
            class="k-map"
            track={ahead}
            now={groundAt(ground, now)}
            station={props.location}
            footprintKm={alt != null ? footprintRadiusKm(alt) : null}
            label="ISS ground track for the next orbit"
          />
        )}
      </div>
      <div class="k-iss-info num">
        <span class="badge idle">{video ? 'ISS LIVE' : 'ISS TRACK'}</span>
        <span class="k-iss-pos" data-azel>
          Az {deg(t?.az_deg)} {t ? compass(t.az_deg) : ''} · El {deg(t?.el_deg, 1)}
        </span>
        <span class={`k-iss-next ${pc?.tone ?? 'idle'}`} data-iss-next>
          {next && pc
            ? pc.stage === 'during'
              ? `in pass · LOS ${clock(next.los, zone)} ${zoneLabel(zone)}`
              : `next pass ${clock(next.aos, zone)} ${zoneLabel(zone)} · in ${countdown(pc.remainingMs)} · max ${deg(next.max_el_deg)}`
            : 'no ISS pass in 24 h'}
        </span>
      </div>
    </section>
  );
}
