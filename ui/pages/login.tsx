import { useState } from 'preact/hooks';
import { Shell } from '../components/Shell';
import { mount } from '../components/mount';
import { ApiError, errorText, postJson } from '../lib/api';
import { LockBadge, useAccess } from '../components/settings/AccessSection';

// The small sign-in page of a locked station: the operator token in, an HttpOnly cookie out,
// then back to the page that sent us here (same-site paths only).

function nextPath(): string {
  const n = new URLSearchParams(location.search).get('next') ?? '/';
  return n.startsWith('/') && !n.startsWith('//') ? n : '/';
}

function Page() {
  const access = useAccess();
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const a = access.data;
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await postJson('/api/v1/access/login', { token });
      location.assign(nextPath());
    } catch (err) {
      setError(err instanceof ApiError && err.code === 'operator_token_invalid' ? 'Wrong operator token.' : errorText(err));
      setBusy(false);
    }
  };
  return (
    <Shell title="Sign in" status={<LockBadge access={a} />}>
      <section class="panel login">
        {a && !a.locked && (
          <p>
            This station is open: no sign-in is needed. Lock it under <a href="/settings#access" data-access-link>Settings → Operator access</a>.
          </p>
        )}
        {a?.locked && a.authorized && (
          <p>
            This browser is signed in. <a href={nextPath()}>Go on</a>
          </p>
        )}
        {(!a || (a.locked && !a.authorized)) && (
          <form onSubmit={submit}>
            <label class="field">
              <span>Operator token</span>
              <input type="password" name="token" autocomplete="current-password" required autofocus value={token} onInput={(e) => setToken((e.target as HTMLInputElement).value)} />
            </label>
            <button type="submit" disabled={busy || token === ''}>
              Sign in
            </button>
            {error && (
              <p class="outcome bad" role="alert" data-outcome="login">
                ✗ {error}
              </p>
            )}
          </form>
        )}
      </section>
    </Shell>
  );
}

mount(Page);
