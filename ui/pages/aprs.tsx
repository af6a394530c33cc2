import { KeyValues } from '../components/KeyValues';
import { ConnectionBadge, StationPage } from '../components/StationPage';
import { StatusBadge } from '../components/StatusBadge';
import { mount } from '../components/mount';

// The APRS station as the API reports it today (identity, runtime, transmit gate, settings);
// the APRS issue adds connect, send, log and its settings section to this page.

const SECRETS = ['passcode', 'wifi_password'];

function Page() {
  return (
    <StationPage
      title="APRS"
      badges={(s) => [
        <ConnectionBadge key="c" runtime={s.aprsRuntime} />,
        <StatusBadge key="t" tone={s.aprsPreviewTarget.can_transmit ? 'ok' : 'bad'}>
          {s.aprsPreviewTarget.can_transmit ? 'can transmit' : 'transmit blocked'}
        </StatusBadge>,
      ]}
    >
      {(s, zone) => {
        const rt = s.aprsRuntime;
        const target = s.aprsPreviewTarget;
        const id = s.stationIdentity;
        return [
          <section class="panel" aria-labelledby="id" key="id">
            <h2 id="id">Station</h2>
            <p class="row">
              <StatusBadge tone={id.valid ? 'ok' : 'bad'}>{id.valid ? id.callsign : 'no valid callsign'}</StatusBadge>
              <StatusBadge tone="idle">{s.aprsSettings.listen_only ? 'listen only' : 'may transmit'}</StatusBadge>
              <StatusBadge tone="idle">{s.aprsSettings.operating_mode}</StatusBadge>
            </p>
            {!id.valid && id.reason && <p class="bad">Callsign: {id.reason}</p>}
          </section>,
          <section class="panel" aria-labelledby="tg" key="tg">
            <h2 id="tg">Target and transmit gate</h2>
            {!target.can_transmit && (
              <p class="bad" data-block-reason>
                Transmit blocked: {target.tx_block_reason}
              </p>
            )}
            <KeyValues data={target} zone={zone} hide={['guidance']} />
          </section>,
          <section class="panel" aria-labelledby="rt" key="rt">
            <h2 id="rt">Runtime</h2>
            {rt.last_error && <p class="bad">Last error: {rt.last_error}</p>}
            <KeyValues data={rt} zone={zone} hide={['target', 'recent_packets', 'heard_stations', 'output_tail']} />
          </section>,
          <section class="panel" aria-labelledby="se" key="se">
            <h2 id="se">Settings</h2>
            <KeyValues data={s.aprsSettings} zone={zone} secret={SECRETS} />
          </section>,
        ];
      }}
    </StationPage>
  );
}

mount(Page);
