import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, errorText, postJson } from '../../lib/api';
import { age, countdown } from '../../lib/time';
import { StatusBadge, type Tone } from '../StatusBadge';
import { usePoll } from '../usePoll';
import { OutcomeLine, words, type Aprs, type AprsRuntime } from './useAprs';

interface TncStatus {
  installed: boolean;
  configuredBinary: string;
  resolvedBinary: string;
}

/** The sidecar badge: failing is never shown as running. */
const SIDECAR: Record<AprsRuntime['sidecar_state'], { tone: Tone; text: string }> = {
  running: { tone: 'ok', text: 'sidecar running' },
  starting: { tone: 'warn', text: 'sidecar starting' },
  failing: { tone: 'bad', text: 'sidecar failing' },
  stopped: { tone: 'idle', text: 'sidecar stopped' },
};

/** The install's output lines, from its answer or its error's details. */
const outputOf = (x: unknown): string[] => {
  const o = (x as { output?: unknown } | null)?.output;
  return Array.isArray(o) ? o.map(String) : [];
};

/**
 * The TNC: external KISS TNC or our Dire Wolf sidecar; for the sidecar, whether the program is
 * installed and the two ways to install it (here, through the privilege helper; or in a
 * terminal on the desktop, which may ask for a password). Its command line and output tail are
 * folded away.
 */
export function TncPanel({ a, now }: { a: Aprs; now: number }) {
  const s = a.state!;
  const rt = s.runtime;
  const external = s.settings.transport_mode === 'usb' && s.settings.kiss_host !== '';
  const st = usePoll<TncStatus>('/api/v1/aprs/tnc/status', 60_000, undefined, {
    on: ['aprs'],
    // Packets and counters are no news to the TNC's install and version; its settings and the sidecar's life are.
    key: (_t, d: { settings: unknown; runtime: { sidecar_state: string; sidecar_failures: number } }) => [d.settings, d.runtime.sidecar_state, d.runtime.sidecar_failures],
  });
  const [output, setOutput] = useState<string[]>([]);
  const install = async (path: string, key: string, done: (r: { terminal?: string; output?: string[] }) => string) => {
    try {
      const r = await postJson<{ terminal?: string; output?: string[] }>(`/api/v1/aprs${path}`, {});
      setOutput(outputOf(r));
      a.say(key, { ok: true, text: done(r) });
    } catch (e) {
      setOutput(e instanceof ApiError ? outputOf(e.details) : []);
      a.say(key, { ok: false, text: errorText(e), code: e instanceof ApiError ? e.code : undefined });
    } finally {
      st.refresh();
    }
  };
  const [busy, setBusy] = useState(false);
  const run = (path: string, key: string, done: (r: { terminal?: string }) => string) => async () => {
    setBusy(true);
    await install(path, key, done);
    setBusy(false);
  };
  const tnc = st.data;
  return (
    <section class="panel aprs-tnc" aria-labelledby="an">
      <h2 id="an">TNC</h2>
      <p class="row">
        {external ? (
          <StatusBadge tone="idle">external KISS TNC</StatusBadge>
        ) : (
          <StatusBadge tone={SIDECAR[rt.sidecar_state].tone}>
            <span data-sidecar={rt.sidecar_state}>{SIDECAR[rt.sidecar_state].text}</span>
          </StatusBadge>
        )}
        <StatusBadge tone={rt.kiss_connected ? 'ok' : rt.connected ? 'bad' : 'idle'}>
          <span data-kiss>{rt.kiss_connected ? 'KISS link up' : 'KISS link down'}</span>
        </StatusBadge>
      </p>
      {/* The problem and its fix are the error banner's at the top (said once); here, when it is tried again. */}
      {rt.sidecar_next_restart_at && !external && (
        <p class="warn num" data-tnc-retry>
          {rt.sidecar_failures > 1 ? `${rt.sidecar_failures} failures in a row; ` : ''}
          {Date.parse(rt.sidecar_next_restart_at) > now ? `next try in ${countdown(Date.parse(rt.sidecar_next_restart_at) - now)}` : 'trying again now'}
        </p>
      )}
      {external && (
        <p class="muted">
          Packets go through the TNC at <span class="num">{s.settings.kiss_host}:{s.settings.kiss_port}</span>; no sidecar is started.
        </p>
      )}
      {st.error && <p class="bad">TNC status: {st.error}</p>}
      {tnc && !external && (
        <p class={tnc.installed ? '' : 'bad'} data-tnc-installed={tnc.installed}>
          {tnc.installed ? (
            <>
              <code>{tnc.configuredBinary}</code> installed at <code>{tnc.resolvedBinary}</code>
            </>
          ) : (
            <>
              <code>{tnc.configuredBinary}</code> is not installed: connecting will fail until it is.
            </>
          )}
        </p>
      )}
      {tnc && !tnc.installed && !external && (
        <div class="row">
          <button type="button" disabled={busy} aria-busy={busy || undefined} onClick={run('/tnc/install', 'install', () => 'Dire Wolf installed')}>
            Install Dire Wolf
          </button>
          <button type="button" disabled={busy} onClick={run('/tnc/install-terminal', 'install', (r) => `a terminal (${r.terminal ?? 'terminal'}) runs the install: follow it there`)}>
            Install in a terminal
          </button>
        </div>
      )}
      <OutcomeLine o={a.outcome.install} name="install" />
      {output.length > 0 && (
        <details>
          <summary>Install output ({output.length} lines)</summary>
          <pre class="aprs-pre">{output.join('\n')}</pre>
        </details>
      )}
      {rt.last_started_at && <p class="muted num">Started {age(now - Date.parse(rt.last_started_at))} ago</p>}
      {rt.capabilities.length > 0 && <p class="muted">Can: {rt.capabilities.map(words).join(', ')}</p>}
      {rt.sidecar_command.length > 0 && (
        <details>
          <summary>Command line</summary>
          <pre class="aprs-pre">{rt.sidecar_command.join(' ')}</pre>
        </details>
      )}
      <details data-output-tail open={rt.sidecar_problem !== null || undefined}>
        <summary>
          TNC output <span class="num">({rt.output_tail.length} lines)</span>
        </summary>
        {rt.output_tail.length === 0 ? <p class="muted">No output yet.</p> : <OutputTail lines={rt.output_tail} />}
      </details>
    </section>
  );
}

