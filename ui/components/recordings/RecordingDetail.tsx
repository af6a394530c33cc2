import { useEffect, useRef, useState } from 'preact/hooks';
import type { RecordingDetail as Detail, RecordingItem } from '../../../src/recording/schemas';
import { errorText, getJson, postJson } from '../../lib/api';
import { deg } from '../../lib/format';
import { RECORDINGS_API, recordingApi, recordingAudio } from '../../lib/recordings';
import { utcMinute } from '../../lib/time';
import { ConfirmButton } from '../ConfirmButton';
import { PassPlot, type QsoMark } from './PassPlot';

// One recording: the player, its pass drawn under it with the QSOs to jump to, the download and
// a Delete behind a confirm. The journal is read when the recording is opened and again when its
// list entry changes (a recording under way that ended).

/** How the audio was made, in words. */
const FORMATS = { ogg: 'Ogg Opus', wav: 'WAV' } as const;
const SOURCES = { alsa: 'sound card', lan: 'IC-705 LAN' } as const;
/** Why it ended (ended_reason), as the operator would say it; an unknown reason as the API words it. */
const ENDINGS: Record<string, string> = {
  los: 'ended after LOS',
  tracking_ended: 'ended with the tracking',
  manual: 'stopped by hand',
  disabled: 'recording was turned off',
  shutdown: 'the station shut down',
  interrupted: 'cut short (the station stopped without closing it)',
  error: 'stopped by a fault',
  max_length: 'reached the longest allowed',
};

/** The journal of `id`, read again whenever `version` changes. */
function useJournal(id: string, version: string) {
  const [state, setState] = useState<{ data: Detail | null; error: string | null }>({ data: null, error: null });
  useEffect(() => {
    let alive = true;
    getJson<Detail>(recordingApi(id)).then(
      (a) => alive && setState({ data: a.data, error: null }),
      (e) => alive && setState((s) => ({ ...s, error: errorText(e) })),
    );
    return () => {
      alive = false;
    };
  }, [id, version]);
  return state;
}

/** What else there is to know about it (the list row already says when, how long and how big). */
function facts(item: RecordingItem, d: Detail | null): string {
  const parts = [item.max_el_deg != null ? `max ${deg(item.max_el_deg)}` : null, `${FORMATS[item.format]} ${item.sample_rate / 1000} kHz`, SOURCES[item.source]];
  if (d?.location.grid) parts.push(d.location.grid);
  if (item.ended_reason) parts.push(ENDINGS[item.ended_reason] ?? `ended: ${item.ended_reason.replace(/_/g, ' ')}`);
  return parts.filter(Boolean).join(' · ');
}

export function RecordingDetail(props: { item: RecordingItem; startAt: number | null; onDeleted(): void }) {
  const { item } = props;
  const journal = useJournal(item.id, `${item.status} ${item.ended_at} ${item.bytes}`);
  const audio = useRef<HTMLAudioElement>(null);
  const box = useRef<HTMLElement>(null);
  const [position, setPosition] = useState(props.startAt ?? 0);
  // Opened from a list row further down (a small screen): the player comes into view.
  useEffect(() => box.current?.scrollIntoView({ block: 'nearest' }), []);

  /** Plays from `s` seconds in (a QSO marker, a tap on the plot). */
  const seek = (s: number) => {
    const a = audio.current;
    if (!a) return;
    a.currentTime = s;
    setPosition(s);
    // A tap is the operator's gesture: the browser lets it start the sound. Refused: the player shows why.
    a.play().catch(() => {});
  };
  const qsos: QsoMark[] = (journal.data?.events ?? []).flatMap((e) => (e.kind === 'qso' ? [{ offset_s: e.recording_offset_s, call: e.call }] : []));
  const name = item.sat_name ?? item.sat_id ?? 'no satellite';
  return (
    <section class="panel rec-detail" aria-labelledby="rec-detail-h" data-recording-detail={item.id} ref={box}>
      <h2 id="rec-detail-h">
        {name} <span class="muted num">{utcMinute(item.started_at)}</span>
      </h2>
      <audio
        ref={audio}
        class="rec-audio"
        controls
        preload="metadata"
        src={recordingAudio(item.id)}
        // A link into the recording (the logbook's ▶) starts it at its moment, without playing.
        onLoadedMetadata={(e) => props.startAt && ((e.currentTarget as HTMLAudioElement).currentTime = props.startAt)}
        onTimeUpdate={(e) => setPosition((e.currentTarget as HTMLAudioElement).currentTime)}
        data-player
      />
      {journal.data ? (
        <PassPlot timeline={journal.data.timeline} startedAt={item.started_at} durationS={item.duration_s} qsos={qsos} position={position} seek={seek} />
      ) : (
        <p class={journal.error ? 'field-error' : 'muted'}>{journal.error ? `The pass could not be read: ${journal.error}` : 'Reading the pass…'}</p>
      )}
      <p class="muted num rec-facts">{facts(item, journal.data)}</p>
      <div class="row rec-actions">
        <a class="btn" href={recordingAudio(item.id)} download={`${item.id}.${item.format}`} data-download>
          Download
        </a>
        {item.status === 'recording' ? (
          <span class="muted">Delete once it has ended.</span>
        ) : (
          <ConfirmButton label="Delete" confirmLabel="Delete recording" action={() => postJson(`${RECORDINGS_API}/delete`, { id: item.id }).then(props.onDeleted)} />
        )}
      </div>
    </section>
  );
}
