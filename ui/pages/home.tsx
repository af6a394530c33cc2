import { useMemo, useState } from 'preact/hooks';
import type { LiteSnapshot } from '../../src/station/lite-snapshot';
import { GroundMap } from '../components/GroundMap';
import { Shell } from '../components/Shell';
import { SkyPlot } from '../components/SkyPlot';
import { ElementAge, StaleBanner } from '../components/StaleBanner';
import type { Recommendation } from '../components/Tune';
import { isReceiveOnly, listenText } from '../lib/guidance';
import { mount } from '../components/mount';
import { usePoll } from '../components/usePoll';
import { pathFromNow, slidingPathUrl } from '../lib/path-window';
import { useNow } from '../components/useNow';
import { useAntenna } from '../components/rotator/useAntenna';
import type { SystemState } from '../components/useStationState';
import { withoutDebris } from '../lib/debris';
import { counted, deg, km, mhz } from '../lib/format';
import { effectiveScope, scopeOptions, scopeQuery, type PassFilterChoice, type PassScope } from '../lib/pass-scope';
import { load, save } from '../lib/persist';
import { footprintRadiusKm } from '../lib/geo';
import { passClock, positionAt } from '../lib/pass';
import { age, clock, countdown, day, zoneLabel, type Zone } from '../lib/time';
import './home.css';

// The station view for a larger screen: the next 24 h of passes with their guidance, the
// selected pass on a sky plot and its satellite's ground track, live az/el of the tracked set.

interface PassRow {
  sat_id: string;
  name: string;
  aos: string;
  tca: string;
  los: string;
  max_el_deg: number;
  frequencyRecommendation: Recommendation | null;
}
interface PathPoint {
  timestamp: string;
  az_deg: number;
  el_deg: number;
  range_km: number;
  lat_deg: number;
  lon_deg: number;
  alt_km: number;
}
interface Live {
  items: Array<{ sat_id: string; name: string; az_deg: number; el_deg: number; range_km: number }>;
}
type SortKey = 'aos' | 'name' | 'max_el_deg';
interface PassFilter extends PassFilterChoice {
  min_el_deg?: number;
}

/** Choices besides the operator's own minimum (the pass filter setting, which /passes applies by default). */
const MIN_ELEVATIONS = [0, 10, 20, 30, 45];
/** The tracked satellites' positions: polled, or pushed, this often. */
const LIVE_MS = 5000;
/** The ground track shown: the next 100 minutes. */
const GROUND_MIN = 100;
/** Rows shown at first: a full catalogue has hundreds of passes a day, re-rendered every second. */
const PAGE_ROWS = 30;

/** The embedded recommendation: frequencies in MHz (the column says so), tone, and its label. */
function Guidance({ r }: { r: Recommendation | null }) {
  if (!r) return <span class="muted">no profile</span>;
  if (isReceiveOnly(r))
    return (
      <span class="num tune" data-receive-only title={r.description ? `receive only: ${r.description}` : 'receive only'}>
        <span>
          ↓{mhz(r.downlink_mhz)} {listenText(r)}
        </span>
        <span class="muted">{r.label}</span>
      </span>
    );
  return (
    <span class="num tune">
      <span>↓{mhz(r.downlink_mhz)} {r.downlink_mode}</span>
      {r.uplink_mhz != null && <span>↑{mhz(r.uplink_mhz)} {r.uplink_mode}</span>}
      {r.ctcss_hz != null && <span>tone {r.ctcss_hz.toFixed(1)} Hz</span>}
      <span class="muted">{r.label}</span>
    </span>
  );
}

