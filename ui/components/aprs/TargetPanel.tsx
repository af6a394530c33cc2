import { clock, countdown, type Zone } from '../../lib/time';
import { mhz, OutcomeLine, type Aprs, type AprsTarget } from './useAprs';

const key = (t: AprsTarget) => (t.operating_mode === 'terrestrial' ? 'terrestrial' : `${t.sat_id}/${t.channel_id}`);

/** A target's pass in one short line: in pass (LOS in), AOS time and countdown, or no pass. */
function When({ t, now, zone }: { t: AprsTarget; now: number; zone: Zone }) {
  if (!t.requires_pass) return <span class="muted">{t.region_label ?? t.reason}</span>;
  const aos = t.pass_aos ? Date.parse(t.pass_aos) : null;
  const los = t.pass_los ? Date.parse(t.pass_los) : null;
  if (aos === null || los === null) return <span class="muted">no pass in the horizon</span>;
  if (now >= aos && now < los) return <span class="ok num">in pass · LOS in {countdown(los - now)}</span>;
  if (now >= los) return <span class="muted">pass over</span>;
  return (
    <span class={`num ${aos - now < 600_000 ? 'warn' : 'muted'}`}>
      AOS {clock(aos, zone)} · in {countdown(aos - now)}
    </span>
  );
}

/**
 * What to work: the terrestrial frequency or one satellite channel, each a big button with its
 * frequency and pass; the selected one is marked. The transmit gate of the selection shows in
 * the Transmit panel.
 */
export function TargetPanel({ a, now, zone }: { a: Aprs; now: number; zone: Zone }) {
  const s = a.state!;
  const selected = key(s.previewTarget);
  const list = a.targets.data?.items ?? [];
  const pick = (t: AprsTarget) => {
    const body = t.operating_mode === 'terrestrial' ? { operating_mode: 'terrestrial' } : { sat_id: t.sat_id, channel_id: t.channel_id };
    void a.act('target', '/session/select', body, `${t.label} selected`).then(() => a.targets.refresh());
  };
  return (
    <section class="panel aprs-targets" aria-labelledby="ag">
      <h2 id="ag">Target</h2>
      {a.targets.error && <p class="bad">Targets: {a.targets.error}</p>}
      {!a.targets.data && !a.targets.error && <p class="muted">Reading targets…</p>}
      <ul class="aprs-target-list" aria-label="APRS targets">
        {list.map((t) => {
          const k = key(t);
          const on = k === selected;
          return (
            <li key={k}>
              <button type="button" class={`aprs-target-btn${on ? ' chosen' : ''}`} aria-pressed={on} disabled={a.busy !== null} onClick={() => pick(t)} data-target={k}>
                <strong>{t.operating_mode === 'terrestrial' ? 'Terrestrial' : (t.sat_name ?? t.sat_id)}</strong>
                <span class="num">
                  {t.requires_pass ? `↑ ${mhz(t.uplink_hz)} ↓ ${mhz(t.downlink_hz)}` : mhz(t.frequency_hz)} MHz
                </span>
                {t.channel_label && <span class="muted">{t.channel_label}</span>}
                <When t={t} now={now} zone={zone} />
              </button>
            </li>
          );
        })}
      </ul>
      {a.targets.data && list.length <= 1 && <p class="muted">No APRS satellite from the channel list is in the catalog.</p>}
      <OutcomeLine o={a.outcome.target} name="target" />
    </section>
  );
}
