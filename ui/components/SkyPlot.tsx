import { useMemo } from 'preact/hooks';

export interface AzEl {
  az_deg: number;
  el_deg: number;
}

/** Polar projection: north up, east right, horizon at radius 90, zenith at the centre. */
export function skyXY(p: AzEl): [number, number] {
  const r = 90 - Math.max(0, Math.min(90, p.el_deg));
  const a = (p.az_deg * Math.PI) / 180;
  return [r * Math.sin(a), -r * Math.cos(a)];
}

const f1 = (x: number) => Math.round(x * 10) / 10;

/** Sky plot of a pass: rings at 0°, 30°, 60°, the track, AOS marked, the satellite now. */
export function SkyPlot(props: { path: readonly AzEl[]; now?: AzEl | null; aos?: AzEl | null; label?: string; class?: string }) {
  const points = useMemo(
    () =>
      props.path
        .filter((p) => p.el_deg >= -0.5)
        .map((p) => skyXY(p).map(f1).join(','))
        .join(' '),
    [props.path],
  );
  const now = props.now && props.now.el_deg >= 0 ? skyXY(props.now) : null;
  const aos = props.aos ? skyXY(props.aos) : null;
  return (
    <svg class={`sky ${props.class ?? ''}`} viewBox="-104 -104 208 208" role="img" aria-label={props.label ?? 'Sky plot, north up'}>
      <circle r="90" fill="none" stroke="var(--line)" stroke-width="1.5" />
      <circle r="60" fill="none" stroke="var(--line)" />
      <circle r="30" fill="none" stroke="var(--line)" />
      <path d="M0-90V90M-90 0H90" stroke="var(--line)" />
      <text x="0" y="-93" text-anchor="middle">N</text>
      <text x="96" y="4" text-anchor="middle">E</text>
      <text x="0" y="102" text-anchor="middle">S</text>
      <text x="-96" y="4" text-anchor="middle">W</text>
      {points && <polyline points={points} fill="none" stroke="var(--track)" stroke-width="3" stroke-linejoin="round" />}
      {aos && <circle cx={f1(aos[0])} cy={f1(aos[1])} r="5" fill="none" stroke="var(--warn)" stroke-width="2.5" data-aos />}
      {aos && (
        <text x={f1(aos[0])} y={f1(aos[1]) - 8} text-anchor="middle" class="aos-label">
          AOS
        </text>
      )}
      {now && <circle cx={f1(now[0])} cy={f1(now[1])} r="6" fill="var(--ok)" stroke="var(--bg)" stroke-width="1.5" data-now />}
    </svg>
  );
}
