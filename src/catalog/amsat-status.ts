// AMSAT Live OSCAR Satellite Status → per-name status, and name matching to catalog satellites
// (pure). Accepted, detected by content: summary.php / reports.php ({data: [...]}), the legacy
// sat_info.php array, and the status page HTML (cell colours). See ../shared/data/amsat-status.
import { compareText } from '../util/compare.js';
import type { AliasTable } from './sat-ids.js';
import type { OperationalStatus } from './types.js';

export type Report = 'Heard' | 'Telemetry Only' | 'Not Heard' | 'Crew Active';
const REPORTS: readonly string[] = ['Heard', 'Telemetry Only', 'Not Heard', 'Crew Active'];
const COLOURS: Record<string, Report> = { '648fff': 'Heard', ffb000: 'Telemetry Only', dc267f: 'Not Heard', '785ef0': 'Crew Active' };

/** The latest word on one AMSAT name ("AO-91_[FM]"). */
export interface NameStatus {
  name: string;
  report: Report | 'Conflicting';
  /** Reports behind it (0 when unknown, e.g. HTML cells). */
  count: number;
  latest: string | null;
}

const isReport = (x: unknown): x is Report => typeof x === 'string' && REPORTS.includes(x);

/** Parse any of the accepted formats; throws with a clear message on anything else. */
export function parseAmsatStatus(text: string): NameStatus[] {
  const t = text.trimStart();
  if (t.startsWith('<')) return parseStatusHtml(t);
  let data: unknown;
  try {
    data = JSON.parse(t);
  } catch {
    throw new Error('status source is neither JSON nor the status page HTML');
  }
  const rows = Array.isArray(data) ? data : (data as { data?: unknown })?.data;
  if (!Array.isArray(rows)) throw new Error('status JSON has no report array');
  const best = new Map<string, NameStatus>();
  for (const r of rows as Record<string, unknown>[]) {
    if (!r || typeof r.name !== 'string' || !isReport(r.report)) continue;
    // summary.php rows carry a count and their latest time; report rows count one each.
    const time = typeof r.latest_reported_time === 'string' ? r.latest_reported_time : typeof r.reported_time === 'string' ? r.reported_time : null;
    const count = typeof r.report_count === 'number' ? r.report_count : 1;
    const prev = best.get(r.name);
    if (!prev) {
      best.set(r.name, { name: r.name, report: r.report, count, latest: time });
      continue;
    }
    const total = prev.count + count;
    const newer = (time ?? '') > (prev.latest ?? '');
    best.set(r.name, newer ? { name: r.name, report: r.report, count: total, latest: time } : { ...prev, count: total });
  }
  return [...best.values()];
}

/** Status page: one row per name, newest cell first; the first coloured cell is the latest word. */
function parseStatusHtml(html: string): NameStatus[] {
  const out: NameStatus[] = [];
  const rowRe = /<tr[^>]*>([\s\S]*?)<\/tr>/gi;
  for (let m = rowRe.exec(html); m; m = rowRe.exec(html)) {
    const cells = [...m[1].matchAll(/<td([^>]*)>([\s\S]*?)<\/td>/gi)];
    if (cells.length < 2) continue;
    const name = cells[0][2].replace(/<[^>]+>/g, '').replace(/&nbsp;/g, ' ').trim();
    if (!/^[A-Za-z0-9]/.test(name)) continue;
    for (const c of cells.slice(1)) {
      const colour = /bgcolor="?#?([0-9a-f]{6})/i.exec(c[1])?.[1]?.toLowerCase();
      if (!colour || colour === 'c0c0c0') continue;
      const report = COLOURS[colour];
      if (colour === 'fe6100') out.push({ name, report: 'Conflicting', count: 0, latest: null });
      else if (report) out.push({ name, report, count: 0, latest: null });
      else continue;
      break;
    }
  }
  if (out.length === 0) throw new Error('status page HTML holds no satellite rows');
  return out;
}

const norm = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, '');
/** "AO-91_[FM]" / "ISS [FM]" → "AO-91". */
export const amsatBase = (name: string) => name.replace(/[_\s]*\[[^\]]*\]\s*$/, '').trim();

/** Lookup key → NORAD id from sat ids, names, designations and aliases; ambiguous keys are dropped. */
export function buildNameIndex(sats: readonly { norad_id: number; sat_id: string; name: string }[], aliases: AliasTable): Map<string, number> {
  const claims = new Map<string, Set<number>>();
  const claim = (key: string, norad: number) => {
    const k = norm(key);
    if (k.length < 3 && !/\d/.test(k)) return;
    if (!claims.has(k)) claims.set(k, new Set());
    claims.get(k)!.add(norad);
  };
  for (const s of sats) {
    claim(s.sat_id, s.norad_id);
    const names = [s.name, ...(aliases[String(s.norad_id)]?.names ?? [])];
    const des = aliases[String(s.norad_id)]?.designation;
    if (des) claim(des, s.norad_id);
    for (const n of names) {
      claim(n, s.norad_id);
      const outside = n.replace(/\([^)]*\)?/g, ' ').trim();
      if (outside) claim(outside, s.norad_id);
      for (const inner of n.matchAll(/\(([^)]+)\)/g)) claim(inner[1], s.norad_id);
    }
  }
  const index = new Map<string, number>();
  for (const [k, set] of claims) if (set.size === 1) index.set(k, [...set][0]);
  // sat ids are unique by construction: they win over any alias claim.
  for (const s of sats) index.set(norm(s.sat_id), s.norad_id);
  return index;
}

function describe(n: NameStatus): string {
  const mode = /\[([^\]]+)\]/.exec(n.name)?.[1];
  const detail = [n.count ? `${n.count} report${n.count === 1 ? '' : 's'}` : '', n.latest ? `latest ${n.latest}` : ''].filter(Boolean).join(', ');
  return `${mode ? mode + ': ' : ''}${n.report}${detail ? ` (${detail})` : ''}`;
}

/** Statuses per NORAD id; satellites no AMSAT name matched are absent (left empty). */
export function matchStatuses(statuses: readonly NameStatus[], index: ReadonlyMap<string, number>, source: string): Map<number, OperationalStatus> {
  const grouped = new Map<number, NameStatus[]>();
  for (const st of statuses) {
    const norad = index.get(norm(amsatBase(st.name))) ?? index.get(norm(st.name));
    if (norad === undefined) continue;
    if (!grouped.has(norad)) grouped.set(norad, []);
    grouped.get(norad)!.push(st);
  }
  const out = new Map<number, OperationalStatus>();
  for (const [norad, list] of grouped) {
    list.sort((a, b) => compareText(a.name, b.name));
    out.set(norad, { source, summary: list.map(describe).join('; '), matched_name: list.map((l) => l.name).join(', ') });
  }
  return out;
}
