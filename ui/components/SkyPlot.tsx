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

/** How far inside the AOS marker its label sits, in plot units (radius 90 = horizon). */
const AOS_LABEL_INSET = 20;

/**
 * The AOS marker and its label's centre. AOS is near the horizon, where the N/E/S/W letters sit
 * just outside the ring, so a label above or beside the marker lands on a letter ("AOS" over
 * "W"). The label goes towards the zenith instead, along the marker's own radius, where no
 * compass letter can be. [marker x, marker y, label x, label y]
 */
export function aosMark(p: AzEl): [number, number, number, number] {
  const [x, y] = skyXY(p);
  const r = Math.hypot(x, y);
  if (r < AOS_LABEL_INSET * 1.5) return [x, y, x, y + 14]; // near the zenith: just below the marker
  const k = (r - AOS_LABEL_INSET) / r;
  return [x, y, x * k, y * k];
}

/** The antenna's diamond: a shape no other mark uses, so it reads in night mode's one colour too. */
const diamond = ([x, y]: [number, number], r: number) => `M${f1(x)} ${f1(y - r)}L${f1(x + r)} ${f1(y)}L${f1(x)} ${f1(y + r)}L${f1(x - r)} ${f1(y)}Z`;

/**
 * Sky plot of a pass: rings at 0°, 30°, 60°, the track, AOS marked, the satellite now; with a
 * rotator, where the antenna points (a diamond on a line from the zenith, so the eye finds it
 * on a glance) and where it was sent (a cross).
 */
export function SkyPlot(props: {
  path: readonly AzEl[];
  now?: AzEl | null;
  aos?: AzEl | null;
  label?: string;
  class?: string;
  antenna?: AzEl | null;
  antennaTarget?: AzEl | null;
}) {
  const points = useMemo(
    () =>
      props.path
        .filter((p) => p.el_deg >= -0.5)
        .map((p) => skyXY(p).map(f1).join(','))
        .join(' '),
    [props.path],
  );
  const now = props.now && props.now.el_deg >= 0 ? skyXY(props.now) : null;
  const aos = props.aos ? aosMark(props.aos) : null;
  const ant = props.antenna ? skyXY(props.antenna) : null;
  const tgt = props.antennaTarget ? skyXY(props.antennaTarget) : null;
  return (
    <svg class={`sky ${props.class ?? ''}`} viewBox="-104 -104 208 208" role="img" aria-label={props.label ?? 'Sky plot, north up'}>
      <circle r="90" fill="none" stroke="var(--line)" stroke-width="1.5" />
      <circle r="60" fill="none" stroke="var(--line)" />
      <circle r="30" fill="none" stroke="var(--line)" />
      <path d="M0-90V90M-90 0H90" stroke="var(--line)" />
      <text x="0" y="-93" text-anchor="middle" class="compass">N</text>
      <text x="96" y="4" text-anchor="middle" class="compass">E</text>
      <text x="0" y="102" text-anchor="middle" class="compass">S</text>
      <text x="-96" y="4" text-anchor="middle" class="compass">W</text>
      {points && <polyline points={points} fill="none" stroke="var(--track)" stroke-width="3" stroke-linejoin="round" />}
      {aos && <circle cx={f1(aos[0])} cy={f1(aos[1])} r="5" fill="none" stroke="var(--warn)" stroke-width="2.5" data-aos />}
      {aos && (
        <text x={f1(aos[2])} y={f1(aos[3])} text-anchor="middle" dominant-baseline="central" class="aos-label" stroke="var(--bg)" stroke-width="3" paint-order="stroke">
          AOS
        </text>
      )}
      {tgt && (
        <path
          d={`M${f1(tgt[0] - 6)} ${f1(tgt[1] - 6)}l12 12m0-12l-12 12`}
          stroke="var(--fg)"
          stroke-width="2.5"
          stroke-linecap="round"
          data-antenna-target={`${Math.round(props.antennaTarget!.az_deg)},${Math.round(props.antennaTarget!.el_deg)}`}
        />
      )}
      {ant && (
        <g data-antenna={`${Math.round(props.antenna!.az_deg)},${Math.round(props.antenna!.el_deg)}`}>
          <title>antenna</title>
          <path d={`M0 0L${f1(ant[0])} ${f1(ant[1])}`} stroke="var(--accent)" stroke-width="2" stroke-dasharray="4 3" />
          <path d={diamond(ant, 8)} fill="none" stroke="var(--bg)" stroke-width="6" />
          <path d={diamond(ant, 8)} fill="none" stroke="var(--accent)" stroke-width="3" />
        </g>
      )}
      {now && <circle cx={f1(now[0])} cy={f1(now[1])} r="6" fill="var(--ok)" stroke="var(--bg)" stroke-width="1.5" data-now />}
    </svg>
  );
}
