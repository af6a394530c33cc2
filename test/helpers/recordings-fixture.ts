import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RecordingDetail, RecordingItem } from '../../src/recording/schemas.js';
import { wavHeader } from '../../src/recording/wav.js';
import { systemClock } from '../../src/util/clock.js';
import { startServer, tmpDataDir, type TestServer } from './server.js';
import { makeTone } from './tone.js';

// Recordings for the page tests (issue 37): finished ones written into DATA_DIR before the station
// starts (the index, a WAV of a tone, the journal), and a station that really records, from ALSA's
// `file` plugin reading a tone we wrote (no sound card: arecord captures from the `null` PCM).

export const RATE = 16000;

/** 16-bit mono PCM of a 1 kHz tone as a WAV file's bytes. */
export function toneWav(seconds: number, rate = RATE): Buffer {
  const pcm = Buffer.from(makeTone(rate, 1000, seconds).buffer);
  return Buffer.concat([wavHeader(rate, pcm.length), pcm]);
}

export interface SeededRecording {
  item: RecordingItem;
  detail: RecordingDetail;
  wav: Buffer;
}

/**
 * A finished recording of `seconds` from `startedAt`: a timeline point a second (the satellite
 * rising, the receive frequency falling with the Doppler shift) and one QSO at `qso.offset_s`.
 */
export function recording(o: {
  sat_id: string;
  sat_name: string;
  startedAt: string;
  seconds: number;
  qso: { call: string; offset_s: number };
  status?: 'done' | 'failed';
  error?: string | null;
}): SeededRecording {
  const t0 = Date.parse(o.startedAt);
  const stamp = o.startedAt.replace(/[-:]/g, '').replace(/\.\d+/, '');
  const id = `${stamp}-${o.sat_id}`;
  const wav = toneWav(o.seconds);
  const at = (s: number) => new Date(t0 + s * 1000).toISOString();
  const timeline = Array.from({ length: o.seconds + 1 }, (_, s) => ({
    t: at(s),
    az_deg: 200 + s,
    el_deg: 10 + 4 * s,
    range_rate_km_s: -6 + s * 0.5,
    rx_hz: 437_810_000 - s * 1200,
    tx_hz: 145_990_000,
    rotator_az_deg: null,
    rotator_el_deg: null,
  }));
  const item: RecordingItem = {
    id,
    sat_id: o.sat_id,
    sat_name: o.sat_name,
    started_at: at(0),
    ended_at: at(o.seconds),
    duration_s: o.seconds,
    bytes: wav.length,
    format: 'wav',
    max_el_deg: timeline[timeline.length - 1].el_deg,
    qso_ids: [`qso-${id}`],
    status: o.status ?? 'done',
    error: o.error ?? null,
    ended_reason: o.status === 'failed' ? 'error' : 'los',
    trigger: 'pass',
    source: 'alsa',
    sample_rate: RATE,
  };
  const detail: RecordingDetail = {
    ...item,
    elements: null,
    location: { lat_deg: 52.2053, lon_deg: 0.1218, alt_m: 12, grid: 'JO02bf' },
    pass: { aos: at(-60), tca: at(o.seconds / 2), los: at(o.seconds + 60), max_el_deg: item.max_el_deg! },
    timeline,
    events: [{ t: at(o.qso.offset_s), kind: 'qso', recording_offset_s: o.qso.offset_s, qso_id: `qso-${id}`, call: o.qso.call }],
  };
  return { item, detail, wav };
}

/** Writes the recordings into `<dataDir>/recordings` as the station keeps them (newest first in the index). */
export function seedRecordings(dataDir: string, list: readonly SeededRecording[]): void {
  const dir = join(dataDir, 'recordings');
  mkdirSync(dir, { recursive: true });
  const items = list.map((r) => r.item).sort((a, b) => b.started_at.localeCompare(a.started_at));
  writeFileSync(join(dir, 'index.json'), JSON.stringify({ items }));
  for (const r of list) {
    writeFileSync(join(dir, `${r.item.id}.wav`), r.wav);
    writeFileSync(join(dir, `${r.item.id}.json`), JSON.stringify(r.detail));
  }
}

/**
 * An ALSA configuration in `dir` whose PCM `satfile` captures `seconds` of a 1 kHz tone (16-bit
 * LE mono at RATE) from a file; arecord run with the returned environment finds it.
 */
export function alsaToneDevice(dir: string, seconds: number): NodeJS.ProcessEnv {
  mkdirSync(join(dir, 'alsa'), { recursive: true });
  writeFileSync(join(dir, 'in.raw'), Buffer.from(makeTone(RATE, 1000, seconds).buffer));
  writeFileSync(join(dir, 'alsa', 'asoundrc'), `pcm.satfile { type file  slave.pcm "null"  file "/dev/null"  infile "${join(dir, 'in.raw')}"  format "raw" }\n`);
  return { ...process.env, XDG_CONFIG_HOME: dir };
}

/**
 * The real server for the recording page tests (UI_DIR's build when set), on real time (the
 * recorder's level ticks on the station's clock), recording WAV (no opusenc) with arecord in `env`.
 */
export function startRecordingServer(o: { dataDir?: string; env?: NodeJS.ProcessEnv; now?: string }): Promise<TestServer> {
  const uiDir = process.env.UI_DIR ? resolve(process.env.UI_DIR) : null;
  return startServer({
    dataDir: o.dataDir,
    now: o.now,
    clock: o.now ? undefined : systemClock,
    config: { uiDir },
    app: { eventsPacing: systemClock, recording: { env: o.env ?? process.env, opusenc: '' } },
  });
}

export { tmpDataDir };
