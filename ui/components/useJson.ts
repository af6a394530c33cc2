import { useEffect, useState } from 'preact/hooks';

/** Polls a JSON route; the appliance has no push events (spec part 6). */
export function useJson<T>(url: string, intervalMs = 0): { data: T | null; error: string | null } {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let alive = true;
    const load = async () => {
      try {
        const res = await fetch(url, { headers: { accept: 'application/json' } });
        const body = await res.json();
        if (!alive) return;
        if (!res.ok) setError(body?.error?.message ?? `HTTP ${res.status}`);
        else {
          setData(body as T);
          setError(null);
        }
      } catch (err) {
        if (alive) setError(String(err));
      }
    };
    load();
    const t = intervalMs > 0 ? setInterval(load, intervalMs) : undefined;
    return () => {
      alive = false;
      if (t) clearInterval(t);
    };
  }, [url, intervalMs]);
  return { data, error };
}
