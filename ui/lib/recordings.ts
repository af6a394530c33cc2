// Where a recording is found: its API addresses, and the page address that opens it (optionally
// at a moment), which the logbook's ▶ links and the recordings page both speak.

export const RECORDINGS_API = '/api/v1/recordings';

export const recordingApi = (id: string): string => `${RECORDINGS_API}/${encodeURIComponent(id)}`;
export const recordingAudio = (id: string): string => `${recordingApi(id)}/audio`;

/** `/recordings?id=<id>&t=<s>`: the recording opened, the player at `t` seconds (whole ones). */
export const recordingHref = (id: string, t?: number | null): string =>
  `/recordings?id=${encodeURIComponent(id)}${t != null ? `&t=${Math.max(0, Math.floor(t))}` : ''}`;

/** What the page's address asks for: `?id=` (or `#<id>`) and `?t=` seconds. */
export function recordingFromUrl(loc: Pick<Location, 'search' | 'hash'> = location): { id: string | null; t: number | null } {
  const q = new URLSearchParams(loc.search);
  const id = q.get('id') || decodeURIComponent(loc.hash.replace(/^#/, '')) || null;
  const t = q.get('t') === null ? NaN : Number(q.get('t'));
  return { id, t: Number.isFinite(t) && t >= 0 ? t : null };
}