/** The TNC's last lines in a bounded box, kept scrolled to the newest (where a failure is). */
function OutputTail({ lines }: { lines: string[] }) {
  const box = useRef<HTMLPreElement>(null);
  const text = lines.join('\n');
  useEffect(() => {
    const el = box.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [text]);
  return (
    <pre class="aprs-pre" ref={box}>
      {text}
    </pre>
  );
}

/** Digipeater and iGate: asked for or not, running or not, and why not, in one line each. */
export function ServicesPanel({ a }: { a: Aprs }) {
  const s = a.state!;
  const rt = s.runtime;
  const digi = s.settings.digipeater;
  const ig = s.settings.igate;
  const igOn = rt.igate_requested || rt.igate_auto_enabled;
  return (
    <section class="panel aprs-services" aria-labelledby="av">
      <h2 id="av">Digipeater and iGate</h2>
      <p data-digipeater>
        <StatusBadge tone={rt.digipeater_active ? 'ok' : rt.digipeater_requested ? 'bad' : 'idle'}>
          {rt.digipeater_active ? 'digipeater on' : rt.digipeater_requested ? 'digipeater not active' : 'digipeater off'}
        </StatusBadge>{' '}
        {rt.digipeater_active && (
          <span class="num">
            {digi.aliases.join(', ') || 'no alias'} · max {digi.max_hops} hops · {rt.packets_digipeated} repeated
          </span>
        )}
        {rt.digipeater_reason && <span class={rt.digipeater_requested ? 'bad' : 'muted'}> {rt.digipeater_reason}</span>}
      </p>
      <p data-igate>
        <StatusBadge tone={rt.igate_active && rt.igate_connected ? 'ok' : igOn ? (rt.igate_last_error ? 'bad' : 'warn') : 'idle'}>
          {igOn ? `iGate ${words(rt.igate_status)}` : 'iGate off'}
        </StatusBadge>{' '}
        {rt.igate_auto_enabled && <span class="muted">(auto: internet is up) </span>}
        {igOn && (
          <span class="num">
            {rt.igate_server ?? `${ig.server_host}:${ig.server_port}`}
            {rt.igate_connected ? ' · connected' : ''} · {rt.packets_igated} gated
          </span>
        )}
        {rt.igate_reason && <span class={igOn ? 'warn' : 'muted'}> {rt.igate_reason}</span>}
      </p>
      {rt.igate_last_error && (
        <p class="bad" data-igate-error>
          iGate error: {rt.igate_last_error}
        </p>
      )}
      <p>
        <a href="/settings#aprs" class="btn">
          Digipeater and iGate settings
        </a>
      </p>
    </section>
  );
}
