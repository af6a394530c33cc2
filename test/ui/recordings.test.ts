import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, horizontalOverflow, launch, openPage, screenshot, type PageProblems } from '../helpers/browser.js';
import { alsaToneDevice, recording, seedRecordings, startRecordingServer, tmpDataDir } from '../helpers/recordings-fixture.js';
import type { TestServer } from '../helpers/server.js';

// Pass recordings in Chromium against the real server (issue 37). /recordings over two finished
// recordings written into DATA_DIR before the start: the list with length and size, one opened
// (the player on its audio, the pass plot, the QSO marker that moves the player), a deep link at a
// moment, Delete behind a confirm, at 480×320 and 1280×800. Then a station that really records
// (arecord on ALSA's file plugin): the REC dot with its level on /lite and /radio, gone after the
// stop; /recordings following the start and the end on the socket; and a QSO logged meanwhile
// whose ▶ in the logbook opens the recording at its moment.

const skip = browserSkipReason() ?? false;
const NOW = '2026-11-29T12:00:00Z';

const ISS = recording({ sat_id: 'iss', sat_name: 'ISS (ZARYA)', startedAt: '2026-11-29T10:15:00Z', seconds: 8, qso: { call: 'W1AW', offset_s: 5 } });
const SO50 = recording({
  sat_id: 'so-50',
  sat_name: 'SO-50',
  startedAt: '2026-11-29T08:30:00Z',
  seconds: 4,
  qso: { call: 'K1ABC', offset_s: 2 },
  status: 'failed',
  error: 'the capture device failed: arecord: No such device',
});

/** The whole of an element on screen (not scrolled off, not cut by the viewport). */
const onScreen = (page: Page, sel: string) =>
  page.locator(sel).first().evaluate((e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5;
  });

const player = (page: Page) => page.locator('[data-recording-detail] audio[data-player]');
/** Waits for the player's metadata (its length known: it can be positioned), then says where it is. */
async function playerAt(page: Page): Promise<number> {
  await page.waitForFunction(() => (document.querySelector('audio[data-player]') as HTMLAudioElement | null)?.readyState! >= 1);
  return player(page).evaluate((a: HTMLAudioElement) => a.currentTime);
}

/**
 * The page's problems but the player's own: Chromium drops a media request once it has what it
 * wants (the metadata, or the start of a range), which is no fault.
 */
const unexpected = (p: PageProblems) => p.errors.filter((e) => !/^request failed: GET \S+\/api\/v1\/recordings\/[^/]+\/audio net::ERR_ABORTED$/.test(e));

const rows = (page: Page) => page.locator('[data-recording]').evaluateAll((els) => els.map((e) => (e as HTMLElement).innerText));

