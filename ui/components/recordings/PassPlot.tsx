import { useMemo } from 'preact/hooks';
import type { TimelinePoint } from '../../../src/recording/schemas';
import { mhz } from '../../lib/format';
import { countdown } from '../../lib/time';

// A recording's pass over its length: the satellite's elevation (solid) and the receive frequency
// the rig was on (dashed: the Doppler curve), each scaled to the box, with the QSOs logged during
// it as lines and, above them, buttons that play the recording from there. A tap on the plot
// plays from that moment too; a thin line follows the player. Plain SVG, no chart library.

/** The drawing's units: it scales with its width (the labels with it). */
const W = 480;
const H = 130;
/** Room for the labels (13 units: about 11 px on a 480 px screen): elevation on the left, MHz on the right, the times below. */
const PAD = { l: 34, r: 62, t: 7, b: 18 };
const PLOT_W = W - PAD.l - PAD.r;
const PLOT_H = H - PAD.t - PAD.b;
/** A pass has ~1000 points (one a second); more than one a drawing unit shows nothing more. */
const MAX_POINTS = PLOT_W;

export interface QsoMark {
  offset_s: number;
  call: string;
}

const f1 = (x: number) => Math.round(x * 10) / 10;

/** An SVG path through the points, broken where a value is missing. */
function line(points: ReadonlyArray<readonly [number, number | null]>, x: (s: number) => number, y: (v: number) => number): string {
  let d = '';
  let pen = false;
  for (const [s, v] of points) {
    if (v === null) {
      pen = false;
      continue;
    }
    d += `${pen ? 'L' : 'M'}${f1(x(s))} ${f1(y(v))}`;
    pen = true;
  }
  return d;
}

/** The timeline as [seconds into the recording, elevation, rx Hz], thinned to MAX_POINTS. */
function series(timeline: readonly TimelinePoint[], startedAt: string) {
  const t0 = Date.parse(startedAt);
  const step = Math.max(1, Math.ceil(timeline.length / MAX_POINTS));
  const el: Array<[number, number | null]> = [];
  const rx: Array<[number, number | null]> = [];
  for (let i = 0; i < timeline.length; i += step) {
    const p = timeline[i];
    const s = (Date.parse(p.t) - t0) / 1000;
    el.push([s, p.el_deg]);
    rx.push([s, p.rx_hz]);
  }
  return { el, rx };
}

export function PassPlot(props: { timeline: readonly TimelinePoint[]; startedAt: string; durationS: number; qsos: readonly QsoMark[]; position: number; seek(s: number): void }) {
  const { timeline, startedAt } = props;
  const lastS = timeline.length ? (Date.parse(timeline[timeline.length - 1].t) - Date.parse(startedAt)) / 1000 : 0;
  const span = Math.max(props.durationS, lastS, 1);
  const x = (s: number) => PAD.l + (Math.min(span, Math.max(0, s)) / span) * PLOT_W;
  const drawn = useMemo(() => {
    const { el, rx } = series(timeline, startedAt);
    const els = el.map(([, v]) => v).filter((v): v is number => v !== null);
    // Elevation from the horizon to the next 10° above the highest (below the horizon: at its line).
    const elTop = Math.min(90, Math.max(10, Math.ceil(Math.max(0, ...els) / 10) * 10));
    const yEl = (v: number) => PAD.t + (1 - Math.max(0, Math.min(elTop, v)) / elTop) * PLOT_H;
    const hz = rx.map(([, v]) => v).filter((v): v is number => v !== null);
    const lo = hz.length ? Math.min(...hz) : 0;
    const hi = hz.length ? Math.max(...hz) : 0;
    // A frequency that never moved is a flat line across the middle.
    const yRx = (v: number) => PAD.t + (hi > lo ? 1 - (v - lo) / (hi - lo) : 0.5) * PLOT_H;
    return { elTop, elPath: line(el, x, yEl), rxPath: line(rx, x, yRx), lo, hi, hasEl: els.length > 0, hasRx: hz.length > 0 };
  }, [timeline, startedAt, span]);

  /** A tap on the plot: play from the moment under it. */
  const tap = (e: MouseEvent) => {
    const r = (e.currentTarget as SVGSVGElement).getBoundingClientRect();
    const u = ((e.clientX - r.left) / r.width) * W;
    if (u >= PAD.l && u <= W - PAD.r) props.seek(((u - PAD.l) / PLOT_W) * span);
  };
  const bottom = H - PAD.b;
  return (
    <figure class="rec-plot" data-pass-plot>
      {/* The QSO buttons stand over their lines; one in the right half ends at its line so none runs off the box. */}
      {props.qsos.length > 0 && (
        <div class="rec-marks">
          {props.qsos.map((q) => {
            const pc = (x(q.offset_s) / W) * 100;
            const style = pc <= 50 ? { left: `${pc}%` } : { right: `${100 - pc}%` };
            return (
              <button type="button" key={q.call + q.offset_s} class="rec-mark" style={style} onClick={() => props.seek(q.offset_s)} data-qso-mark={q.offset_s} title={`Play from ${q.call}, ${countdown(q.offset_s * 1000)} into the recording`}>
                ▶ {q.call}
              </button>
            );
          })}
        </div>
      )}
      <svg viewBox={`0 0 ${W} ${H}`} class="rec-svg" role="img" aria-label="Elevation and receive frequency over the recording; tap to play from there" onClick={tap}>
        <rect class="rec-box" x={PAD.l} y={PAD.t} width={PLOT_W} height={PLOT_H} />
        {drawn.hasRx && <path class="rec-rx" d={drawn.rxPath} />}
        {drawn.hasEl && <path class="rec-el" d={drawn.elPath} />}
        {props.qsos.map((q) => (
          <line key={q.call + q.offset_s} class="rec-qso" x1={f1(x(q.offset_s))} x2={f1(x(q.offset_s))} y1={PAD.t} y2={bottom} />
        ))}
        <line class="rec-head" x1={f1(x(props.position))} x2={f1(x(props.position))} y1={PAD.t} y2={bottom} data-playhead={f1(props.position)} />
        {drawn.hasEl && (
          <>
            <text x={PAD.l - 3} y={PAD.t + 10} text-anchor="end">
              {drawn.elTop}°
            </text>
            <text x={PAD.l - 3} y={bottom} text-anchor="end">
              0°
            </text>
          </>
        )}
        {drawn.hasRx && (
          <>
            <text x={W - PAD.r + 3} y={PAD.t + 10}>
              {mhz(drawn.hi / 1e6)}
            </text>
            {drawn.hi > drawn.lo && (
              <text x={W - PAD.r + 3} y={bottom}>
                {mhz(drawn.lo / 1e6)}
              </text>
            )}
          </>
        )}
        <text x={PAD.l} y={H - 3}>
          {countdown(0)}
        </text>
        <text x={W - PAD.r} y={H - 3} text-anchor="end">
          {countdown(span * 1000)}
        </text>
      </svg>
      <figcaption class="muted rec-legend">
        {drawn.hasEl && <span class="rec-key rec-key-el">elevation</span>}
        {drawn.hasRx && <span class="rec-key rec-key-rx">receive frequency (MHz)</span>}
        {/* A recording by hand without a satellite, the rig not connected: only the time to go by. */}
        {!drawn.hasEl && !drawn.hasRx && <span>no satellite or rig frequency was recorded</span>}
      </figcaption>
    </figure>
  );
}
