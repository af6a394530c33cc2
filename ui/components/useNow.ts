import { useEffect, useState } from 'preact/hooks';

// One ticker per page, on the whole second: every countdown and age shares it, so a page
// does one render per second between polls and nothing else (no animation loop).

const listeners = new Set<(now: number) => void>();
let timer: ReturnType<typeof setTimeout> | undefined;

function tick() {
  const now = Date.now();
  listeners.forEach((l) => l(now));
  timer = setTimeout(tick, 1000 - (Date.now() % 1000) + 5);
}

/** The current time in ms, updated once a second. */
export function useNow(): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    listeners.add(setNow);
    if (listeners.size === 1) timer = setTimeout(tick, 1000 - (Date.now() % 1000) + 5);
    return () => {
      listeners.delete(setNow);
      if (listeners.size === 0) clearTimeout(timer);
    };
  }, []);
  return now;
}
