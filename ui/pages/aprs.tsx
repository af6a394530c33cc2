import { useZone } from '../components/settings/useZone';
import { prefetch } from '../lib/api';
import { Shell } from '../components/Shell';
import { StaleBanner, Waiting } from '../components/StaleBanner';
import { mount } from '../components/mount';
import { useNow } from '../components/useNow';
import { STATE_URL, OutcomeLine, useAprs } from '../components/aprs/useAprs';
import { AprsBar } from '../components/aprs/AprsBar';
import { ErrorBanner } from '../components/aprs/ErrorBanner';
import { TransmitPanel } from '../components/aprs/TransmitPanel';
import { TargetPanel } from '../components/aprs/TargetPanel';
import { StationPanel } from '../components/aprs/StationPanel';
import { HeardPanel, PacketsPanel } from '../components/aprs/PacketsPanel';
import { LogPanel } from '../components/aprs/LogPanel';
import { ServicesPanel, TncPanel } from '../components/aprs/TncPanel';
import './aprs.css';

// The APRS station: a bar that stays on screen (connected, can transmit, connect/disconnect,
// emergency stop), then transmit (gate, pass, flood guard, send), packets, target, station
// identity, heard stations, digipeater/iGate, the stored log and the TNC. Everything comes from
// /api/v1/aprs/state (pushed on the live socket; read every 1.5 s while it is down and the page
// is visible) and its POST routes.

function Page() {
  const a = useAprs();
  const now = useNow();
  const zone = useZone();
  const s = a.state;
  if (!s) {
    return (
      <Shell title="APRS">
        <Waiting class="aprs-wait" poll={a.poll} now={now} />
      </Shell>
    );
  }
  const rt = s.runtime;
  return (
    <Shell title="APRS">
      <AprsBar a={a} />
      <StaleBanner receivedAt={a.poll.receivedAt} offline={a.poll.offline} error={a.poll.error} now={now} />
      {/* A failed connect whose cause the runtime reports is the banner's to say: not also a ✗ line. */}
      {!(a.outcome.conn && !a.outcome.conn.ok && rt.last_error) && <OutcomeLine o={a.outcome.conn} name="conn" />}
      <OutcomeLine o={a.outcome.estop} name="estop" />
      {rt.emergency_stopped && (
        <div class="banner bad" role="alert" data-estopped>
          EMERGENCY STOP: transmit stopped; sends stay blocked until the next Connect.
        </div>
      )}
      {rt.last_error && <ErrorBanner rt={rt} />}
      <div class="grid aprs-grid">
        <TransmitPanel a={a} now={now} zone={zone} />
        <PacketsPanel a={a} now={now} zone={zone} />
        <TargetPanel a={a} now={now} zone={zone} />
        <StationPanel a={a} />
        <HeardPanel a={a} now={now} />
        <ServicesPanel a={a} />
        <LogPanel a={a} zone={zone} />
        <TncPanel a={a} now={now} />
      </div>
    </Shell>
  );
}

mount(Page, prefetch(STATE_URL));
