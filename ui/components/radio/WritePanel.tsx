import { useState } from 'preact/hooks';
import { OutcomeLine, mhzToHz, type Radio } from './useRadio';

const MODES = ['FM', 'USB', 'LSB', 'CW', 'AM', 'FM-D', 'USB-D', 'LSB-D'];

function ModeSelect(props: { id: string; value: string; onChange: (v: string) => void }) {
  return (
    <select id={props.id} value={props.value} onChange={(e) => props.onChange((e.target as HTMLSelectElement).value)}>
      {MODES.map((m) => (
        <option key={m}>{m}</option>
      ))}
    </select>
  );
}

/** Direct VFO write (not pass-aware) and a manual pair in the rig's write order. */
export function WritePanel({ r }: { r: Radio }) {
  const [vfo, setVfo] = useState<'A' | 'B'>('A');
  const [freq, setFreq] = useState('145.800');
  const [up, setUp] = useState('145.990');
  const [down, setDown] = useState('437.800');
  const [upMode, setUpMode] = useState('FM');
  const [downMode, setDownMode] = useState('FM');
  const [local, setLocal] = useState<string | null>(null);
  const off = !r.state!.runtime.connected || r.busy !== null;
  const writeVfo = (e: Event) => {
    e.preventDefault();
    const hz = mhzToHz(freq);
    setLocal(hz === null ? 'frequency must be a number of MHz' : null);
    if (hz !== null) void r.act('vfo', '/frequency', { vfo, freq_hz: hz }, `VFO ${vfo} set`);
  };
  const writePair = (e: Event) => {
    e.preventDefault();
    const u = mhzToHz(up);
    const d = mhzToHz(down);
    setLocal(u === null || d === null ? 'uplink and downlink must be numbers of MHz' : null);
    if (u !== null && d !== null) void r.act('pair', '/pair', { uplink_hz: u, downlink_hz: d, uplink_mode: upMode, downlink_mode: downMode }, 'pair written');
  };
  return (
    <section class="panel" aria-labelledby="rw">
      <h2 id="rw">Write</h2>
      {local && <p class="bad">{local}</p>}
      <form class="radio-form" onSubmit={writeVfo} aria-label="Direct VFO write">
        <label for="vfo-sel">VFO</label>
        <select id="vfo-sel" value={vfo} onChange={(e) => setVfo((e.target as HTMLSelectElement).value as 'A' | 'B')}>
          <option>A</option>
          <option>B</option>
        </select>
        <label for="vfo-mhz">MHz</label>
        <input id="vfo-mhz" inputMode="decimal" value={freq} onInput={(e) => setFreq((e.target as HTMLInputElement).value)} />
        <button type="submit" disabled={off}>
          Set VFO
        </button>
      </form>
      <OutcomeLine o={r.outcome.vfo} name="vfo" />
      <form class="radio-form" onSubmit={writePair} aria-label="Manual pair">
        <label for="pair-up">Uplink MHz</label>
        <input id="pair-up" inputMode="decimal" value={up} onInput={(e) => setUp((e.target as HTMLInputElement).value)} />
        <ModeSelect id="pair-up-mode" value={upMode} onChange={setUpMode} />
        <label for="pair-down">Downlink MHz</label>
        <input id="pair-down" inputMode="decimal" value={down} onInput={(e) => setDown((e.target as HTMLInputElement).value)} />
        <ModeSelect id="pair-down-mode" value={downMode} onChange={setDownMode} />
        <button type="submit" disabled={off}>
          Write pair
        </button>
      </form>
      <OutcomeLine o={r.outcome.pair} name="pair" />
    </section>
  );
}
