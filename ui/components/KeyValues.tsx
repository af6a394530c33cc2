import { hzAsMhz } from '../lib/format';
import { clock, day, zoneLabel, type Zone } from '../lib/time';

type Value = unknown;

/** One value as people read it: units from the field name, times in the display zone. */
export function showValue(key: string, v: Value, zone: Zone): string {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'number') {
    if (key.endsWith('_hz')) return hzAsMhz(v);
    if (key.endsWith('_ms')) return `${v} ms`;
    if (key.endsWith('_deg')) return `${v}°`;
    if (key.endsWith('_s')) return `${v} s`;
    return String(v);
  }
  if (typeof v === 'string') {
    if ((key.endsWith('_at') || key === 'pass_aos' || key === 'pass_los') && /^\d{4}-\d\d-\d\dT/.test(v)) return `${day(v, zone)} ${clock(v, zone, true)} ${zoneLabel(zone)}`;
    return v;
  }
  if (Array.isArray(v)) return v.length ? v.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x))).join(', ') : '—';
  return JSON.stringify(v);
}

/** "frequency_hz" → "frequency" (the value carries the unit), "last_poll_at" → "last poll at". */
const label = (key: string) => key.replace(/_(hz|ms|deg|s)$/, '').replace(/_/g, ' ');

/** A resource block as a definition list (nested objects as their own lists); secrets masked. */
export function KeyValues(props: { data: Record<string, Value> | null | undefined; zone: Zone; hide?: string[]; secret?: string[] }) {
  if (!props.data) return <p class="muted">—</p>;
  return (
    <dl class="kv">
      {Object.entries(props.data)
        .filter(([k]) => !props.hide?.includes(k))
        .map(([k, v]) => [
          <dt key={k + ':k'}>{label(k)}</dt>,
          <dd key={k + ':v'} class="num">
            {v && typeof v === 'object' && !Array.isArray(v) ? (
              <KeyValues data={v as Record<string, Value>} zone={props.zone} secret={props.secret} />
            ) : props.secret?.includes(k) && v ? (
              '••••••'
            ) : (
              showValue(k, v, props.zone)
            )}
          </dd>,
        ])}
    </dl>
  );
}
