import { ResourceForm } from '../ResourceForm';
import { StatusBadge } from '../StatusBadge';
import { useNow } from '../useNow';
import { usePoll } from '../usePoll';
import type { FieldSpec } from '../../lib/schema-form';
import { age } from '../../lib/time';
import { exposureWarning, listenLine, recipes, type HamlibRuntime, type HamlibSettings } from '../../lib/hamlib';
import './hamlib.css';

// The Hamlib network servers (/api/v1/settings/hamlib, issue 26): rigctld and rotctld so
// gpredict, WSJT-X and the loggers can drive the station. Live status from system state (which
// server listens, who is connected), the exposure warning for a binding beyond the loopback
// (Hamlib has no authentication), and one line per client with this station's host and ports.

const FIELDS: FieldSpec[] = [
  { name: 'rigctld_enabled', label: 'rigctld (rig control)', help: 'A rigctld-compatible server: clients tune the rig through the station (a pass-pinned session keeps the rig).' },
  { name: 'rigctld_port', label: 'rigctld port', help: 'TCP port; Hamlib’s default is 4532.' },
  { name: 'rotctld_enabled', label: 'rotctld (rotator control)', help: 'A rotctld-compatible server for the antenna rotator, within its limits.' },
  { name: 'rotctld_port', label: 'rotctld port', help: 'TCP port; Hamlib’s default is 4533.' },
  { name: 'bind_host', label: 'Listen address', help: '127.0.0.1: only programs on this appliance. 0.0.0.0: every network interface (anyone who can reach it).' },
  { name: 'allow_ptt', label: 'Allow PTT from clients', help: 'Lets a client key the transmitter (T 1), still only where every other transmit rule allows it.' },
];

/** The blocks of system state this section reads. */
interface HamlibSystemState {
  hamlibSettings: HamlibSettings;
  hamlibRuntime: HamlibRuntime;
}

function Status(props: { s: HamlibSettings; rt: HamlibRuntime; now: number }) {
  const { s, rt, now } = props;
  return (
    <div data-hamlib-status>
      <p class="row">
        {(['rigctld', 'rotctld'] as const).map((server) => {
          const l = listenLine(server, s, rt);
          return (
            <span key={server} data-hamlib-listen={server}>
              <StatusBadge tone={l.tone}>{l.text}</StatusBadge>
            </span>
          );
        })}
      </p>
      <p data-hamlib-clients>
        {rt.clients === 0 ? 'No clients connected.' : `${rt.clients} client${rt.clients === 1 ? '' : 's'} connected:`}
      </p>
      {rt.connections.length > 0 && (
        <ul class="hamlib-conns">
          {rt.connections.map((c) => (
            <li key={`${c.server} ${c.remote}`} data-hamlib-connection={c.remote}>
              {c.server} <span class="num">{c.remote}</span> <span class="muted">· for {age(Math.max(0, now - Date.parse(c.connected_at)))}</span>
            </li>
          ))}
        </ul>
      )}
      {rt.last_error && (
        <p class="bad" data-hamlib-error>
          Last Hamlib error: {rt.last_error}
        </p>
      )}
    </div>
  );
}

function Recipes(props: { s: HamlibSettings }) {
  const list = recipes(props.s, location.hostname);
  const on = { rigctld: props.s.rigctld_enabled, rotctld: props.s.rotctld_enabled };
  return (
    <>
      <h3>Connecting a client</h3>
      <ul class="hamlib-recipes">
        {list.map((r) => (
          <li key={r.id} data-hamlib-recipe={r.id}>
            <b>{r.client}:</b> <code>{r.text}</code>
            {!on[r.server] && <span class="muted"> ({r.server} is off)</span>}
          </li>
        ))}
      </ul>
    </>
  );
}

export function HamlibSection() {
  const st = usePoll<HamlibSystemState>('/api/v1/system/state', 5000, undefined, { topic: 'system' });
  const now = useNow();
  const s = st.data?.hamlibSettings;
  const rt = st.data?.hamlibRuntime;
  const warning = s ? exposureWarning(s) : null;
  return (
    <>
      {warning && (
        <p class="banner bad" role="alert" data-hamlib-warning>
          {warning}
        </p>
      )}
      {s && rt && <Status s={s} rt={rt} now={now} />}
      {/* The warning, status and recipes follow what is saved: a save reads system state again at once. */}
      <ResourceForm path="/api/v1/settings/hamlib" title="Servers" fields={FIELDS} onSaved={() => st.refresh()} />
      {s && <Recipes s={s} />}
    </>
  );
}
