import type { ComponentChildren } from 'preact';
import type { Zone } from '../lib/time';
import { Shell } from './Shell';
import { StaleBanner } from './StaleBanner';
import { StatusBadge } from './StatusBadge';
import { useNow } from './useNow';
import { useStationState, type SystemState } from './useStationState';

/** connected / not connected / error, from a runtime block (radio or APRS). */
export function ConnectionBadge(props: { runtime: { connected: boolean; last_error: string | null } }) {
  const { connected, last_error } = props.runtime;
  return <StatusBadge tone={last_error ? 'bad' : connected ? 'ok' : 'idle'}>{last_error ? 'error' : connected ? 'connected' : 'not connected'}</StatusBadge>;
}

/** A station page fed by system state: the shell, its status badges, the stale banner, the body. */
export function StationPage(props: {
  title: string;
  badges: (s: SystemState) => ComponentChildren;
  children: (s: SystemState, zone: Zone) => ComponentChildren;
}) {
  const st = useStationState();
  const now = useNow();
  const s = st.data;
  return (
    <Shell title={props.title} status={s && <div class="row">{props.badges(s)}</div>}>
      <StaleBanner receivedAt={st.receivedAt} offline={st.offline} error={st.error} now={now} />
      {s && <div class="grid">{props.children(s, st.zone)}</div>}
    </Shell>
  );
}
