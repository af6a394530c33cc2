import { StatusBadge } from '../StatusBadge';
import { live, type Aprs } from './useAprs';

interface EstopAnswer {
  ok: true;
  rig_ptt_dropped: boolean | null;
}

const estopText = (a: EstopAnswer) =>
  'transmit stopped, TNC killed' + (a.rig_ptt_dropped === null ? ' (rig not connected)' : a.rig_ptt_dropped ? ', rig PTT dropped' : ': the rig did NOT confirm PTT off, check the radio');

/**
 * The line that stays on screen (sticky): connected or not, can transmit or not, connect or
 * disconnect, and while the transport is up the emergency stop: one tap, no confirm. Their
 * outcomes show under the bar (the page's), so the bar keeps its height.
 */
export function AprsBar({ a }: { a: Aprs }) {
  const s = a.state!;
  const rt = s.runtime;
  const t = s.previewTarget;
  // While a connect runs the TNC may already be keying: the stop shows from the first press.
  const up = live(rt) || a.busy === 'conn';
  const busy = a.busy !== null;
  // The connection only: an error is the banner's to say (once), not also this badge's.
  const conn = rt.connected ? (rt.kiss_connected ? 'connected' : 'TNC link down') : 'not connected';
  return (
    <div class="aprs-bar" data-aprs-bar>
      <div class="row aprs-bar-state">
        <StatusBadge tone={rt.connected && !rt.kiss_connected ? 'bad' : rt.connected ? 'ok' : 'idle'}>
          <span data-connection>{conn}</span>
        </StatusBadge>
        <StatusBadge tone={t.can_transmit ? 'ok' : 'bad'}>
          <span data-can-transmit={t.can_transmit}>{t.can_transmit ? 'can transmit' : 'TX blocked'}</span>
        </StatusBadge>
      </div>
      <div class="row aprs-bar-actions">
        {rt.connected ? (
          <button type="button" disabled={busy} onClick={() => (a.forget('estop'), a.act('conn', '/disconnect', {}, 'disconnected'))}>
            Disconnect
          </button>
        ) : (
          <button type="button" class="primary" disabled={busy} onClick={() => (a.forget('estop'), a.act('conn', '/connect', {}, 'connected'))}>
            Connect
          </button>
        )}
        {up && (
          // Never disabled by another action in flight: stopping transmit must always be possible.
          <button type="button" class="aprs-estop" data-estop onClick={() => (a.forget('conn', 'send'), a.act<EstopAnswer>('estop', '/emergency-stop', {}, estopText))}>
            Emergency stop
          </button>
        )}
      </div>
    </div>
  );
}
