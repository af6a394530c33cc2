import { SkyPlot, type AzEl } from '../SkyPlot';
import type { Recommendation } from '../Tune';
import { compass, deg, shortName } from '../../lib/format';
import { passClock, positionAt, type PathSample } from '../../lib/pass';
import { clock, zoneLabel, type Zone } from '../../lib/time';
import { useAntenna } from '../rotator/useAntenna';
import { Count, Pair, SceneHead } from './scenes';
import type { Sample } from './types';

/** What the pass scene draws, from the lite snapshot or (satellite outside the tracked set) system state. */
export interface PassView {
  sat_id: string;
  name: string;
  pass: { aos: string; los: string; max_el_deg: number } | null;
  /** AOS → LOS samples (empty when the source has none). */
  path: readonly PathSample[];
  /** The last live sample, for when the path does not cover the moment. */
  track: Sample | null;
  rec: Recommendation | null;
  cue: AzEl | null;
  /** Outside the tracked set: the snapshot has no path for it. */
  untracked?: boolean;
}

/**
 * A pass as the operator works it: sky plot filling the height, countdown to LOS, the pair to
 * tune, az/el now. `t` is the moment shown (now, or a simulated moment inside the pass);
 * `phase` names the simulated phase.
 */
export function PassScene(props: { view: PassView | null; t: number; phase: string | null; zone: Zone; rotator: boolean }) {
  const { view, t, phase, zone } = props;
  // The antenna is where it is now: not drawn over a simulated moment of the pass.
  const ant = useAntenna(props.rotator && !phase);
  if (!view) {
    return (
      <section class="scene k-text" data-scene="pass">
        <SceneHead tone="idle">NO PASS</SceneHead>
        <p class="k-empty">No pass data for this satellite yet</p>
      </section>
    );
  }
  const pc = view.pass ? passClock(view.pass, t) : null;
  // A simulated moment has no live sample: only the path says where the satellite would be.
  const pos = positionAt(view.path, t) ?? (phase ? null : view.track);
  const head = pc?.stage === 'during' ? 'IN PASS' : pc?.stage === 'before' ? 'NEXT PASS' : pc ? 'PASS ENDED' : 'NO PASS IN 24 H';
  const aos = pc?.stage === 'before' ? (view.cue ?? view.path[0] ?? null) : null;
  return (
    <section class={`scene k-pass k-${pc?.tone ?? 'idle'}`} data-scene="pass" data-stage={pc?.stage ?? 'none'}>
      <SkyPlot class="k-sky" path={view.path} now={pos} aos={aos} label={`Sky plot of the ${shortName(view.name)} pass, north up`} antenna={ant.antenna} antennaTarget={ant.target} />
      <div class="k-info">
        <div class="k-head">
          <span class={`badge ${pc?.tone ?? 'idle'}`} role="status" data-pass-head>
            {head}
          </span>
          {phase && (
            <span class="badge idle" data-simulated>
              SIMULATED {phase.toUpperCase()}
            </span>
          )}
        </div>
        <h1 class="k-name" data-sat={view.sat_id}>
          {shortName(view.name)}
        </h1>
        {pc && pc.stage !== 'after' && <Count label={pc.label} ms={pc.remainingMs} />}
        <div class="k-line num" data-azel>
          Az {deg(pos?.az_deg)} {pos ? compass(pos.az_deg) : ''} · El {deg(pos?.el_deg, 1)}
        </div>
        <Pair rec={view.rec} />
        {view.pass && (
          <div class="k-meta num">
            max {deg(view.pass.max_el_deg)} · {clock(view.pass.aos, zone)}–{clock(view.pass.los, zone)} {zoneLabel(zone)}
          </div>
        )}
        {view.untracked && <div class="k-meta muted">sky track: add this satellite to the tracked set</div>}
      </div>
    </section>
  );
}
