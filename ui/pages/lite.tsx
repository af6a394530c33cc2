import type { ComponentChildren } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import type { LiteSnapshot } from '../../src/station/lite-snapshot';
import { mount } from '../components/mount';
import { NightToggle } from '../components/NightToggle';
import { SkyPlot } from '../components/SkyPlot';
import { ElementAge, StaleBanner, Waiting, elementTone } from '../components/StaleBanner';
import { StatusLine } from '../components/StatusLine';
import { Tune, type Matrix, type Recommendation } from '../components/Tune';
import { LogQso, type LogSatellite, type PassUnderWay } from '../components/logbook/LogQso';
import { usePoll } from '../components/usePoll';
import { useTopic } from '../components/useTopic';
import { RecordingDot } from '../components/RecordingDot';
import type { RecordingRuntime } from '../../src/recording/schemas';
import { withLive, type LiveSamples } from '../lib/live-overlay';
import { useNow } from '../components/useNow';
import { prefetch } from '../lib/api';
import { compass, deg, km, shortName } from '../lib/format';
import { nextPassBySat, passClock, positionAt } from '../lib/pass';
import { staleness } from '../lib/stale';
import { antennaMarks, rotatorLine } from '../lib/rotator';
import { aprsLine, radioLine } from '../lib/summaries';
import { clock, countdown, dayMarker, snapshotZone, zoneLabel, type Zone } from '../lib/time';
import './lite.css';

/**
 * Snapshot poll while the live socket is down: the server caches it 15 s; 5 s keeps a tapped
 * focus and pass edges prompt. While it is open the snapshot comes as the lite topic's events
 * (a tapped focus: asked again on each), and the positions as live samples every LIVE_PERIOD_MS.
 */
const POLL_MS = 5000;
const LIVE_PERIOD_MS = 5000;
/** The recorder pushes its level about once a second while recording (and nothing otherwise). */
const RECORDING_PERIOD_MS = 1000;

function focusFromUrl(): string | null {
  return new URLSearchParams(location.search).get('sat_id');
}

/** Chips in the tracked strip before later passes stop being added (two rows at 480×320). */
const LATER_SLOTS = 6;

const snapshotUrl = (focus: string | null) => `/api/v1/lite/snapshot${focus ? `?sat_id=${encodeURIComponent(focus)}` : ''}`;

/** A chip's name: the designator when the short name starts with one ("RS-44 & BREEZE-KM R/B" → "RS-44"). */
function chipName(name: string): string {
  const short = shortName(name);
  return /^[A-Z]{1,3}-\d+\b/.exec(short)?.[0] ?? short;
}

/** A chip's AOS: its clock time, after the day when that is not today ("tmrw 10:33"). */
function When(props: { t: string; now: number; zone: Zone }) {
  const d = dayMarker(props.t, props.now, props.zone);
  return (
    <>
      {d && <small data-day>{d} </small>}
      {clock(props.t, props.zone)}
    </>
  );
}

/**
 * Every tracked satellite, passes under way first then by AOS: its short name, elevation now,
 * next AOS and peak (the small screen shows name and AOS; wider ones the rest). Tapping one
 * makes it the focus.
 */
function TrackedStrip(props: { s: LiteSnapshot; subject: string | null; now: number; zone: Zone; choose: (satId: string) => void; children?: ComponentChildren }) {
  const { s, now, zone } = props;
  const names = new Map(s.satellites.map((m) => [m.sat_id, m.name]));
  const el = new Map(s.tracks.map((t) => [t.sat_id, t.el_deg]));
  const rows = nextPassBySat(s.trackedSatIds, s.passes, now);
  // With few satellites tracked there is room for their later passes too (the brief's "next" row).
  const shown = new Set(rows.map((r) => r.pass));
  const later = s.passes.filter((p) => !shown.has(p) && Date.parse(p.los) > now).slice(0, Math.max(0, LATER_SLOTS - rows.length));
  return (
    <nav class="tracked" aria-label={`Tracked satellites and their next pass (${zoneLabel(zone)})`}>
      {rows.map(({ sat_id, pass }) => {
        const pc = pass ? passClock(pass, now) : null;
        return (
          <button
            type="button"
            key={sat_id}
            class={`num ${pc?.tone ?? 'idle'}`}
            aria-pressed={sat_id === props.subject}
            onClick={() => props.choose(sat_id)}
            data-tracked={sat_id}
            data-pass={pass ? sat_id : undefined}
          >
            <b title={names.get(sat_id)}>{chipName(names.get(sat_id) ?? sat_id)}</b>
            <span class="t-el" title="elevation now">{deg(el.get(sat_id), 0)}</span>
            <span class="t-aos">{!pass ? 'no pass' : pc?.stage === 'during' ? 'in pass' : <When t={pass.aos} now={now} zone={zone} />}</span>
            {pass && <span class="t-max" title="maximum elevation">max {deg(pass.max_el_deg)}</span>}
          </button>
        );
      })}
      {later.map((p) => (
        <button type="button" key={p.sat_id + p.aos} class="num later" onClick={() => props.choose(p.sat_id)} data-pass={p.sat_id} title={`later pass of ${p.name}`}>
          {chipName(p.name)}{' '}
          <span class="t-aos">
            <When t={p.aos} now={now} zone={zone} />
          </span>
          <span class="t-max">max {deg(p.max_el_deg)}</span>
        </button>
      ))}
      {props.children}
    </nav>
  );
}

