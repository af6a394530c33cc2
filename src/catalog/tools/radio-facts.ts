// Dev tool helper: compact per-NORAD radio facts from SatNOGS transmitters and the JE9PEL list.
// transponders = linear transponders (a passband up and down); repeaters = FM voice repeaters
// (one uplink and one different downlink). Beacons, telemetry and digipeaters are neither.
export interface SatnogsTransmitter {
  description: string;
  alive: boolean;
  status: string;
  type: string;
  mode: string | null;
  uplink_low: number | null;
  uplink_high: number | null;
  downlink_low: number | null;
  downlink_high: number | null;
  invert: boolean;
  norad_cat_id: number | null;
  service: string;
}

export interface JeRow {
  name: string;
  norad_id: string;
  uplink: string | null;
  downlink: string | null;
  mode: string | null;
  status?: string;
}

export interface RadioFacts {
  /** NORAD ids with amateur radio aboard. */
  ham: number[];
  facts: Record<string, { transponders: string[]; repeaters: string[] }>;
}

const MAX_PER_LIST = 6;

function mhz(hz: number): string {
  const m = hz / 1e6;
  const s = m.toFixed(4).replace(/0$/, '');
  return s;
}

function transponderText(t: SatnogsTransmitter): string {
  const down = t.invert ? `${mhz(t.downlink_high!)}–${mhz(t.downlink_low!)}` : `${mhz(t.downlink_low!)}–${mhz(t.downlink_high!)}`;
  const mode = t.mode && t.mode !== 'FM' ? ` ${t.mode}` : '';
  return `${t.description.trim()}: uplink ${mhz(t.uplink_low!)}–${mhz(t.uplink_high!)} MHz, downlink ${down} MHz${mode}${t.invert ? ', inverting' : ''}`;
}

function repeaterText(t: SatnogsTransmitter): string {
  return `${t.description.trim()}: uplink ${mhz(t.uplink_low!)} MHz, downlink ${mhz(t.downlink_low!)} MHz FM`;
}

const isTransponder = (t: SatnogsTransmitter) =>
  t.uplink_low != null && t.uplink_high != null && t.downlink_low != null && t.downlink_high != null;
const isRepeater = (t: SatnogsTransmitter) =>
  t.uplink_low != null &&
  t.uplink_high == null &&
  t.downlink_low != null &&
  t.uplink_low !== t.downlink_low &&
  /^FM/i.test(t.mode ?? '') &&
  !/crew/i.test(t.description);

export function buildRadioFacts(o: {
  transmitters: SatnogsTransmitter[];
  jeActive: JeRow[];
  amateurGroup: ReadonlySet<number>;
  /** Our NORAD → the NORAD the radio data files it under (identity fixes). */
  sourceNorad: Record<number, number>;
}): RadioFacts {
  const toOurs = new Map<number, number>(Object.entries(o.sourceNorad).map(([ours, theirs]) => [theirs, Number(ours)]));
  const mapNorad = (n: number) => toOurs.get(n) ?? (n in o.sourceNorad ? -1 : n);
  const ham = new Set<number>(o.amateurGroup);
  const facts = new Map<number, { transponders: Set<string>; repeaters: Set<string> }>();
  const entry = (n: number) => {
    let f = facts.get(n);
    if (!f) facts.set(n, (f = { transponders: new Set(), repeaters: new Set() }));
    return f;
  };
  for (const t of o.transmitters) {
    if (t.norad_cat_id == null || !t.alive || t.status !== 'active') continue;
    const n = mapNorad(t.norad_cat_id);
    if (n < 0) continue;
    if (t.service === 'Amateur') ham.add(n);
    if (isTransponder(t)) entry(n).transponders.add(transponderText(t));
    else if (isRepeater(t)) entry(n).repeaters.add(repeaterText(t));
  }
  for (const r of o.jeActive) {
    const n = mapNorad(Number(r.norad_id));
    if (!Number.isInteger(n) || n <= 0) continue;
    ham.add(n);
    const f = facts.get(n);
    if ((f && (f.transponders.size || f.repeaters.size)) || !r.uplink || !r.downlink) continue;
    const text = `${r.name} (JE9PEL): uplink ${r.uplink.replace(/\s+/g, '')} MHz, downlink ${r.downlink.replace(/\s+/g, '')} MHz ${r.mode ?? ''}`.trim();
    if (r.uplink.includes('-') && /SSB|CW|linear/i.test(r.mode ?? '')) entry(n).transponders.add(text);
    else if (/FM/.test(r.mode ?? '') && r.uplink !== r.downlink) entry(n).repeaters.add(text);
  }
  const out: RadioFacts['facts'] = {};
  for (const [n, f] of [...facts].sort((a, b) => a[0] - b[0])) {
    if (!f.transponders.size && !f.repeaters.size) continue;
    out[String(n)] = { transponders: [...f.transponders].slice(0, MAX_PER_LIST), repeaters: [...f.repeaters].slice(0, MAX_PER_LIST) };
  }
  return { ham: [...ham].sort((a, b) => a - b), facts: out };
}
