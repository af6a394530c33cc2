// The catalogue's SGP4 records are kept between runs (src/orbit/satrec-file.ts, satrec-keeper.ts):
// a propagator that takes them must propagate to the same bits as one that initialises its own,
// and a file that is not this catalogue's, not this build's packing or damaged is never taken.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tleToElements } from '../../src/catalog/tle.js';
import type { Catalog, OmmElements, Satellite } from '../../src/catalog/types.js';
import { DEFAULT_LOCATION } from '../../src/orbit/location-types.js';
import { OrbitEngine } from '../../src/orbit/orbit-service.js';
import { Propagator, type OrbitInput } from '../../src/orbit/propagator.js';
import { SATRECS_FILE, decodeSatrecs, loadSatrecs, packingFingerprint, saveSatrecs } from '../../src/orbit/satrec-file.js';
import { FixedClock } from '../../src/util/clock.js';
import { tmpDataDir } from '../helpers/server.js';
import { loadTle, T0 } from './helpers.js';

const tle = (name: string, l1: string, l2: string): OrbitInput => {
  const el = tleToElements({ name, line1: l1, line2: l2 }) as OmmElements;
  return { sat_id: String(el.NORAD_CAT_ID), name, elements: el };
};

/** The amateur group, resonant deep-space orbits (their integrator state is part of the record) and one SGP4 refuses. */
const SATS: OrbitInput[] = [
  ...loadTle('amateur.tle').slice(0, 40),
  tle('LES-5', '1 02866U 67066E   26204.85303178 -.00000061  00000+0  00000+0 0  9992', '2 02866   2.7059  95.2868 0051365 214.3735  73.3431  1.09425332131432'),
  tle('AO-10', '1 14129U 83058B   26203.81462469  .00000116  00000+0  00000+0 0  9990', '2 14129  25.9436 213.6999 5998947 125.4549 306.1498  2.05869117296229'),
  tle('MERIDIAN 7', '1 40296U 14069A   26204.07732898  .00000301  00000+0  00000+0 0  9991', '2 40296  63.4510 211.8232 6635248 270.3256  19.8851  2.00598635 85957'),
];
const refused: OrbitInput = { sat_id: 'bad', name: 'BAD', elements: { ...(SATS[0].elements as OmmElements), NORAD_CAT_ID: 99998, ECCENTRICITY: 1.5 } };
SATS.splice(5, 0, refused);

/** Each satellite's state at each time (null when it does not propagate), from one propagator. */
function states(prop: Propagator, times: number[]): (number[] | null)[] {
  const st = new Float64Array(6);
  const out: (number[] | null)[] = [];
  for (const t of times) for (let i = 0; i < prop.size; i++) out.push(prop.propagate(i, t, st) ? [...st] : null);
  return out;
}

const sameBits = (a: (number[] | null)[], b: (number[] | null)[]) =>
  a.length === b.length && a.every((x, k) => (x === null ? b[k] === null : b[k] !== null && x.every((v, j) => Object.is(v, b[k]![j]))));

/** A propagator with every record built, its deep-space integrators moved on from their epochs. */
function builtAll(): Propagator {
  const p = new Propagator(SATS);
  states(p, [T0 + 40 * 86_400_000]);
  assert.ok(p.complete);
  return p;
}

test('records taken by another propagator propagate to the same bits, refusals included, with nothing initialised', () => {
  const a = builtAll();
  const r = a.exportRecords()!;
  assert.equal(r.refused.length, 1);
  assert.equal(r.refused[0].index, 5);
  const b = new Propagator(SATS);
  assert.ok(b.adoptRecords(r));
  assert.ok(b.complete);
  // Times either side of the integrators' kept state and far from it (a fresh propagator for reference).
  const times = [T0, T0 + 40 * 86_400_000 + 1234, T0 - 3 * 86_400_000, T0 + 90 * 86_400_000];
  assert.ok(sameBits(states(b, times), states(new Propagator(SATS), times)));
  assert.equal(b.initialisedCount, 0, 'no satellite initialised by SGP4');
  assert.equal(b.skipped.length, 1);
  assert.equal(b.skipped[0].sat_id, 'bad');
  assert.equal(b.satrecsHeld, b.size - 1);
});

test('records that do not fit are refused and nothing changes', () => {
  const r = builtAll().exportRecords()!;
  const started = new Propagator(SATS);
  started.usable(0);
  assert.equal(started.adoptRecords(r), false, 'only into a propagator with nothing built');
  const repeated = { ...r, indexes: r.indexes.map((i, k) => (k === 1 ? r.indexes[0] : i)) };
  const outOfRange = { ...r, indexes: r.indexes.map((i, k) => (k === 0 ? 1000 : i)) };
  const bothWays = { ...r, refused: [{ index: r.indexes[0], reason: 'x' }] };
  const short = { ...r, words: r.words.subarray(1) };
  for (const bad of [repeated, outOfRange, bothWays, short]) {
    const p = new Propagator(SATS);
    assert.equal(p.adoptRecords(bad), false);
    assert.equal(p.satrecsHeld, 0);
    assert.equal(p.skipped.length, 0);
  }
  assert.equal(new Propagator(SATS.slice(0, 10)).adoptRecords(r), false, 'more records than the cap holds');
});

