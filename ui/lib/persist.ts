// Per-device memory (night mode, the last answer of each poll) in localStorage; a browser
// that refuses storage (private mode, quota) simply forgets.

const PREFIX = 'satstation:';

export function load<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(PREFIX + key);
    return raw === null ? null : (JSON.parse(raw) as T);
  } catch {
    return null;
  }
}

export function save(key: string, value: unknown): void {
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    /* storage full or refused: nothing to keep */
  }
}
