import { useMemo } from 'preact/hooks';
import outline from 'virtual:world-outline';
import { footprintLines, mapX, mapY, trackLines } from '../lib/geo';

interface LatLonDeg {
  lat_deg: number;
  lon_deg: number;
}

const GRATICULE = (() => {
  let d = '';
  for (let lon = 30; lon < 360; lon += 30) d += `M${lon} 0V180`;
  for (let lat = 30; lat < 180; lat += 30) d += `M0 ${lat}H360`;
  return d;
})();

/**
 * Ground track on a world map (equirectangular, Natural Earth 1:110m land): the track, the
 * satellite now, the station, and the station's footprint: `footprintKm` is its ground radius
 * (footprintRadiusKm of the satellite's height), inside which the satellite is above the horizon.
 */
export function GroundMap(props: {
  track: ReadonlyArray<LatLonDeg>;
  now?: LatLonDeg | null;
  station: { lat: number; lon: number };
  footprintKm?: number | null;
  label?: string;
  class?: string;
}) {
  const lines = useMemo(() => trackLines(props.track.map((p) => ({ lat: p.lat_deg, lon: p.lon_deg }))), [props.track]);
  const { lat, lon } = props.station;
  const foot = useMemo(() => (props.footprintKm ? footprintLines({ lat, lon }, props.footprintKm) : []), [lat, lon, props.footprintKm]);
  return (
    <svg class={`map ${props.class ?? ''}`} viewBox="0 0 360 180" preserveAspectRatio="xMidYMid meet" role="img" aria-label={props.label ?? 'Ground track map'}>
      <rect width="360" height="180" fill="var(--sea)" />
      <path d={outline} fill="var(--land)" />
      <path d={GRATICULE} stroke="var(--line)" stroke-width=".3" fill="none" />
      {foot.map((pts, i) => (
        <polyline key={'f' + i} points={pts} fill="none" stroke="var(--warn)" stroke-width=".8" stroke-dasharray="2 1.5" data-footprint />
      ))}
      {lines.map((pts, i) => (
        <polyline key={'t' + i} points={pts} fill="none" stroke="var(--track)" stroke-width="1.2" stroke-linejoin="round" data-track />
      ))}
      <path d={`M${mapX(lon)} ${mapY(lat) - 3}v6M${mapX(lon) - 3} ${mapY(lat)}h6`} stroke="var(--accent)" stroke-width="1.2" data-station />
      {props.now && <circle cx={mapX(props.now.lon_deg)} cy={mapY(props.now.lat_deg)} r="3" fill="var(--ok)" stroke="var(--bg)" stroke-width=".8" data-now />}
    </svg>
  );
}
