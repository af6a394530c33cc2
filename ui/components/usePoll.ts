import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, errorText, getJson, takePrefetched } from '../lib/api';
import { load, save } from '../lib/persist';

export interface Poll<T> {
  data: T | null;
  /** Epoch ms the shown data left the appliance (0 before any). */
  receivedAt: number;
  /** Why the last attempt failed, or null. */
  error: string | null;
  /** The appliance did not answer: what is shown is the last copy. */
  offline: boolean;
  /** Poll now (after a change the page made). */
  refresh(): void;
}

interface Kept<T> {
  data: T;
  receivedAt: number;
}

/**
 * Polls a JSON route (the appliance has no push events, spec part 6): one request in flight,
 * the next one `intervalMs` after the last answer, none while the page is hidden. With a
 * `persistKey` the last answer is kept on the device, so a reload while the appliance is
 * unreachable still shows it, with its age.
 */
export function usePoll<T>(url: string | null, intervalMs: number, persistKey?: string): Poll<T> {
  // A prefetched first answer counts as the first poll: the next waits its interval.
  const skipFirstTick = useRef(false);
  const [state, setState] = useState<Omit<Poll<T>, 'refresh'>>(() => {
    const first = url ? takePrefetched<T>(url) : null;
    if (first) {
      skipFirstTick.current = true;
      if (persistKey && !first.fromCache) save('last:' + persistKey, { data: first.data, receivedAt: first.receivedAt });
      return { data: first.data, receivedAt: first.receivedAt, error: first.fromCache ? 'the appliance did not answer' : null, offline: first.fromCache };
    }
    const kept = persistKey ? load<Kept<T>>('last:' + persistKey) : null;
    return { data: kept ? kept.data : null, receivedAt: kept?.receivedAt ?? 0, error: null, offline: false };
  });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const run = useRef<() => void>(() => {});

  useEffect(() => {
    if (!url) return;
    let alive = true;
    const schedule = () => {
      clearTimeout(timer.current);
      if (alive && intervalMs > 0) timer.current = setTimeout(tick, intervalMs);
    };
    const tick = async () => {
      if (document.hidden) return schedule();
      try {
        const a = await getJson<T>(url);
        if (!alive) return;
        setState({ data: a.data, receivedAt: a.receivedAt, error: a.fromCache ? 'the appliance did not answer' : null, offline: a.fromCache });
        if (persistKey && !a.fromCache) save('last:' + persistKey, { data: a.data, receivedAt: a.receivedAt });
      } catch (e) {
        if (!alive) return;
        const offline = e instanceof ApiError && e.status === 0;
        setState((s) => ({ ...s, error: errorText(e), offline }));
      }
      schedule();
    };
    run.current = () => {
      clearTimeout(timer.current);
      tick();
    };
    if (skipFirstTick.current) schedule();
    else tick();
    skipFirstTick.current = false;
    const onVisible = () => !document.hidden && run.current();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      alive = false;
      clearTimeout(timer.current);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [url, intervalMs, persistKey]);

  const refresh = useCallback(() => run.current(), []);
  return { ...state, refresh };
}