describe('/recordings and the recording dot', { skip }, () => {
  let seeded: TestServer;
  let live: TestServer;
  let browser: Browser;
  const dataDir = tmpDataDir('satstation-recordings-');
  const alsaDir = tmpDataDir('satstation-recordings-alsa-');
  before(async () => {
    seedRecordings(dataDir, [ISS, SO50]);
    // 20 s of tone: more than the recording below lasts (the file plugin ends with its file).
    const env = alsaToneDevice(alsaDir, 20);
    [seeded, live, browser] = await Promise.all([startRecordingServer({ dataDir, now: NOW }), startRecordingServer({ env }), launch()]);
  });
  after(async () => {
    await browser?.close();
    await Promise.all([seeded?.stop(), live?.stop()]);
    for (const d of [dataDir, alsaDir]) rmSync(d, { recursive: true, force: true });
  });

  let small: { page: Page; problems: PageProblems };

  it('lists the recordings with length and size, opens one under its pass, and its QSO marker moves the player there (480×320)', async () => {
    const api = (await seeded.get('/api/v1/recordings')).body.items;
    assert.deepEqual(api.map((r: { id: string }) => r.id), [ISS.item.id, SO50.item.id], 'fixture: the station lists the seeded recordings, newest first');

    small = await openPage(browser, { width: 480, height: 320 });
    const { page } = small;
    await page.goto(seeded.base + '/recordings');
    await page.locator('[data-recording]').nth(1).waitFor();
    const [iss, so50] = await rows(page);
    assert.match(iss, /ISS \(ZARYA\)[\s\S]*2026-11-29 10:15Z · 00:08 · 250 KiB/);
    assert.match(so50, /SO-50[\s\S]*failed[\s\S]*2026-11-29 08:30Z · 00:04 · 125 KiB[\s\S]*the capture device failed/);
    assert.equal(await page.locator('[data-rec-dot]').count(), 0, 'nothing is being recorded: no dot');
    assert.ok((await horizontalOverflow(page)) <= 0, 'no horizontal overflow at 480×320');
    await screenshot(page, 'recordings-list-480x320');

    await page.locator(`[data-recording="${ISS.item.id}"]`).click();
    assert.equal(new URL(page.url()).searchParams.get('id'), ISS.item.id, 'the address names the recording open');
    assert.match((await player(page).getAttribute('src'))!, new RegExp(`/api/v1/recordings/${ISS.item.id}/audio$`));
    const mark = page.locator('[data-pass-plot] [data-qso-mark="5"]');
    await mark.waitFor();
    assert.match(await mark.innerText(), /W1AW/);
    assert.ok((await page.locator('[data-pass-plot] path.rec-el').getAttribute('d'))!.length > 20, 'the elevation is drawn');
    assert.ok((await page.locator('[data-pass-plot] path.rec-rx').getAttribute('d'))!.length > 20, 'the receive frequency is drawn');
    assert.equal(await playerAt(page), 0, 'opened from the list: at the start');
    assert.ok(await onScreen(page, 'audio[data-player]'), 'the player comes into view');
    assert.ok((await horizontalOverflow(page)) <= 0, 'no horizontal overflow with a recording open');
    await screenshot(page, 'recordings-open-480x320');

    await mark.click();
    const at = await player(page).evaluate((a: HTMLAudioElement) => a.currentTime);
    assert.ok(at >= 5 && at < 5.6, `the marker moved the player to the QSO (at ${at} s)`);
    await player(page).evaluate((a: HTMLAudioElement) => a.pause());
    await page.locator('[data-download]').scrollIntoViewIfNeeded();
    assert.equal(await page.locator('[data-download]').getAttribute('download'), `${ISS.item.id}.wav`);
    await screenshot(page, 'recordings-open-actions-480x320');
    assert.deepEqual(unexpected(small.problems), []);
  });

  it('opens the recording its address names at the moment it gives, at 1280×800', async () => {
    const { context, page, problems } = await openPage(browser, { width: 1280, height: 800 });
    await page.goto(`${seeded.base}/recordings?id=${ISS.item.id}&t=3`);
    await page.locator('[data-qso-mark]').waitFor();
    assert.equal(await playerAt(page), 3, 'the player at 3 s');
    assert.equal(await page.locator(`[data-recording="${ISS.item.id}"]`).getAttribute('aria-pressed'), 'true');
    assert.ok((await horizontalOverflow(page)) <= 0);
    await screenshot(page, 'recordings-deep-link-1280x800');
    // `#<id>` opens it too (from the start).
    await page.goto(`${seeded.base}/recordings#${SO50.item.id}`);
    await page.locator(`[data-recording-detail="${SO50.item.id}"] [data-qso-mark="2"]`).waitFor();
    assert.equal(await playerAt(page), 0);
    await screenshot(page, 'recordings-failed-1280x800');
    assert.deepEqual(unexpected(problems), []);
    await context.close();
  });

  it('deletes a recording only after a confirm', async () => {
    const { page, problems } = small;
    await page.locator(`[data-recording="${SO50.item.id}"]`).click();
    const detail = page.locator(`[data-recording-detail="${SO50.item.id}"]`);
    await detail.locator('button', { hasText: 'Delete' }).click();
    assert.equal((await seeded.get('/api/v1/recordings')).body.items.length, 2, 'one press deletes nothing');
    await screenshot(page, 'recordings-delete-armed-480x320');
    await detail.locator('button', { hasText: 'Confirm: Delete recording' }).click();
    await page.locator(`[data-recording="${SO50.item.id}"]`).waitFor({ state: 'detached' });
    await detail.waitFor({ state: 'detached' });
    assert.deepEqual(
      (await seeded.get('/api/v1/recordings')).body.items.map((r: { id: string }) => r.id),
      [ISS.item.id],
    );
    assert.equal(new URL(page.url()).search, '', 'the address no longer names it');
    await screenshot(page, 'recordings-deleted-480x320');
    assert.deepEqual(unexpected(problems), []);
    await page.context().close();
  });

  it('shows the REC dot with its level on /lite and /radio while recording, and the QSO logged meanwhile plays from the logbook', async () => {
    const set = await live.post('/api/v1/settings/recording', { enabled: true, source: 'alsa', alsa_device: 'satfile' });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal((await live.post('/api/v1/settings/logbook', { station_callsign: 'DL1ABC' })).status, 200);
    const lite = await openPage(browser, { width: 480, height: 320 });
    const radio = await openPage(browser, { width: 800, height: 480 });
    const list = await openPage(browser, { width: 480, height: 320 });
    // The list pages' own time (/recordings, /radio's recent QSOs): news within 5 s of a list's
    // last read waits out that gap (usePoll's bound on the reads a burst of news causes); the test
    // moves their clocks on instead.
    await Promise.all([list, radio].map((o) => o.page.clock.install()));
    await Promise.all([lite.page.goto(live.base + '/lite'), radio.page.goto(live.base + '/radio'), list.page.goto(live.base + '/recordings')]);
    await Promise.all([lite.page.locator('[data-focus-name]').waitFor(), radio.page.locator('[data-logbook-recent]').waitFor(), list.page.locator('[data-rec-empty]').waitFor()]);
    await Promise.all([lite, radio, list].map((o) => o.page.waitForFunction(() => document.documentElement.dataset.socket === 'open')));
    assert.equal(await lite.page.locator('[data-rec-dot]').count(), 0, 'no dot before the start');
    // The list is read again when a recording starts or ends, not at each of its levels.
    const listReads: number[] = [];
    list.page.on('request', (r) => new URL(r.url()).pathname === '/api/v1/recordings' && listReads.push(Date.now()));

    const started = await live.post('/api/v1/recordings/start', {});
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const id: string = started.body.runtime.id;
    // A QSO logged while it records (2 s in, as the operator says) carries the recording and its moment.
    const logged = await live.post('/api/v1/logbook/qso', { call: 'W1AW', mode: 'FM', time_on: new Date(Date.parse(started.body.runtime.started_at) + 2000).toISOString() });
    assert.equal(logged.status, 200, JSON.stringify(logged.body));
    const qso = logged.body.qso;
    assert.deepEqual([qso.recording_id, qso.recording_offset_s], [id, 2]);
    await Promise.all([list, radio].map((o) => o.page.clock.fastForward(5000)));
    await list.page.locator(`[data-recording="${id}"][data-status="recording"] [data-rec-dot]`).waitFor();
    for (const [o, name] of [
      [lite, 'lite-480x320'],
      [radio, 'radio-800x480'],
    ] as const) {
      // The level comes on the recorder's topic once a second: the tone's, about −15 dBFS.
      const level = o.page.locator('[data-rec-dot] [data-rec-level]');
      await level.waitFor({ timeout: 10_000 });
      const db = Number(await level.getAttribute('data-rec-level'));
      assert.ok(db > -30 && db < 0, `${name}: the tone's level (${db} dBFS)`);
      assert.match(await o.page.locator('[data-rec-dot]').innerText(), /REC\s+−\d+\s+dBFS/);
      assert.ok(await onScreen(o.page, '[data-rec-dot]'), `${name}: the dot is on screen`);
      const over = await o.page.evaluate(() => ({ x: document.documentElement.scrollWidth - innerWidth, y: document.documentElement.scrollHeight - innerHeight }));
      assert.ok(over.x <= 0, `${name}: no horizontal overflow`);
      if (o === lite) assert.ok(over.y <= 0, `/lite still fits 480×320 with the dot: ${JSON.stringify(over)}`);
      await screenshot(o.page, `recording-dot-${name}`);
    }

    // /radio's recent QSOs offer it with a ▶ to its moment.
    const play = radio.page.locator(`[data-logbook-recent] [data-qso="${qso.id}"] a[data-qso-recording]`);
    await play.waitFor();
    const t = Math.floor(qso.recording_offset_s);
    assert.equal(await play.getAttribute('href'), `/recordings?id=${encodeURIComponent(id)}&t=${t}`);
    await play.scrollIntoViewIfNeeded();
    await screenshot(radio.page, 'recording-logbook-play-800x480');

    // Let the recording run past the QSO's moment, then stop it: every dot goes, the list says it is done.
    await new Promise((r) => setTimeout(r, Math.max(0, (t + 1.5) * 1000 - (Date.now() - Date.parse(started.body.runtime.started_at)))));
    assert.equal((await live.post('/api/v1/recordings/stop', {})).status, 200);
    await list.page.clock.fastForward(5000);
    await Promise.all([lite, radio, list].map((o) => o.page.waitForFunction(() => !document.querySelector('[data-rec-dot]'))));
    await list.page.locator(`[data-recording="${id}"][data-status="done"]`).waitFor();
    assert.equal(listReads.length, 2, `the list read at the start and at the end only (${listReads.length} reads while it recorded)`);
    await screenshot(lite.page, 'recording-dot-stopped-lite-480x320');
    await screenshot(list.page, 'recording-listed-live-480x320');

    // The ▶ opens the recording at the QSO's moment, its marker on the plot.
    await play.click();
    await radio.page.waitForURL(/\/recordings\?/);
    await radio.page.locator(`[data-recording-detail="${id}"] [data-qso-mark]`, { hasText: 'W1AW' }).waitFor();
    assert.equal(await playerAt(radio.page), t, 'the player at the QSO');
    await screenshot(radio.page, 'recording-from-logbook-800x480');
    assert.deepEqual(unexpected(lite.problems), []);
    assert.deepEqual(unexpected(radio.problems), []);
    assert.deepEqual(unexpected(list.problems), []);
    await Promise.all([lite, radio, list].map((o) => o.context.close()));
  });
});
