import { mhz } from '../lib/format';
import { isReceiveOnly, listenText } from '../lib/guidance';
import './tune.css';

/** The fields of a frequency recommendation the screens show (spec part 2). */
export interface Recommendation {
  /** The satellite the pair is for (a screen shows it only beside that satellite). */
  sat_id?: string;
  label: string;
  phase: string;
  mode: string;
  correction_side: string;
  uplink_mhz: number | null;
  downlink_mhz: number | null;
  uplink_mode?: string | null;
  downlink_mode?: string | null;
  ctcss_hz?: number | null;
  /** Issue 27: a downlink to hear and no uplink (beacon, telemetry); uplink_mhz is then null. */
  receive_only?: boolean;
  /** Symbol rate of a data downlink, null for voice and CW. */
  baud?: number | null;
  /** What the operator will hear (the SatNOGS description). */
  description?: string | null;
}

export interface MatrixRow {
  phase: string;
  cells: Array<{ uplink_mhz: number | null; downlink_mhz: number | null }>;
}

export interface Matrix {
  sat_id?: string;
  active_phase: string;
  selected_column_index: number | null;
  columns: Array<{ index: number; label: string }>;
  rows: MatrixRow[];
}

/** The Doppler pair to tune: ↓ downlink, ↑ uplink, tone; the label says if it is for now or a cue. */
export function Tune(props: { rec: Recommendation | null; matrix?: Matrix | null; class?: string }) {
  const r = props.rec;
  if (!r) return <div class={`tune ${props.class ?? ''} muted`}>No frequency profile for this satellite</div>;
  if (isReceiveOnly(r)) return <ListenOnly r={r} class={props.class} />;
  const row = props.matrix?.rows.find((x) => x.phase === props.matrix!.active_phase);
  return (
    <div class={`tune ${props.class ?? ''}`} data-tune>
      <div class="tune-pair num">
        <TuneLabel r={r} />
        <span title="downlink (receive)">
          ↓ <b>{mhz(r.downlink_mhz)}</b>
          <small>MHz</small> {r.downlink_mode ?? ''}
        </span>
        {r.uplink_mhz != null && (
          // The tone goes with the uplink it keys: they wrap to the next line together.
          <span title="uplink (transmit)" data-uplink>
            ↑ <b>{mhz(r.uplink_mhz)}</b>
            <small>MHz</small> {r.uplink_mode ?? ''}
            {r.ctcss_hz != null && <span title="CTCSS tone" data-ctcss> {r.ctcss_hz.toFixed(1)} Hz</span>}
          </span>
        )}
      </div>
      <div class="tune-meta muted">
        phase {r.phase} · {r.mode} · corrects {r.correction_side.replace(/_/g, ' ')}
      </div>
      {row && props.matrix && (
        <div class="tune-matrix num" data-matrix-row>
          <span class="muted">{row.phase}:</span>
          {row.cells.map((c, i) => (
            <span key={i} class={i === props.matrix!.selected_column_index ? 'sel' : ''} title={props.matrix!.columns[i]?.label}>
              ↓{mhz(c.downlink_mhz)} ↑{mhz(c.uplink_mhz)}
            </span>
          ))}
        </div>
      )}
    </div>
  );
}

const TuneLabel = ({ r }: { r: Recommendation }) => <span class={`tune-label ${r.label === 'Tune now' ? 'ok' : ''}`}>{r.label}</span>;

/**
 * A receive-only satellite: the corrected downlink with the mode the rig takes and the symbol
 * rate, then what it sends (the description) where the screen has room for the meta line. No
 * uplink arrow at all: an empty ↑ would read as "transmit here, frequency unknown".
 */
function ListenOnly(props: { r: Recommendation; class?: string }) {
  const r = props.r;
  return (
    <div class={`tune ${props.class ?? ''}`} data-tune data-receive-only>
      <div class="tune-pair num">
        <TuneLabel r={r} />
        <span title="downlink (receive only)">
          ↓ <b>{mhz(r.downlink_mhz)}</b>
          <small>MHz</small> {listenText(r)}
        </span>
        <span class="tune-rx muted">receive only</span>
      </div>
      <div class="tune-meta muted">
        phase {r.phase}
        {r.description ? ` · ${r.description}` : ''}
      </div>
    </div>
  );
}
