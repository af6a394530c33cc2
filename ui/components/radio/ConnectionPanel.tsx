import { StatusBadge } from '../StatusBadge';
import { usePoll } from '../usePoll';
import type { Radio } from './useRadio';

const RIG_NAMES: Record<string, string> = { rigA: 'Icom IC-705', rigB: 'Icom IC-9700' };

interface Port {
  device: string;
  description: string;
  hwid: string;
}

/**
 * The configured rig and how it is reached (USB: the device and its speed; Wi-Fi: the radio's
 * address and user, never the password), whether this rig's control is validated on a real
 * radio, and, for USB, the serial ports this machine sees (the configured one marked).
 */
export function ConnectionPanel({ r }: { r: Radio }) {
  const s = r.state!;
  const wifi = s.settings.transport === 'wifi';
  // The serial port list means nothing to a rig on Wi-Fi: not polled then.
  const ports = usePoll<{ items: Port[] }>(wifi ? null : '/api/v1/radio/ports', 30_000);
  const caps = s.runtime.capabilities;
  const device = s.settings.serial_device;
  const list = ports.data?.items ?? [];
  const listed = list.some((p) => p.device === device);
  const none = <span class="bad">none set</span>;
  return (
    <section class="panel" aria-labelledby="rc">
      <h2 id="rc">Connection</h2>
      <dl class="kv">
        <dt>Rig</dt>
        <dd>
          {caps?.radio ?? RIG_NAMES[s.settings.rig_model] ?? s.settings.rig_model} <span class="num muted">CI-V {s.settings.civ_address}</span>
        </dd>
        <dt>Transport</dt>
        <dd data-transport={s.settings.transport}>
          {wifi ? 'Wi-Fi' : 'USB'} <span class="muted">{wifi ? 'Icom network protocol' : 'CI-V over serial'}</span>
        </dd>
        {wifi ? (
          <>
            <dt>Radio</dt>
            <dd class="num" data-endpoint>
              {s.settings.wifi_host ? `${s.settings.wifi_host.includes(':') ? `[${s.settings.wifi_host}]` : s.settings.wifi_host}:${s.settings.wifi_control_port}` : none}
            </dd>
            <dt>User</dt>
            <dd>{s.settings.wifi_username || none}</dd>
          </>
        ) : (
          <>
            <dt>Device</dt>
            <dd class="num" data-device>
              {device || none}
            </dd>
            <dt>Speed</dt>
            <dd class="num">{s.settings.baud_rate} baud</dd>
          </>
        )}
      </dl>
      {caps && !caps.validated && (
        <p class="warn" data-unvalidated>
          <StatusBadge tone="warn">not validated</StatusBadge> {caps.radio}: {caps.validation_note}. Check every write on the rig itself.
        </p>
      )}
      {caps?.validated && <p class="muted">{caps.validation_note}</p>}
      {!wifi && ports.data && device && !listed && <p class="muted">{device} is not among the ports found (a link or a by-id name may still work).</p>}
      {!wifi && (
        <details>
          <summary>
            Serial ports found <span class="num">({ports.data ? list.length : '…'})</span>
          </summary>
          {ports.error && <p class="bad">{ports.error}</p>}
          {ports.data && list.length === 0 && <p class="muted">None listed; control may still work on the configured device.</p>}
          <ul class="radio-ports">
            {list.map((p) => (
              <li key={p.device} data-port={p.device}>
                <code>{p.device}</code>
                {p.device === device && <strong> (configured)</strong>} <span class="muted">{p.description || p.hwid}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
      <p>
        <a href="/settings#radio" class="btn">
          Radio settings
        </a>
      </p>
    </section>
  );
}
