import { StatusBadge } from '../StatusBadge';
import { usePoll } from '../usePoll';
import type { Radio } from './useRadio';
import type { RigLink } from '../../../src/radio/settings';

interface Port {
  device: string;
  description: string;
  hwid: string;
}

const YAESU = ['ft817', 'ft818', 'ft857', 'ft897'];

/** How a link reaches its radio, in words: the IC-705's LAN session, a serial port, or Hamlib's rigctld (run here or the operator's). */
function transportWords(l: RigLink): { kind: 'wifi' | 'usb' | 'rigctld'; name: string; how: string } {
  if (l.rig_model === 'hamlib') return l.hamlib_address ? { kind: 'rigctld', name: 'Hamlib', how: 'a rigctld you run' } : { kind: 'usb', name: 'USB', how: `Hamlib's rigctld run here (model ${l.hamlib_model || 'not set'})` };
  if (l.rig_model === 'rigA' && l.transport === 'wifi') return { kind: 'wifi', name: 'Wi-Fi', how: 'Icom network protocol' };
  return { kind: 'usb', name: 'USB', how: YAESU.includes(l.rig_model) ? '5-byte CAT over serial' : 'CI-V over serial' };
}

/** The serial device a link opens, or null (Wi-Fi, a rigctld the operator runs). */
const serialOf = (l: RigLink): string | null => (transportWords(l).kind === 'usb' ? l.serial_device : null);

const none = <span class="bad">none set</span>;

/** One radio's link: its name, how it is reached and where (never the Wi-Fi password). */
function LinkRows(props: { name: string; link: RigLink; leg?: 'downlink' | 'uplink' }) {
  const l = props.link;
  const t = transportWords(l);
  const icom = l.rig_model === 'rigA' || l.rig_model === 'rigB';
  return (
    <dl class="kv" data-link={props.leg}>
      <dt>Rig</dt>
      <dd>
        {props.name} {icom && <span class="num muted">CI-V {l.civ_address}</span>}
      </dd>
      <dt>Transport</dt>
      <dd data-transport={l.transport}>
        {t.name} <span class="muted">{t.how}</span>
      </dd>
      {t.kind === 'wifi' && (
        <>
          <dt>Radio</dt>
          <dd class="num" data-endpoint>
            {l.wifi_host ? `${l.wifi_host.includes(':') ? `[${l.wifi_host}]` : l.wifi_host}:${l.wifi_control_port}` : none}
          </dd>
          <dt>User</dt>
          <dd>{l.wifi_username || none}</dd>
        </>
      )}
      {t.kind === 'rigctld' && (
        <>
          <dt>rigctld</dt>
          <dd class="num" data-endpoint>
            {l.hamlib_address}
          </dd>
        </>
      )}
      {t.kind === 'usb' && (
        <>
          <dt>Device</dt>
          <dd class="num" data-device>
            {l.serial_device || none}
          </dd>
          <dt>Speed</dt>
          <dd class="num">{l.baud_rate} baud</dd>
        </>
      )}
    </dl>
  );
}

/**
 * The configured radios and how each is reached (USB: the device and its speed; Wi-Fi: the
 * radio's address and user, never the password; Hamlib: rigctld here or the operator's), whether
 * control is validated on a real radio, and, when a radio is on a serial port, the ports this
 * machine sees (the configured ones marked). Two radios: the downlink radio's link, then the
 * uplink radio's.
 */
/** What of the radio topic's data the port list follows. */
interface RadioStateKey {
  settings: unknown;
  runtime: { connected: boolean };
}

export function ConnectionPanel({ r }: { r: Radio }) {
  const s = r.state!;
  const rt = s.runtime;
  const main: RigLink = s.settings;
  const up = s.settings.uplink_rig;
  const devices = new Map<string, string>();
  for (const [link, leg] of [
    [main, 'downlink'],
    [up, 'uplink'],
  ] as const) {
    const d = link && serialOf(link);
    if (d) devices.set(d, up ? `configured: ${leg}` : 'configured');
  }
  const serial = serialOf(main) !== null || (up !== null && serialOf(up) !== null);
  // The serial port list means nothing to radios on Wi-Fi or behind another rigctld: not polled then.
  const ports = usePoll<{ items: Port[] }>(serial ? '/api/v1/radio/ports' : null, 30_000, undefined, {
    on: ['radio'],
    // A rig's every poll is no news to the port list; its settings and its connection are.
    key: (_t, d: RadioStateKey) => [d.settings, d.runtime.connected],
  });
  const caps = rt.capabilities;
  const list = ports.data?.items ?? [];
  const unlisted = [...devices.keys()].filter((d) => !list.some((p) => p.device === d));
  return (
    <section class="panel" aria-labelledby="rc">
      <h2 id="rc">Connection</h2>
      {up ? (
        <>
          <h3>Downlink radio (receives)</h3>
          <LinkRows name={rt.legs.downlink.rig} link={main} leg="downlink" />
          <h3>Uplink radio (transmits)</h3>
          <LinkRows name={rt.legs.uplink?.rig ?? up.rig_model} link={up} leg="uplink" />
        </>
      ) : (
        <LinkRows name={caps?.radio ?? rt.legs.downlink.rig} link={main} />
      )}
      {caps && !caps.validated && (
        <p class="warn" data-unvalidated>
          <StatusBadge tone="warn">not validated</StatusBadge> {caps.radio}: {caps.validation_note}. Check every write on the rig itself.
        </p>
      )}
      {caps?.validated && <p class="muted">{caps.validation_note}</p>}
      {ports.data && unlisted.length > 0 && <p class="muted">{unlisted.join(', ')}: not among the ports found (a link or a by-id name may still work).</p>}
      {serial && (
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
                {devices.has(p.device) && <strong> ({devices.get(p.device)})</strong>} <span class="muted">{p.description || p.hwid}</span>
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