/** The selected pass on a sky plot (its path from AOS to LOS) and its satellite's ground track. */
function Selected({ pass, zone, station, now, rotator }: { pass: PassRow; zone: Zone; station: { lat: number; lon: number } | null; now: number; rotator: boolean }) {
  const ant = useAntenna(rotator);
  // /track/path starts at most an hour back (start_too_early): a long pass (hours, from a high
  // orbit) that rose earlier is drawn from 50-55 min ago, a start that moves in 5-minute steps so
  // the request is not a new one every second.
  const start_ms = Math.max(Date.parse(pass.aos), Math.floor((now - 50 * 60_000) / 300_000) * 300_000);
  const span_s = (Date.parse(pass.los) - start_ms) / 1000;
  const sky = usePoll<{ items: PathPoint[] }>(
    `/api/v1/track/path?sat_id=${pass.sat_id}&start=${encodeURIComponent(new Date(start_ms).toISOString())}&minutes=${(span_s / 60).toFixed(2)}&step_seconds=${Math.max(1, Math.ceil(span_s / 60))}`,
    0,
    undefined,
    { on: ['passes'] },
  );
  // The next 100 minutes, asked for once per block of time and drawn from now.
  const ground = usePoll<{ items: PathPoint[] }>(slidingPathUrl(pass.sat_id, GROUND_MIN, 60, now), 60_000, undefined, { on: ['passes'] });
  const track = ground.data ? pathFromNow(ground.data.items, now, GROUND_MIN) : [];
  const first = sky.data?.items[0];
  const last = sky.data?.items[sky.data.items.length - 1];
  return (
    <section class="panel selected" aria-labelledby="sel">
      <h2 id="sel">
        {pass.name} · {day(pass.aos, zone)} {clock(pass.aos, zone)}–{clock(pass.los, zone)} {zoneLabel(zone)}
      </h2>
      <p class="num muted">
        max {deg(pass.max_el_deg, 1)}
        {first && last && ` · AOS az ${deg(first.az_deg)} → LOS az ${deg(last.az_deg)}`}
      </p>
      <div class="views">
        <SkyPlot path={sky.data?.items ?? []} aos={first ?? null} now={sky.data ? positionAt(sky.data.items, now) : null} label={`Sky plot of the ${pass.name} pass`} antenna={ant.antenna} antennaTarget={ant.target} />
        {station && (
          <GroundMap
            track={track}
            now={track[0] ?? null}
            station={station}
            footprintKm={track[0] ? footprintRadiusKm(track[0].alt_km) : null}
            label={`Ground track of ${pass.name} for the next 100 minutes, with the station's footprint`}
          />
        )}
      </div>
      {ant.antenna && <p class="muted small" data-antenna-legend>Sky: ◇ where the antenna points now{ant.target ? ', × where it was sent' : ''}.</p>}
      <p class="muted small">Map: the next 100 min of the track (dot: now), the station (+) and its footprint for this satellite's height (dashed).</p>
    </section>
  );
}

