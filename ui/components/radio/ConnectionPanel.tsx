import { usePoll } from '../usePoll';
import { OutcomeLine, type Radio } from './useRadio';

/** Connection: the configured rig and device, connect/disconnect, and the ports this machine sees. */
export function ConnectionPanel({ r }: { r: Radio }) {
  const ports = usePoll<{ items: Array<{ device: string; description: string; hwid: string }> }>('/api/v1/radio/ports', 30_000);
  const s = r.state!;
  const rt = s.runtime;
  const caps = rt.capabilities;
  return (
    <section class="panel" aria-labelledby="rc">
      <h2 id="rc">Connection</h2>
      {rt.last_error && (
        <p class="banner bad" role="alert" data-last-error>
          {rt.last_error}
        </p>
      )}
      <dl class="kv">
        <dt>Rig</dt>
        <dd>
          {caps ? caps.radio : s.settings.rig_model} at {s.settings.civ_address}
          {caps && !caps.validated && <span class="badge warn" title={caps.validation_note}> not validated</span>}
        </dd>
        <dt>Device</dt>
        <dd class="num">{s.settings.serial_device || <span class="bad">none set (Settings → Radio)</span>}</dd>
        <dt>Speed</dt>
        <dd class="num">{s.settings.baud_rate} baud</dd>
      </dl>
      {!s.settings.enabled && <p class="warn">Radio control is disabled in Settings → Radio.</p>}
      <div class="row">
        {rt.connected ? (
          <button type="button" disabled={r.busy !== null} onClick={() => r.act('conn', '/disconnect', {}, 'disconnected')}>
            Disconnect
          </button>
        ) : (
          <button type="button" class="primary" disabled={r.busy !== null} onClick={() => r.act('conn', '/connect', {}, 'connected')}>
            Connect
          </button>
        )}
      </div>
      <OutcomeLine o={r.outcome.conn} name="conn" />
      <details>
        <summary>Serial ports found ({ports.data?.items.length ?? '…'})</summary>
        {ports.data && ports.data.items.length === 0 && <p class="muted">None listed; control may still work on the configured device.</p>}
        <ul class="radio-ports">
          {ports.data?.items.map((p) => (
            <li key={p.device}>
              <code>{p.device}</code> <span class="muted">{p.description}</span>
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
}
