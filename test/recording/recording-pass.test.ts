import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { lanFixture, radioWifi, type LanFixture } from '../radio/lan/lan-fixture.js';
import { makeTone, toneMagnitude } from '../helpers/tone.js';
import { decodeAudio } from './recording-fixture.js';
import type { PassEvent } from '../../src/orbit/types.js';

// A pass recorded by itself: the IC-705 on Wi-Fi (the Icom LAN emulator) follows the ISS through
// a pass-pinned session on a fast clock; the recorder starts pre_roll_s before the ISS rises above
// min_elevation_deg, takes the radio's LAN receive audio, journals a point a second with the rig's
// frequency, carries a QSO logged meanwhile, and stops pre_roll_s after it sets below it.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a pass recorded from the IC-705 LAN audio', () => {
  let f: LanFixture;
  before(async () => {
    f = await lanFixture({ now: '2026-08-22T12:00:00Z' });
  });
  after(() => f?.stop());

  it('starts pre_roll_s before min_elevation_deg, journals the pass, carries the QSO, stops after LOS; the tone played is in the audio', async () => {
    const s = f.s;
    const min_el = 10;
    const pre = 5;
    assert.equal((await s.post('/api/v1/settings/recording', { enabled: true, min_elevation_deg: min_el, pre_roll_s: pre })).status, 200);
    assert.equal((await s.post('/api/v1/settings/logbook', { station_callsign: 'DL1ABC' })).status, 200);
    assert.equal((await s.post('/api/v1/settings/radio', radioWifi(f))).status, 200);
    const c = await s.post('/api/v1/radio/connect');
    assert.equal(c.status, 200, JSON.stringify(c.body));
    const passes: PassEvent[] = await s.app.services.orbit.passesWhenReady({ from_ms: f.clock.now(), hours: 48, min_max_el_deg: 25, sat_ids: ['iss'], include_ongoing: false });
    const pass = passes[0];
    const sel = await s.post('/api/v1/radio/session/select', { sat_id: pass.sat_id, sat_name: pass.name, pass_aos: pass.aos, pass_los: pass.los, max_el_deg: pass.max_el_deg });
    assert.equal(sel.status, 200, JSON.stringify(sel.body));
    assert.equal((await s.post('/api/v1/radio/session/start')).status, 200);
    const rec = s.app.services.recording;
    const el = (t: number) => s.app.services.orbit.sample('iss', t)!.el_deg;
    // Walk the clock a second at a time from AOS until the recorder starts.
    f.clock.set(pass.aos_ms - 1000);
    for (let t = pass.aos_ms; t < pass.tca_ms && !rec.runtime().recording; t += 1000) {
      await f.clock.run(1000, 1000, 0);
      // Once it should start (the start spawns the encoder), let it finish before time moves on.
      const due = el(f.clock.now() + pre * 1000) >= min_el;
      for (let i = 0; due && i < 200 && !rec.runtime().recording && rec.runtime().last_error === null; i++) await sleep(5);
    }
    assert.ok(rec.runtime().recording, `it started (${rec.runtime().last_error})`);
    const started = Date.parse(rec.runtime().started_at!);
    // The start came on the first tick at which the ISS was above min_el pre_roll_s ahead, not before.
    assert.ok(el(started + pre * 1000) >= min_el, 'above min_el pre_roll_s after the start');
    assert.ok(el(started - 1000 + pre * 1000) < min_el, 'and not yet a tick earlier');
    const rt = rec.runtime();
    assert.equal(rt.source, 'lan');
    assert.equal(rt.sat_id, 'iss');
    // The radio plays a 1 kHz tone into its receive audio while the pass goes on; a QSO is logged.
    const tone = makeTone(24000, 1000, 1.5, 10000);
    const played = f.lan.playRx(tone);
    await f.clock.run(3000, 1000, 20);
    const qso = await s.post('/api/v1/logbook/qso', { call: 'W1AW', mode: 'FM' });
    assert.equal(qso.status, 200, JSON.stringify(qso.body));
    assert.equal(qso.body.qso.recording_id, rt.id);
    assert.ok(qso.body.qso.recording_offset_s >= 3 && qso.body.qso.recording_offset_s <= 5, `offset ${qso.body.qso.recording_offset_s}`);
    await played;
    // On to LOS in big steps (the journal still gets a point a second: each tick fires at its own instant).
    let ended = 0;
    while (f.clock.now() < pass.los_ms + 60_000) {
      await f.clock.run(20_000, 1000, 0);
      await sleep(10);
      if (!rec.runtime().recording) {
        ended = f.clock.now();
        break;
      }
    }
    assert.ok(ended > 0, 'it ended');
    const items = (await s.get('/api/v1/recordings')).body.items;
    const item = items.find((i: any) => i.id === rt.id);
    assert.equal(item.status, 'done', JSON.stringify(item));
    assert.equal(item.ended_reason, 'los');
    assert.equal(item.trigger, 'pass');
    assert.equal(item.source, 'lan');
    assert.deepEqual(item.qso_ids, [qso.body.qso.id]);
    assert.ok(Math.abs(item.max_el_deg - pass.max_el_deg) < 0.5, `max el ${item.max_el_deg} vs ${pass.max_el_deg}`);
    const d = (await s.get(`/api/v1/recordings/${rt.id}`)).body;
    assert.equal(d.pass.tca, pass.tca);
    assert.equal(d.elements.OBJECT_NAME, 'ISS (ZARYA)');
    // The last point is within the tail: below min_el, at most pre_roll_s (+ a tick) after it set.
    const last = Date.parse(d.timeline.at(-1).t);
    assert.ok(el(last) < min_el && el(last - (pre + 1) * 1000) >= min_el, 'stopped pre_roll_s after it set below min_el');
    const secs = d.timeline.map((p: any) => Date.parse(p.t) / 1000);
    for (let i = 1; i < secs.length; i++) assert.equal(secs[i] - secs[i - 1], 1, `a point a second (${d.timeline[i].t})`);
    assert.ok(d.timeline.some((p: any) => p.rx_hz !== null), 'the rig frequency in the timeline');
    const q = d.events.find((e: any) => e.kind === 'qso');
    assert.equal(q.call, 'W1AW');
    assert.equal(q.recording_offset_s, qso.body.qso.recording_offset_s);
    const pcm = decodeAudio(join(s.dataDir, 'recordings', `${rt.id}.ogg`), 'ogg', 16000);
    let best = 0;
    for (let i = 0; i + 8000 <= pcm.length; i += 4000) best = Math.max(best, toneMagnitude(pcm, 16000, 1000, i, i + 8000));
    assert.ok(best > 4000, `the radio's tone is in the recording (${best.toFixed(0)})`);
    assert.ok(toneMagnitude(pcm, 16000, 1000, pcm.length - 8000, pcm.length) < 300, 'silence after it was played');
  });

  it('auto-track started mid-pass records at once; stopping auto-track ends it (tracking_ended)', async () => {
    const s = f.s;
    const rec = s.app.services.recording;
    const el = (t: number) => s.app.services.orbit.sample('iss', t)!.el_deg;
    const passes: PassEvent[] = await s.app.services.orbit.passesWhenReady({ from_ms: f.clock.now() + 3_600_000, hours: 48, min_max_el_deg: 25, sat_ids: ['iss'], include_ongoing: false });
    const pass = passes[0];
    // The first test's session is let go: auto-track is the radio's only follower now.
    await s.post('/api/v1/radio/session/stop');
    await s.post('/api/v1/radio/session/clear');
    f.clock.set(pass.tca_ms);
    assert.ok(el(f.clock.now()) > 10);
    assert.equal(rec.runtime().recording, false);
    const at = await s.post('/api/v1/radio/auto-track/start', { sat_id: 'iss', interval_ms: 1000 });
    assert.equal(at.status, 200, JSON.stringify(at.body));
    for (let i = 0; i < 3 && !rec.runtime().recording; i++) {
      await f.clock.run(1000, 1000, 0);
      for (let k = 0; k < 200 && !rec.runtime().recording && rec.runtime().last_error === null; k++) await sleep(5);
    }
    assert.ok(rec.runtime().recording, `started at once (${rec.runtime().last_error})`);
    const id = rec.runtime().id!;
    assert.ok(Date.parse(rec.runtime().started_at!) - pass.tca_ms <= 2000, 'within a tick of auto-track starting');
    await f.clock.run(3000, 1000, 10);
    assert.equal((await s.post('/api/v1/radio/auto-track/stop')).status, 200);
    await f.clock.run(2000, 1000, 10);
    for (let k = 0; k < 200 && rec.runtime().recording; k++) await sleep(5);
    const item = (await s.get('/api/v1/recordings')).body.items.find((i: any) => i.id === id);
    assert.equal(item.status, 'done');
    assert.equal(item.ended_reason, 'tracking_ended');
    assert.equal(item.trigger, 'pass');
  });
});