function Page() {
  const now = useNow();
  // Remembered per device: the operator who follows the tracked set wants it after a reload too.
  const [scope, setScopeState] = useState<PassScope>(() => load<PassScope>('home-scope') ?? 'filter');
  const setScope = (x: PassScope) => {
    setScopeState(x);
    save('home-scope', x);
  };
  const [debris, setDebris] = useState(false);
  // null: the operator's minimum elevation, which /passes applies when the query names none.
  const [minEl, setMinEl] = useState<number | null>(null);
  const [sort, setSort] = useState<SortKey>('aos');
  const [selKey, setSelKey] = useState<string | null>(null);
  const [limit, setLimit] = useState(PAGE_ROWS);
  // While the live socket is open: every settings file is news of system state; the pass list
  // changes with the table and with the tracked set (the lite topic's news).
  const filter = usePoll<{ state: PassFilter }>('/api/v1/settings/pass-filter', 60_000, undefined, { on: ['system'] }).data?.state;
  const lite = usePoll<LiteSnapshot>('/api/v1/lite/snapshot', 60_000, undefined, { topic: 'lite' });
  const trackedIds = lite.data?.trackedSatIds ?? null;
  const shownScope = effectiveScope(scope, filter);
  const scoped = scopeQuery(shownScope, trackedIds);
  const passes = usePoll<{ items: PassRow[]; total?: number; truncated?: boolean }>(
    scoped === null ? null : `/api/v1/passes?hours=24&include_ongoing=true${minEl === null ? '' : `&min_max_el=${minEl}`}${scoped}`,
    60_000,
    'home-passes',
    { on: ['passes', 'lite'] },
  );
  const st = usePoll<SystemState & { location: { lat: number; lon: number; locator?: string } }>('/api/v1/system/state', 30_000, 'system-state', { topic: 'system' });
  const tracked = trackedIds?.join(',') ?? null;
  // The live topic carries every satellite: the tracked ones are kept.
  const live = usePoll<Live>(tracked ? `/api/v1/live?sat_ids=${tracked}` : null, LIVE_MS, undefined, {
    topic: 'live',
    periodMs: LIVE_MS,
    from: (d) => {
      const all = d as Live;
      const ids = new Set(trackedIds);
      return { ...all, items: all.items.filter((i) => ids.has(i.sat_id)) };
    },
  });
  const datasets = usePoll<{ catalog: { origin: string; count: number; refreshed_at: string | null } }>('/api/v1/datasets', 60_000, undefined, { on: ['system'] });

  const zone: Zone = { name: st.data?.settings.display_timezone ?? 'UTC' };
  const { rows, hidden } = useMemo(() => {
    const shown = withoutDebris(passes.data?.items ?? [], debris);
    const items = [...shown.items];
    if (sort === 'name') items.sort((a, b) => a.name.localeCompare(b.name));
    if (sort === 'max_el_deg') items.sort((a, b) => b.max_el_deg - a.max_el_deg);
    return { rows: items, hidden: shown.hidden };
  }, [passes.data, sort, debris]);
  const satCount = useMemo(() => new Set(rows.map((p) => p.sat_id)).size, [rows]);
  const key = (p: PassRow) => p.sat_id + '@' + p.aos;
  const selected = rows.find((p) => key(p) === selKey) ?? rows.find((p) => passClock(p, now).stage !== 'after') ?? null;
  const sortButton = (k: SortKey, label: string) => (
    <button type="button" class="sort" aria-pressed={sort === k} onClick={() => setSort(k)}>
      {label}
      {sort === k ? ' ▾' : ''}
    </button>
  );
  const fresh = lite.data?.freshness;
  const locator = st.data?.location.locator;
  return (
    <Shell
      title="Station"
      status={
        <span class="row small">
          {locator && (
            <span title="The station's Maidenhead locator">
              locator <b class="num" data-locator>{locator}</b>
            </span>
          )}
          {fresh?.catalog_epoch_age_h != null && (
            <span>
              tracked set: <ElementAge ageH={fresh.catalog_epoch_age_h} />
            </span>
          )}
          {datasets.data && (
            <span class="muted" data-catalog>
              catalog: {datasets.data.catalog.count} satellites, {datasets.data.catalog.origin}
              {datasets.data.catalog.refreshed_at ? `, refreshed ${age(now - Date.parse(datasets.data.catalog.refreshed_at))} ago` : ', never refreshed'} · <a href="/settings#catalog">refresh</a>
            </span>
          )}
        </span>
      }
    >
      <StaleBanner receivedAt={passes.receivedAt} offline={passes.offline} error={passes.error} now={now} />
      <div class="home">
        <section aria-labelledby="passes" class="passes">
          <div class="row">
            <h2 id="passes">Next 24 h ({zoneLabel(zone)})</h2>
            <fieldset class="seg" data-scope-choice>
              <legend class="sr-only">Satellites listed</legend>
              {scopeOptions(filter, trackedIds?.length ?? null).map((o) => (
                <label key={o.scope} class={shownScope === o.scope ? 'on' : ''}>
                  <input type="radio" name="scope" value={o.scope} checked={shownScope === o.scope} onChange={() => setScope(o.scope)} data-scope-option={o.scope} />
                  {o.label}
                </label>
              ))}
            </fieldset>
            <label class="row">
              <input type="checkbox" checked={debris} onChange={(e) => setDebris((e.target as HTMLInputElement).checked)} data-debris /> Debris and rocket bodies
            </label>
            <label class="row">
              Min elevation
              <select value={minEl ?? ''} onChange={(e) => setMinEl(parseMinEl((e.target as HTMLSelectElement).value))} data-min-el>
                <option value="">{filter?.min_el_deg != null ? `${filter.min_el_deg}° (setting)` : 'setting'}</option>
                {MIN_ELEVATIONS.filter((m) => m !== filter?.min_el_deg).map((m) => (
                  <option key={m} value={m}>
                    {m}°
                  </option>
                ))}
              </select>
            </label>
          </div>
          {passes.data && (
            <p class="small muted scope" data-scope>
              {counted(rows.length, 'pass', 'passes')} of {counted(satCount, 'satellite')}
              {shownScope === 'tracked' && (
                <>
                  {' '}
                  · <a href="/lite/settings">change the tracked set</a>
                </>
              )}
              {shownScope === 'filter' && (
                <>
                  {' '}
                  · <a href="/settings#passes">change the pass filter</a>
                </>
              )}
              {hidden > 0 && ` · ${counted(hidden, 'pass', 'passes')} of debris and rocket bodies hidden`}
            </p>
          )}
          <div class="scroll">
            <table data-passes>
              <thead>
                <tr>
                  <th>{sortButton('name', 'Satellite')}</th>
                  <th>{sortButton('aos', 'AOS')}</th>
                  <th>Length</th>
                  <th>{sortButton('max_el_deg', 'Max el')}</th>
                  <th>Tune (MHz)</th>
                </tr>
              </thead>
              <tbody>
                {rows.slice(0, limit).map((p) => {
                  const pc = passClock(p, now);
                  const isSel = selected !== null && key(p) === key(selected);
                  return (
                    // The whole row takes a click; its name button is the keyboard's way in (its click bubbles).
                    <tr key={key(p)} class={`${pc.tone} ${isSel ? 'sel' : ''}`} aria-selected={isSel} data-row={p.sat_id} onClick={() => setSelKey(key(p))}>
                      <td>
                        <button type="button" class="link" aria-current={isSel}>
                          {p.name}
                        </button>
                      </td>
                      <td class="num">
                        {day(p.aos, zone)} {clock(p.aos, zone)}
                        <div class={`small ${pc.tone}`}>{pc.stage === 'during' ? `in pass, LOS in ${countdown(pc.remainingMs)}` : pc.stage === 'before' ? `in ${countdown(pc.remainingMs)}` : 'ended'}</div>
                      </td>
                      <td class="num len">{Math.round((Date.parse(p.los) - Date.parse(p.aos)) / 60_000)} min</td>
                      <td class="num maxel" data-label="max ">
                        {deg(p.max_el_deg)}
                      </td>
                      <td class="guide">
                        <Guidance r={p.frequencyRecommendation} />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
            {passes.data && rows.length === 0 && <p class="muted">No passes in the next 24 h with these filters.</p>}
            {passes.data?.truncated && (
              <p class="muted small" data-truncated>
                The earliest {passes.data.items.length} of {passes.data.total} passes; raise the minimum elevation or use the Favorites filter to see later ones.
              </p>
            )}
            {rows.length > limit && (
              <button type="button" onClick={() => setLimit(limit + PAGE_ROWS)} data-more>
                Show {Math.min(PAGE_ROWS, rows.length - limit)} more ({rows.length - limit} not shown)
              </button>
            )}
          </div>
        </section>
        <div class="side">
          {selected && <Selected key={key(selected)} pass={selected} zone={zone} station={st.data?.location ?? null} now={now} rotator={st.data?.rotatorSettings?.enabled === true} />}
          <section class="panel" aria-labelledby="live">
            <h2 id="live">Tracked now</h2>
            <table data-live>
              <thead>
                <tr>
                  <th>Satellite</th>
                  <th>Az</th>
                  <th>El</th>
                  <th>Range</th>
                </tr>
              </thead>
              <tbody>
                {(live.data?.items ?? []).map((s) => (
                  <tr key={s.sat_id} class={s.el_deg >= 0 ? 'ok' : ''}>
                    <td>
                      {s.name} {s.el_deg >= 0 && <span class="badge ok">up</span>}
                    </td>
                    <td class="num">{deg(s.az_deg)}</td>
                    <td class="num">{deg(s.el_deg, 1)}</td>
                    <td class="num">{km(s.range_km)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p class="small muted">
              The tracked set is chosen on <a href="/lite/settings">Lite settings</a>.
            </p>
          </section>
        </div>
      </div>
    </Shell>
  );
}

const parseMinEl = (v: string): number | null => (v === '' ? null : Number(v));

mount(Page);