test('the file gives back its records only to its own catalogue, and never when damaged', async () => {
  const dir = tmpDataDir();
  const path = join(dir, SATRECS_FILE);
  const a = builtAll();
  await saveSatrecs(path, 'v1', a.size, a.exportRecords()!);
  const back = loadSatrecs(path, 'v1', a.size);
  assert.ok(typeof back !== 'string', String(back));
  const b = new Propagator(SATS);
  assert.ok(b.adoptRecords(back));
  assert.ok(sameBits(states(b, [T0]), states(a, [T0])));

  assert.equal(loadSatrecs(path, 'v2', a.size), 'another catalogue\'s');
  assert.equal(loadSatrecs(path, 'v1', a.size + 1), 'another catalogue\'s');
  assert.equal(loadSatrecs(join(dir, 'none.bin'), 'v1', a.size), 'none kept');
  const bytes = readFileSync(path);
  assert.equal(decodeSatrecs(bytes.subarray(0, bytes.length - 8), 'v1', a.size), 'its length does not match its header');
  assert.equal(decodeSatrecs(Buffer.concat([bytes, Buffer.alloc(8)]), 'v1', a.size), 'its length does not match its header');
  const other = Buffer.from(bytes);
  other[0] ^= 1;
  assert.equal(decodeSatrecs(other, 'v1', a.size), 'not a records file');
  // Another build's packing (a new satellite.js, a changed layout): same length, another fingerprint.
  const text = bytes.toString('latin1');
  const packing = /"packing":"([^"]+)"/.exec(text)![1];
  assert.ok(packing.includes('/'), packing);
  const repacked = Buffer.from(text.replace(packing, packing.replace(/\/[^/]*\//, (v) => v.replace(/\d/, (d) => String((Number(d) + 1) % 10)))), 'latin1');
  assert.equal(decodeSatrecs(repacked, 'v1', a.size), 'packed by another build');
  assert.equal(decodeSatrecs(Buffer.from(text.replace('"format":1', '"format":7'), 'latin1'), 'v1', a.size), 'its header is not a records file\'s');
  writeFileSync(path, 'garbage');
  assert.equal(loadSatrecs(path, 'v1', a.size), 'not a records file');
});

function catalog(version: string): Catalog {
  const satellites = SATS.map((s) => ({ ...s, norad_id: (s.elements as OmmElements).NORAD_CAT_ID }) as unknown as Satellite);
  return { version, satellites, byId: new Map(satellites.map((s) => [s.sat_id, s])), byNorad: new Map(satellites.map((s) => [s.norad_id, s])), origin: 'test', loaded_at_ms: T0 };
}

function engine(dir: string, version = 'v1') {
  const listeners = new Set<(c: Catalog) => void>();
  let cat = catalog(version);
  const e = new OrbitEngine({
    clock: new FixedClock(T0),
    dataDir: dir,
    catalog: { current: () => cat, onChange: (fn) => (listeners.add(fn), () => listeners.delete(fn)) },
    location: { resolved: () => DEFAULT_LOCATION, onChange: () => () => {} },
  });
  return {
    e,
    setCatalog(v: string) {
      cat = catalog(v);
      for (const fn of listeners) fn(cat);
    },
  };
}

test('a station keeps its records once per catalogue, and the next start takes them instead of initialising any', async () => {
  const dir = tmpDataDir();
  const first = engine(dir);
  first.e.start();
  await first.e.records.settled();
  assert.ok(existsSync(join(dir, SATRECS_FILE)), 'written once the boot is quiet');
  assert.equal(first.e.orbits().prop.initialisedCount, first.e.orbits().prop.size, 'each satellite initialised once, the refused one included');
  const live = first.e.live(T0).map((s) => JSON.stringify(s));
  await first.e.stop();

  const second = engine(dir);
  second.e.start();
  assert.deepEqual(second.e.live(T0).map((s) => JSON.stringify(s)), live);
  assert.ok(second.e.path(SATS[0].sat_id, T0, 10, 10).length > 0);
  await second.e.records.settled();
  assert.equal(second.e.orbits().prop.initialisedCount, 0, 'no satellite initialised');

  // A new catalogue: its own records are built and replace the file's; the old ones are never taken for it.
  second.setCatalog('v2');
  await second.e.records.settled();
  assert.equal(second.e.orbits().prop.initialisedCount, second.e.orbits().prop.size);
  assert.ok(typeof loadSatrecs(join(dir, SATRECS_FILE), 'v2', second.e.orbits().prop.size) !== 'string');
  assert.equal(loadSatrecs(join(dir, SATRECS_FILE), 'v1', second.e.orbits().prop.size), 'another catalogue\'s');
  await second.e.stop();
});

test('records a run has all built but found no quiet spell to write are written at its stop', async () => {
  const dir = tmpDataDir();
  const { e } = engine(dir);
  e.records.keepAfter(new Promise(() => {})); // the boot's requests never end
  e.start();
  e.live(T0); // builds every record, as a pass search does
  assert.ok(e.orbits().prop.complete);
  assert.equal(existsSync(join(dir, SATRECS_FILE)), false);
  await e.stop();
  assert.ok(typeof loadSatrecs(join(dir, SATRECS_FILE), 'v1', e.orbits().prop.size) !== 'string');
});

test('what packed the records names satellite.js\'s installed version and our record\'s layout', () => {
  const installed = (JSON.parse(readFileSync(new URL('../../node_modules/satellite.js/package.json', import.meta.url), 'utf8')) as { version: string }).version;
  const [format, version, layout] = packingFingerprint()!.split('/');
  assert.equal(format, '1');
  assert.equal(version, installed);
  assert.match(layout, /^[0-9a-f]{16}$/);
});
