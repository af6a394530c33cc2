import type { RecordingRuntime } from '../../src/recording/schemas';
import { db } from '../lib/format';
import { RECORDINGS_API } from '../lib/recordings';
import { usePoll } from './usePoll';
import './recording-dot.css';

// The pass recorder's dot (ui brief: "a recording shows as a red dot with the level"): shown only
// while a recording runs, with the audio level the recorder pushes on the `recording` topic about
// once a second. Nothing at all while it is not recording: an idle recorder is no news.

/** What the dot needs: the lite snapshot's line has no level (undefined), the runtime has it (null: no audio came). */
export type RecorderNow = Pick<RecordingRuntime, 'recording'> & { level_dbfs?: number | null };

/** The recorder's runtime: pushed on the `recording` topic while the live socket is open, else read now and then. */
export const useRecorder = () => usePoll<{ runtime: RecordingRuntime }>(`${RECORDINGS_API}/runtime`, 10_000, undefined, { topic: 'recording' });

export function RecordingDot(props: { rt: RecorderNow | null | undefined }) {
  const rt = props.rt;
  if (!rt?.recording) return null;
  const level = rt.level_dbfs;
  return (
    <span class="rec-dot num" role="status" title="Recording the pass audio" data-rec-dot>
      <span class="rec-light" aria-hidden="true" />
      REC
      {level === null && <span class="rec-level">no audio</span>}
      {level != null && (
        <span class="rec-level">
          <span data-rec-level={Math.round(level)}>{db(level)}</span> <small>dBFS</small>
        </span>
      )}
    </span>
  );
}
