import { execFile } from 'node:child_process';

// Driver: the radios Hamlib drives on this machine, from `rigctl -l` (run once, on first use, and
// kept), the satellite radios first. Never throws: the answer says whether the list is there,
// Hamlib is not installed, or rigctl failed.

export interface HamlibModelEntry {
  model: number;
  manufacturer: string;
  name: string;
  version: string;
  /** Hamlib's word for its backend: Stable, Beta, Alpha, Untested, Buggy. */
  status: string;
  /** One of the radios hams work satellites with (SATELLITE_RADIOS). */
  satellite: boolean;
}

export type HamlibModelList =
  | { kind: 'ok'; items: HamlibModelEntry[] }
  /** rigctl is not on this machine. */
  | { kind: 'missing'; note: string }
  | { kind: 'failed'; note: string };

/**
 * Radios the satellite trackers hams use support (gpredict, SatPC32, Look4Sat…), in the order
 * /settings lists them: each a manufacturer and Hamlib's name for the model (with its variants).
 */
export const SATELLITE_RADIOS: ReadonlyArray<{ manufacturer: string; name: RegExp }> = [
  { manufacturer: 'Icom', name: /^IC-9700$/ },
  { manufacturer: 'Icom', name: /^IC-910H?$/ },
  { manufacturer: 'Icom', name: /^IC-9100$/ },
  { manufacturer: 'Icom', name: /^IC-82[01]H?$/ },
  { manufacturer: 'Icom', name: /^IC-970[AHD]?$/ },
  { manufacturer: 'Kenwood', name: /^TS-2000$/ },
  { manufacturer: 'Kenwood', name: /^TS-790[AE]?$/ },
  { manufacturer: 'Yaesu', name: /^FT-847(UNI)?$/ },
  { manufacturer: 'Yaesu', name: /^FT-736R?$/ },
  { manufacturer: 'Yaesu', name: /^FT-991A?$/ },
  { manufacturer: 'Yaesu', name: /^FT-81[78](ND)?$/ },
  { manufacturer: 'Yaesu', name: /^FT-857D?$/ },
  { manufacturer: 'Yaesu', name: /^FT-897D?$/ },
  { manufacturer: 'Icom', name: /^IC-705$/ },
];

export const NOT_INSTALLED = 'Hamlib is not installed on this station: install libhamlib-utils (sudo apt-get install libhamlib-utils)';

const satelliteRank = (manufacturer: string, name: string): number => SATELLITE_RADIOS.findIndex((r) => r.manufacturer === manufacturer && r.name.test(name));

/** One row: the model number, then the columns up to the status word (the macro name after it, from Hamlib 4, is dropped). */
const ROW = /^\s*(\d+)\s+(.*?)\s+(\S+)\s+(Alpha|Beta|Stable|Untested|Buggy|New)\b/;

/**
 * `rigctl -l`'s table. Manufacturer and model are split where the header puts the Model column
 * (both may hold spaces: "DTTS Microwave Society", "Digital World Traveller"); a row that
 * does not fit the header's columns is split at its first run of spaces instead.
 */
export function parseModelList(text: string): HamlibModelEntry[] {
  const rows = text.split('\n');
  const header = rows.find((l) => /\bMfg\b/.test(l) && /\bModel\b/.test(l));
  const modelCol = header ? header.indexOf('Model') : -1;
  const out: HamlibModelEntry[] = [];
  for (const row of rows) {
    const m = ROW.exec(row);
    if (!m) continue;
    const both = m[2];
    const start = row.indexOf(both, m[1].length);
    let manufacturer: string;
    let name: string;
    if (modelCol > start && modelCol < start + both.length && row[modelCol - 1] === ' ') {
      manufacturer = row.slice(start, modelCol).trim();
      name = row.slice(modelCol, start + both.length).trim();
    } else {
      const gap = /\s{2,}/.exec(both) ?? /\s/.exec(both);
      manufacturer = gap ? both.slice(0, gap.index) : both;
      name = gap ? both.slice(gap.index).trim() : '';
    }
    out.push({ model: Number(m[1]), manufacturer, name, version: m[3], status: m[4], satellite: satelliteRank(manufacturer, name) >= 0 });
  }
  return out;
}

const byName = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Satellite radios first, in SATELLITE_RADIOS' order; the rest by manufacturer, then name. */
export function sortModels(items: HamlibModelEntry[]): HamlibModelEntry[] {
  const rank = (e: HamlibModelEntry) => (e.satellite ? satelliteRank(e.manufacturer, e.name) : SATELLITE_RADIOS.length);
  return [...items].sort((x, y) => rank(x) - rank(y) || byName.compare(x.manufacturer, y.manufacturer) || byName.compare(x.name, y.name) || x.model - y.model);
}

/** The name Hamlib gives a model ("FT-991"), or null when the list has no such model. */
export function modelName(list: HamlibModelList, model: number): string | null {
  return list.kind === 'ok' ? (list.items.find((e) => e.model === model)?.name ?? null) : null;
}

/** Runs `program -l`; missing when no such program, failed on any other trouble. */
export function runModelList(program: string, timeoutMs = 15_000): Promise<HamlibModelList> {
  return new Promise((resolve) => {
    execFile(program, ['-l'], { timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = (err as NodeJS.ErrnoException | null)?.code;
      if (code === 'ENOENT') return resolve({ kind: 'missing', note: NOT_INSTALLED });
      if (err) return resolve({ kind: 'failed', note: `${program} -l failed: ${(stderr.trim().split('\n').pop() || err.message).slice(0, 200)}` });
      const items = parseModelList(stdout);
      resolve(items.length ? { kind: 'ok', items: sortModels(items) } : { kind: 'failed', note: `${program} -l listed no rig models` });
    });
  });
}

/**
 * One run per program and PATH, kept while it lists models. "Missing" and "failed" are asked
 * again next time: the operator may install Hamlib while the station runs.
 */
const lists = new Map<string, Promise<HamlibModelList>>();

export function listHamlibModels(program = 'rigctl'): Promise<HamlibModelList> {
  const key = `${program}\0${process.env.PATH ?? ''}`;
  let p = lists.get(key);
  if (!p) {
    p = runModelList(program);
    lists.set(key, p);
    void p.then((l) => l.kind !== 'ok' && lists.get(key) === p && lists.delete(key));
  }
  return p;
}
