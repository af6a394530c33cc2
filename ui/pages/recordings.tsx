import { useState } from 'preact/hooks';
import type { RecordingItem, RecordingRuntime } from '../../src/recording/schemas';
import { Shell } from '../components/Shell';
import { StaleBanner, Waiting } from '../components/StaleBanner';
import { mount } from '../components/mount';
import { RecordingDot, useRecorder } from '../components/RecordingDot';
import { RecordingDetail } from '../components/recordings/RecordingDetail';
import { RecordingList } from '../components/recordings/RecordingList';
import { useNow } from '../components/useNow';
import { usePoll } from '../components/usePoll';
import { RECORDINGS_API, recordingFromUrl } from '../lib/recordings';
import './recordings.css';

// /recordings (issue 37): the pass recordings, newest first; one opened plays under its pass
// (elevation and receive frequency over the recording, the QSOs to jump to), with download and
// delete. The address names the one open (`?id=`, or `#<id>`) and where to start (`&t=` seconds):
// the logbook's ▶ links land there. The list is read again when the recorder's topic says a
// recording started or ended, not at its level's every second.

/** The list while the live socket is down: a start or end shows within this. */
const LIST_POLL_MS = 30_000;

/** The part of the recorder's runtime that changes the list: a recording starting or ending. */
const startOrEnd = (_topic: unknown, d: { runtime: RecordingRuntime }) => [d.runtime.recording, d.runtime.id];

const opened = recordingFromUrl();

function Page() {
  const list = usePoll<{ items: RecordingItem[] }>(RECORDINGS_API, LIST_POLL_MS, undefined, { on: ['recording'], key: startOrEnd });
  const recorder = useRecorder();
  const now = useNow();
  const [chosen, setChosen] = useState(opened.id);
  // Where the player starts: the address's moment for the recording it opened, else the beginning.
  const startAt = chosen === opened.id ? opened.t : null;
  const choose = (id: string | null) => {
    setChosen(id);
    history.replaceState(null, '', id ? `?id=${encodeURIComponent(id)}` : location.pathname);
  };
  const items = list.data?.items;
  const item = items?.find((r) => r.id === chosen) ?? null;
  return (
    <Shell title="Recordings" status={<RecordingDot rt={recorder.data?.runtime} />}>
      {!items ? (
        <Waiting class="rec-wait" poll={list} now={now} />
      ) : (
        <>
          <StaleBanner receivedAt={list.receivedAt} offline={list.offline} error={list.error} now={now} />
          <div class="rec-cols">
            {item ? (
              <RecordingDetail
                key={item.id}
                item={item}
                startAt={startAt}
                onDeleted={() => {
                  choose(null);
                  list.refresh();
                }}
              />
            ) : chosen ? (
              <p class="banner warn rec-detail" role="status" data-rec-missing>
                There is no recording {chosen} (deleted, or removed to keep within the space allowed).
              </p>
            ) : (
              items.length > 0 && <p class="muted rec-detail rec-hint">Choose a recording to hear it, with its pass and the QSOs made during it.</p>
            )}
            <RecordingList items={items} chosen={chosen} choose={choose} />
          </div>
          <p>
            <a class="btn" href="/settings#recording">
              Recording settings →
            </a>
          </p>
        </>
      )}
    </Shell>
  );
}

mount(Page);
