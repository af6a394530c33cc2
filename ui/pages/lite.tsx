import { useState } from 'preact/hooks';
import type { LiteSnapshot } from '../../src/station/lite-snapshot';
import { mount } from '../components/mount';
import { NightToggle } from '../components/NightToggle';
import { SkyPlot } from '../components/SkyPlot';
import { ElementAge, StaleBanner, Waiting } from '../components/StaleBanner';
import { Tune, type Matrix, type Recommendation } from '../components/Tune';
import { usePoll } from '../components/usePoll';
import { useNow } from '../components/useNow';
import { prefetch } from '../lib/api';
import { compass, deg, km, shortName } from '../lib/format';
import { passClock, positionAt } from '../lib/pass';
import { staleness } from '../lib/stale';
import { aprsLine, radioLine } from '../lib/summaries';
import { clock, countdown, snapshotZone, zoneLabel } from '../lib/time';
import './lite.css';

/** Snapshot poll: the server caches it 15 s; 5 s keeps a tapped focus and pass edges prompt. */
const POLL_MS = 5000;

function focusFromUrl(): string | null {
  return new URLSearchParams(location.search).get('sat_id');
}

const snapshotUrl = (focus: string | null) => `/api/v1/lite/snapshot${focus ? `?sat_id=${encodeURIComponent(focus)}` : ''}`;

function Page() {
  const [focus, setFocus] = useState(focusFromUrl);
  const snap = usePoll<LiteSnapshot>(snapshotUrl(focus), POLL_MS, 'lite');
  const now = useNow();
  const s = snap.data;
  const choose = (satId: string) => {
    setFocus(satId);
    history.replaceState(null, '', `?sat_id=${encodeURIComponent(satId)}`);
  };
  if (!s) return <Waiting class="lite" poll={snap} now={now} />;
  const zone = snapshotZone(s.timezone);
  const reference = staleness(snap.receivedAt, now, snap.offline) === 'reference';
  const pass = s.focusPass;
  const pc = pass ? passClock(pass, now) : null;
  const track = s.focusTrack;
  // Between polls the position follows the focus path (sampled over the pass), else the last sample.
  const pos = (pass && track && pass.sat_id === track.sat_id && positionAt(s.focusPath, now)) || track;
  const path = s.focusPath;
  const first = path[0];
  const last = path[path.length - 1];
  const name = track?.name ?? pass?.name ?? s.focusSatId ?? '—';
  const setupDone = s.liteSettings.setup_complete;
  const next = s.passes.filter((p) => !(pass && p.sat_id === pass.sat_id && p.aos === pass.aos)).slice(0, 8);
  const radio = radioLine(s.radioControl);
  const aprs = aprsLine(s.aprs);
  const meta = s.satellites.find((m) => m.sat_id === (pass?.sat_id ?? s.focusSatId));
  return (
    <div class={`lite stage-${pc?.stage ?? 'none'}`}>
      <StaleBanner receivedAt={snap.receivedAt} offline={snap.offline} error={snap.error} now={now} />
      <section class={`focus ${pc?.tone ?? 'idle'}`} aria-live="off">
        <div class="head">
          <h1 class="name" data-focus-name>
            {name}
          </h1>
          <div class="count">
            <span class="count-label">{pc ? pc.label : 'no pass in 24 h'}</span>{' '}
            {pc && pc.stage !== 'after' && (
              <span class="count-value num" data-countdown>
                {countdown(pc.remainingMs)}
              </span>
            )}
          </div>
        </div>
        <div class="pos num">
          Az {deg(pos?.az_deg)} El {deg(pos?.el_deg, 1)} {km(pos?.range_km)}
        </div>
        {pass && (
          <div class={`passinfo num ${reference ? 'idle' : ''}`}>
            max {deg(pass.max_el_deg)}
            {first && last && ` · ${deg(first.az_deg)} ${compass(first.az_deg)} → ${deg(last.az_deg)} ${compass(last.az_deg)}`}
            <span class="pass-times">
              {' · '}
              {clock(pass.aos, zone)}–{clock(pass.los, zone)} {zoneLabel(zone)}
            </span>
            {reference && ' (times for reference only)'}
          </div>
        )}
      </section>
      <aside class="side">
        <SkyPlot class="lite-sky" path={path} now={pos} aos={s.focusCue ?? (first && pc?.stage === 'before' ? first : null)} label={`Sky plot of the ${shortName(name)} pass, north up`} />
        <div class="row">
          {/* Until setup is done the ISS is shown (the fallback) with a plain invitation; nothing redirects. */}
          <a href="/lite/settings" class={`btn ${setupDone ? '' : 'invite'}`}>
            {setupDone ? 'Satellites' : 'Choose satellites →'}
          </a>
        </div>
      </aside>
      <Tune class="lite-tune" rec={s.frequencyRecommendation as Recommendation | null} matrix={s.frequencyMatrix as Matrix | null} />
      <nav class="next" aria-label="Next passes">
        <span class="muted">next ({zoneLabel(zone)})</span>
        {next.map((p) => (
          <button type="button" key={p.sat_id + p.aos} class={`num ${passClock(p, now).tone}`} onClick={() => choose(p.sat_id)} data-pass={p.sat_id}>
            {shortName(p.name)} {clock(p.aos, zone)} {deg(p.max_el_deg)}
          </button>
        ))}
        {next.length === 0 && <span class="muted">no other passes in 24 h</span>}
      </nav>
      <footer>
        <span class={radio.tone} data-radio-line>
          {radio.text}
        </span>
        <span class={aprs.tone} data-aprs-line>
          {aprs.text}
        </span>
        <ElementAge ageH={meta?.epoch_age_h} />
        <NightToggle />
      </footer>
    </div>
  );
}

mount(Page, prefetch(snapshotUrl(focusFromUrl())));