type Line = 'radio' | 'aprs' | 'rotator' | 'log';

/**
 * Log QSO in the place of the tracked strip (which it hides while open): the name, countdown,
 * position, pass line and the pair to tune stay in view while the operator types the call; the
 * sheet scrolls inside itself where the strip's room is short (480×320).
 */
function LogSheet(props: { pass: PassUnderWay | null; own: string | null; satellites: LogSatellite[]; close: () => void }) {
  return (
    <section class="lite-log" aria-label="Log QSO" data-log-sheet>
      <LogQso pass={props.pass} own={props.own} satellites={props.satellites} autoFocus />
      <button type="button" class="lite-log-close" onClick={props.close} aria-label="Close Log QSO">
        ✕
      </button>
    </section>
  );
}

function Page() {
  const [focus, setFocus] = useState(focusFromUrl);
  const [openLine, setOpenLine] = useState<Line | null>(null);
  const snap = usePoll<LiteSnapshot>(snapshotUrl(focus), POLL_MS, 'lite', focus ? { on: ['lite'] } : { topic: 'lite' });
  const live = useTopic<LiveSamples>('live', LIVE_PERIOD_MS);
  // The recording dot: the recorder's own topic (with the level) while the socket is open, else
  // the snapshot's line (a cached snapshot from an older build has none: no dot).
  const recorder = useTopic<{ runtime: RecordingRuntime }>('recording', RECORDING_PERIOD_MS);
  const now = useNow();
  const s = useMemo(() => snap.data && withLive(snap.data, live), [snap.data, live]);
  const choose = (satId: string) => {
    setFocus(satId);
    history.replaceState(null, '', `?sat_id=${encodeURIComponent(satId)}`);
  };
  if (!s) return <Waiting class="lite" poll={snap} now={now} />;
  const zone = snapshotZone(s.timezone);
  const reference = staleness(snap.receivedAt, now, snap.offline) === 'reference';
  // One subject (ui brief): the focus pass's satellite when there is one, and only its track,
  // path and pair. The server already makes them agree; a cached snapshot from an older build
  // may not, so nothing of another satellite is shown.
  const pass = s.focusPass;
  const subject = pass?.sat_id ?? s.focusSatId;
  const track = s.tracks.find((t) => t.sat_id === subject) ?? (s.focusTrack?.sat_id === subject ? s.focusTrack : null);
  const path = s.focusPath.length && s.focusPath[0].sat_id === subject ? s.focusPath : [];
  const recAny = s.frequencyRecommendation as Recommendation | null;
  const matrixAny = s.frequencyMatrix as Matrix | null;
  const rec = recAny?.sat_id === subject ? recAny : null;
  const matrix = matrixAny?.sat_id === subject ? matrixAny : null;
  const cue = s.focusCue?.sat_id === subject ? s.focusCue : null;
  const pc = pass ? passClock(pass, now) : null;
  // Between polls the position follows the focus path (sampled over the pass), else the last sample.
  const pos = (pass && positionAt(path, now)) || track;
  const first = path[0];
  const last = path[path.length - 1];
  const meta = s.satellites.find((m) => m.sat_id === subject);
  const name = track?.name ?? pass?.name ?? meta?.name ?? subject ?? '—';
  const elementsOld = elementTone(meta?.epoch_age_h) !== 'muted';
  const setupDone = s.liteSettings.setup_complete;
  const radio = radioLine(s.radioControl);
  const aprs = aprsLine(s.aprs);
  // A cached snapshot from before the rotator has no block: no line, no marker.
  const rotator = rotatorLine(s.rotator);
  const ant = antennaMarks(s.rotator);
  const toggle = (line: Line) => () => setOpenLine(openLine === line ? null : line);
  const locator = s.location.locator;
  // QSOs during the focus pass are logged against it; the heard candidates are its stations.
  // The sheet offers the tracked satellites, the focus first (the one a QSO just now was most likely on).
  const tracked: LogSatellite[] = s.trackedSatIds
    .map((id) => ({ sat_id: id, name: shortName(s.satellites.find((m) => m.sat_id === id)?.name ?? id) }))
    .sort((a, b) => Number(b.sat_id === subject) - Number(a.sat_id === subject));
  const underWay: PassUnderWay | null = pass && pc?.stage === 'during' ? { sat_id: pass.sat_id, name: shortName(name), aos: pass.aos, los: pass.los } : null;
  return (
    <div class={`lite stage-${pc?.stage ?? 'none'}`}>
      {/* Old elements are a warning at every size, beside the data's own age; fresh ones are a footer note. */}
      <div class="banners">
        <StaleBanner receivedAt={snap.receivedAt} offline={snap.offline} error={snap.error} now={now} />
        {elementsOld && <ElementAge ageH={meta?.epoch_age_h} banner />}
      </div>
      <section class={`focus ${pc?.tone ?? 'idle'}`} aria-live="off" data-subject={subject}>
        <h1 class="name" data-focus-name title={name}>
          {name}
        </h1>
        <div class="count">
          {pc ? (
            <span class="count-label">{pc.label}</span>
          ) : (
            <span class="count-label" data-no-pass>
              no pass in 24 h
            </span>
          )}{' '}
          {pc && pc.stage !== 'after' && (
            <span class="count-value num" data-countdown>
              {countdown(pc.remainingMs)}
            </span>
          )}
        </div>
        <div class="pos num">
          Az {deg(pos?.az_deg)} El {deg(pos?.el_deg, 1)} <span class="range">{km(pos?.range_km)}</span>
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
      <div class="side" data-subject={subject}>
        <RecordingDot rt={recorder?.runtime ?? s.recording} />
        <SkyPlot class="lite-sky" path={path} now={pos} aos={cue ?? (first && pc?.stage === 'before' ? first : null)} label={`Sky plot of the ${shortName(name)} pass, north up`} antenna={ant.antenna} antennaTarget={ant.target} />
      </div>
      <div class="tune-area" data-subject={subject}>
        <Tune class="lite-tune" rec={rec} matrix={matrix} />
      </div>
      {openLine === 'log' ? (
        <LogSheet pass={underWay} own={s.aprs?.station_valid ? s.aprs.callsign : null} satellites={tracked} close={() => setOpenLine(null)} />
      ) : (
        <TrackedStrip s={s} subject={subject} now={now} zone={zone} choose={choose}>
          {/* Until setup is done the ISS is shown (the fallback) with a plain invitation beside it,
              where there is room for it; nothing redirects. */}
          {!setupDone && (
            <a href="/lite/settings" class="btn invite">
              Choose satellites →
            </a>
          )}
        </TrackedStrip>
      )}
      <footer>
        <StatusLine text={radio.text} short={radio.short} tone={radio.tone} open={openLine === 'radio'} onToggle={toggle('radio')} data-key="radio-line" />
        <StatusLine text={aprs.text} short={aprs.short} tone={aprs.tone} open={openLine === 'aprs'} onToggle={toggle('aprs')} data-key="aprs-line" />
        {rotator && <StatusLine text={rotator.text} short={rotator.short} tone={rotator.tone} open={openLine === 'rotator'} onToggle={toggle('rotator')} data-key="rotator-line" />}
        {!elementsOld && <ElementAge ageH={meta?.epoch_age_h} />}
        {locator && (
          <span class="muted locator" title="station locator (Maidenhead)" data-locator>
            {locator}
          </span>
        )}
        <button type="button" class={`log-open${underWay ? ' live' : ''}`} aria-expanded={openLine === 'log'} onClick={toggle('log')} data-log-open>
          Log
        </button>
        {setupDone && (
          <a href="/lite/settings" class="btn">
            Satellites
          </a>
        )}
        <NightToggle />
      </footer>
    </div>
  );
}

mount(Page, prefetch(snapshotUrl(focusFromUrl())));
