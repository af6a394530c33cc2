import { useState } from 'preact/hooks';
import { StatusBadge } from '../StatusBadge';
import { usePoll } from '../usePoll';
import { OutcomeLine, useActions } from '../useActions';

// The operator lock (/api/v1/access): whether the station is locked, by what, whether this
// browser is signed in, and the controls that fit: lock when open; change the token, unlock and
// sign out when signed in; a sign-in link otherwise.

export interface AccessState {
  locked: boolean;
  source: 'off' | 'setting' | 'environment';
  authorized: boolean;
}

export const useAccess = () => usePoll<AccessState>('/api/v1/access', 30_000, undefined, { on: ['system'] });

/** "Locked" / "Open" for a page's header: the one word that says whether the LAN can key the rig. */
export function LockBadge(props: { access: AccessState | null }) {
  const a = props.access;
  if (!a) return null;
  return (
    <span data-lock-badge={a.locked ? 'locked' : 'open'}>
      <StatusBadge tone={a.locked ? 'ok' : 'warn'} title={a.locked ? 'changes need the operator token' : 'anyone on this network can change settings and transmit'}>
        {a.locked ? (a.authorized ? 'locked · signed in' : 'locked') : 'open'}
      </StatusBadge>
    </span>
  );
}

export function AccessSection(props: { access: ReturnType<typeof useAccess> }) {
  const a = props.access.data;
  const { busy, outcome, act } = useActions('/api/v1/access', () => props.access.refresh());
  const [token, setToken] = useState('');
  if (!a) return <p class="muted">Reading the lock…</p>;
  const submit = (body: unknown, done: string) => (e: Event) => {
    e.preventDefault();
    void act('lock', '', body, done).then((r) => r && setToken(''));
  };
  const tokenField = (label: string) => (
    <label class="field">
      <span>{label}</span>
      <input type="password" autocomplete="new-password" minLength={8} maxLength={256} required value={token} onInput={(e) => setToken((e.target as HTMLInputElement).value)} />
      <span class="help muted">At least 8 characters. Scripts send it as <code>Authorization: Bearer …</code>; browsers sign in at /login.</span>
    </label>
  );
  return (
    <div data-access={a.locked ? 'locked' : 'open'}>
      {/* Locked or open is the page's header badge: said once. */}
      <p>
        {a.locked
          ? 'Changes, rig control and transmitting need the operator token. Every page stays readable, and emergency stop always works.'
          : 'Anyone who can reach this appliance can change settings, retune the rig and transmit.'}
      </p>
      {a.source === 'environment' && <p class="muted">Locked by OPERATOR_TOKEN in the service environment (/etc/default/satstation); change it there.</p>}
      {!a.locked && (
        <form onSubmit={submit({ locked: true, token }, 'locked; this browser is signed in')}>
          {tokenField('Operator token')}
          <button type="submit" disabled={busy !== null}>
            Lock the station
          </button>
        </form>
      )}
      {a.locked && !a.authorized && (
        <p>
          <a class="btn" href="/login?next=/settings">
            Sign in
          </a>
        </p>
      )}
      {a.locked && a.authorized && a.source === 'setting' && (
        <form onSubmit={submit({ locked: true, token }, 'token changed; other browsers are signed out')}>
          {tokenField('New operator token')}
          <div class="row">
            <button type="submit" disabled={busy !== null}>
              Change token
            </button>
            <button type="button" disabled={busy !== null} onClick={() => void act('lock', '', { locked: false }, 'unlocked')}>
              Unlock
            </button>
          </div>
        </form>
      )}
      {a.locked && a.authorized && (
        <p>
          <button type="button" disabled={busy !== null} onClick={() => void act('lock', '/logout', {}, 'signed out')}>
            Sign out
          </button>
        </p>
      )}
      <OutcomeLine o={outcome.lock} name="access" />
    </div>
  );
}
