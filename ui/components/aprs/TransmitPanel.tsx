import { useState } from 'preact/hooks';
import { age, clock, countdown, day, zoneLabel, type Zone } from '../../lib/time';
import { localTimes, mhz, OutcomeLine, type Aprs, type AprsTarget } from './useAprs';

type Kind = 'status' | 'message' | 'position';
const KINDS: Array<[Kind, string]> = [
  ['status', 'Status'],
  ['message', 'Message'],
  ['position', 'Position'],
];
/** The API's limits (schemas.ts): a message text 67, a status 62, a position comment 43. */
const MAX = { message: 67, status: 62, position: 43 } as const;

interface SendAnswer {
  sent: boolean;
  tx_block_reason: string | null;
  packet_type: string;
  raw_tnc2: string | null;
}

/** A blocked send is a 200 with sent false: it reads as a failure, with the reason. */
const sendText = (zone: Zone) => (a: SendAnswer) =>
  a.sent ? { ok: true, text: `${a.packet_type} sent: ${a.raw_tnc2 ?? ''}` } : { ok: false, text: `not sent: ${localTimes(a.tx_block_reason ?? 'blocked', zone)}`, code: 'blocked' };

/** Where the satellite is: in pass (LOS in), AOS at a local time with a countdown, or no pass. */
export function PassLine(props: { t: AprsTarget; now: number; zone: Zone }) {
  const { t, now, zone } = props;
  if (!t.requires_pass) return null;
  const aos = t.pass_aos ? Date.parse(t.pass_aos) : null;
  const los = t.pass_los ? Date.parse(t.pass_los) : null;
  if (aos === null || los === null) return <p class="bad" data-pass-line>No pass in the prediction horizon.</p>;
  if (now >= aos && now < los) {
    return (
      <p class="aprs-pass num ok" data-pass-line>
        In pass · LOS {clock(los, zone)} in {countdown(los - now)}
      </p>
    );
  }
  if (now >= los) return <p class="muted" data-pass-line>Pass over: the next one shows at the next update.</p>;
  const soon = aos - now < 600_000;
  return (
    <p class={`aprs-pass num ${soon ? 'warn' : ''}`} data-pass-line data-aos={t.pass_aos}>
      AOS {day(aos, zone)} {clock(aos, zone)} {zoneLabel(zone)} · in {countdown(aos - now)}
    </p>
  );
}

/**
 * Transmit: the target, whether it may transmit now and why not, when the pass or the flood
 * guard opens it, and the send form (status, message, position). Send is enabled only where the
 * server would send; a send the server still blocks says why.
 */
export function TransmitPanel({ a, now, zone }: { a: Aprs; now: number; zone: Zone }) {
  const s = a.state!;
  const rt = s.runtime;
  const t = s.previewTarget;
  const [kind, setKind] = useState<Kind>('status');
  const [to, setTo] = useState('');
  const [text, setText] = useState('');
  const [comment, setComment] = useState('');
  const nextAt = rt.next_tx_allowed_at ? Date.parse(rt.next_tx_allowed_at) : 0;
  const flood = nextAt > now;
  const why = !t.can_transmit ? null : !rt.connected ? 'Connect to send.' : !rt.kiss_connected ? 'The TNC link is down: nothing can be sent.' : null;
  const off = a.busy !== null || !t.can_transmit || !rt.connected || !rt.kiss_connected || flood;
  const value = kind === 'position' ? comment : text;
  const setValue = kind === 'position' ? setComment : setText;
  const missing = kind === 'position' ? false : text.trim() === '' || (kind === 'message' && to.trim() === '');
  const submit = (e: Event) => {
    e.preventDefault();
    const body = kind === 'message' ? { to: to.trim().toUpperCase(), text } : kind === 'status' ? { text } : comment.trim() ? { comment } : {};
    void a.act<SendAnswer>('send', `/send/${kind}`, body, sendText(zone));
  };
  const lastTx = rt.last_tx_at ? Date.parse(rt.last_tx_at) : null;
  return (
    <section class="panel aprs-tx" aria-labelledby="at">
      <h2 id="at">Transmit</h2>
      <p class="aprs-target" data-target-label>
        <strong>{t.operating_mode === 'terrestrial' ? `Terrestrial ${mhz(t.corrected_frequency_hz ?? t.frequency_hz)} MHz` : (t.sat_name ?? t.sat_id ?? 'Satellite')}</strong>{' '}
        <span class="muted">{t.operating_mode === 'terrestrial' ? t.region_label ?? t.reason : t.channel_label ?? t.reason}</span>
      </p>
      {t.requires_pass && t.corrected_uplink_hz !== null && (
        <p class="num aprs-freqs" data-freqs>
          ↑ {mhz(t.corrected_uplink_hz)} ↓ {mhz(t.corrected_downlink_hz)} MHz FM
          {t.retune_active && <span class="ok"> · rig following Doppler</span>}
        </p>
      )}
      {t.can_transmit ? (
        <p class="aprs-gate ok" data-gate="open">
          ✓ Can transmit on this target
        </p>
      ) : (
        <p class="aprs-gate bad" data-gate="blocked" data-block-reason>
          ✗ Transmit blocked: {localTimes(t.tx_block_reason ?? 'no reason given', zone)}
        </p>
      )}
      <PassLine t={t} now={now} zone={zone} />
      {flood && (
        <p class="warn num" data-next-tx>
          Flood guard: next send at {clock(nextAt, zone, true)} · in {countdown(nextAt - now)}
        </p>
      )}
      {why && (
        <p class="muted" data-send-hint>
          {why}
        </p>
      )}
      <form class="aprs-send" onSubmit={submit} aria-label="Send">
        <div class="aprs-kinds" role="radiogroup" aria-label="What to send">
          {KINDS.map(([k, label]) => (
            <label key={k} class={kind === k ? 'chosen' : ''}>
              <input type="radio" name="aprs-kind" value={k} checked={kind === k} onChange={() => setKind(k)} /> {label}
            </label>
          ))}
        </div>
        {kind === 'message' && (
          <div class="aprs-field">
            <label for="aprs-to">To</label>
            <input id="aprs-to" class="aprs-call" autoComplete="off" autoCapitalize="characters" spellcheck={false} maxLength={9} placeholder="callsign-SSID" value={to} onInput={(e) => setTo((e.target as HTMLInputElement).value)} />
          </div>
        )}
        <div class="aprs-field">
          <label for="aprs-text">{kind === 'position' ? 'Comment' : 'Text'}</label>
          <input
            id="aprs-text"
            autoComplete="off"
            maxLength={MAX[kind]}
            placeholder={kind === 'position' ? 'empty: the beacon comment from settings' : ''}
            value={value}
            aria-describedby="aprs-count"
            onInput={(e) => setValue((e.target as HTMLInputElement).value)}
          />
          <span id="aprs-count" class="muted num">
            {value.length}/{MAX[kind]}
          </span>
        </div>
        <button type="submit" class="primary" disabled={off || missing}>
          Send {kind}
        </button>
      </form>
      <OutcomeLine o={a.outcome.send} name="send" />
      {lastTx !== null && (
        <p class="muted aprs-last-tx" data-last-tx>
          Last sent {age(now - lastTx)} ago: {rt.last_tx_packet_type} <code>{rt.last_tx_raw_tnc2}</code>
        </p>
      )}
    </section>
  );
}
