import { useState } from 'preact/hooks';
import type { RIG_MODES } from '../../../src/radio/schemas';
import { OutcomeLine, mhzToHz, rigMhz, type Radio } from './useRadio';

/** The modes a pair may ask for (the API's list; the rig refuses what it cannot do). */
const MODES: ReadonlyArray<(typeof RIG_MODES)[number]> = ['FM', 'USB', 'LSB', 'CW', 'CW-R', 'AM', 'FM-D', 'USB-D', 'LSB-D', 'AM-D', 'RTTY', 'RTTY-R', 'DV'];

function ModeSelect(props: { id: string; label: string; value: string; onChange: (v: string) => void }) {
  return (
    <select id={props.id} aria-label={props.label} value={props.value} onChange={(e) => props.onChange((e.target as HTMLSelectElement).value)}>
      {MODES.map((m) => (
        <option key={m}>{m}</option>
      ))}
    </select>
  );
}

interface PairAnswer {
  recommendation: { uplink_hz: number; downlink_hz: number; uplink_mode: string; downlink_mode: string };
  targetMapping: { tx: string; rx: string };
}

const pairText = (a: PairAnswer) =>
  `pair written: ↓ ${rigMhz(a.recommendation.downlink_hz)} ${a.recommendation.downlink_mode} on ${a.targetMapping.rx} · ↑ ${rigMhz(a.recommendation.uplink_hz)} ${a.recommendation.uplink_mode} on ${a.targetMapping.tx}`;

interface SideRuntime {
  capabilities: { radio: string } | null;
  legs?: { downlink: { rig: string }; uplink: { rig: string } | null };
}

/** VFO A is the receive side and B the transmit side on any setup; with two radios each is its own radio. */
function sideLabel(rt: SideRuntime, vfo: 'A' | 'B'): string {
  const two = rt.capabilities?.radio.includes(' + ') && rt.legs?.uplink;
  if (!two) return vfo === 'A' ? 'A (receive)' : 'B (transmit)';
  // The select is narrow on a small screen: side, arrow and the radio's short name only.
  return vfo === 'A' ? `A ↓ ${rt.legs!.downlink.rig}` : `B ↑ ${rt.legs!.uplink!.rig}`;
}

/**
 * Direct writes, not pass-aware: one VFO's frequency, or a manual pair in the rig's write
 * order (the server refuses a pair with neither side in 144–148 / 420–450 MHz, rig untouched).
 */
export function WritePanel({ r }: { r: Radio }) {
  const [vfo, setVfo] = useState<'A' | 'B'>('A');
  const [freq, setFreq] = useState('145.800');
  const [up, setUp] = useState('145.990');
  const [down, setDown] = useState('437.800');
  const [upMode, setUpMode] = useState('FM');
  const [downMode, setDownMode] = useState('FM');
  const s = r.state!;
  const sessionHolds = s.session.active;
  const off = !s.runtime.connected || r.busy !== null || sessionHolds;
  const writeVfo = (e: Event) => {
    e.preventDefault();
    const hz = mhzToHz(freq);
    if (hz === null) return r.say('vfo', { ok: false, text: 'the frequency must be a number of MHz, e.g. 145.800' });
    void r.act('vfo', '/frequency', { vfo, freq_hz: hz }, `VFO ${vfo} set to ${rigMhz(hz)} MHz`);
  };
  const writePair = (e: Event) => {
    e.preventDefault();
    const u = mhzToHz(up);
    const d = mhzToHz(down);
    if (u === null || d === null) return r.say('pair', { ok: false, text: 'uplink and downlink must be numbers of MHz, e.g. 145.990' });
    void r.act<PairAnswer>('pair', '/pair', { uplink_hz: u, downlink_hz: d, uplink_mode: upMode, downlink_mode: downMode }, pairText);
  };
  return (
    <section class="panel" aria-labelledby="rw">
      <h2 id="rw">Write</h2>
      {sessionHolds && <p class="muted">The pass session holds the rig: stop it, or end its test with “Release rig”, first.</p>}
      <form class="radio-form" onSubmit={writeVfo} aria-label="Direct VFO write">
        <h3>One VFO</h3>
        <div class="radio-fields">
          <label for="vfo-sel">VFO</label>
          <select id="vfo-sel" value={vfo} onChange={(e) => setVfo((e.target as HTMLSelectElement).value as 'A' | 'B')}>
            <option value="A">{sideLabel(s.runtime, 'A')}</option>
            <option value="B">{sideLabel(s.runtime, 'B')}</option>
          </select>
          <label for="vfo-mhz">MHz</label>
          <input id="vfo-mhz" class="num" inputMode="decimal" autoComplete="off" value={freq} onInput={(e) => setFreq((e.target as HTMLInputElement).value)} />
        </div>
        <button type="submit" disabled={off}>
          Set VFO
        </button>
        <OutcomeLine o={r.outcome.vfo} name="vfo" />
      </form>
      <form class="radio-form" onSubmit={writePair} aria-label="Manual pair">
        <h3>Manual pair</h3>
        <div class="radio-fields">
          <label for="pair-up">↑ Uplink MHz</label>
          <input id="pair-up" class="num" inputMode="decimal" autoComplete="off" value={up} onInput={(e) => setUp((e.target as HTMLInputElement).value)} />
          <ModeSelect id="pair-up-mode" label="Uplink mode" value={upMode} onChange={setUpMode} />
          <label for="pair-down">↓ Downlink MHz</label>
          <input id="pair-down" class="num" inputMode="decimal" autoComplete="off" value={down} onInput={(e) => setDown((e.target as HTMLInputElement).value)} />
          <ModeSelect id="pair-down-mode" label="Downlink mode" value={downMode} onChange={setDownMode} />
        </div>
        <button type="submit" disabled={off}>
          Write pair
        </button>
        <OutcomeLine o={r.outcome.pair} name="pair" />
      </form>
    </section>
  );
}
