import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, horizontalOverflow, launch, openPage, screenshot, startUiServer, VIEWPORTS } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';
import { newerCatalog, ommText } from '../catalog/fixtures/catalog-data.js';
import { body, startSourceServer, status, type SourceServer } from '../catalog/fixtures/source-server.js';

// /settings on the real server in Debian's Chromium; catalog sources served from 127.0.0.1.

const NOW = '2026-08-22T12:00:00Z';
const skip = browserSkipReason() ?? false;
/** A 400 this test provokes on purpose is not a page problem. */
const unexpected = (errors: string[]) => errors.filter((e) => !/status of 400|HTTP 400/.test(e));

/** Opens a settings group (the page shows one at a time) and waits for its code to load. */
async function open(page: Page, group: string): Promise<void> {
  await page.evaluate((h) => (location.hash = h), group);
  await page.locator(`section[data-group="${group}"][data-loaded="true"]`).waitFor();
}

describe('settings page', { skip }, () => {
  let s: TestServer;
  let src: SourceServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  before(async () => {
    src = await startSourceServer();
    src.set('/amateur.json', body(ommText(newerCatalog(0.5))));
    src.set('/gone.json', status(404));
    s = await startUiServer({ now: NOW });
    await s.post('/api/v1/datasets/sources', { status_url: '', transmitters_source: '' }); // no status or transmitters lookup outside the machine
    browser = await launch();
    const o = await openPage(browser, { width: 1280, height: 800 });
    page = o.page;
    errors = o.problems.errors;
    await page.clock.install({ time: Date.parse(NOW) });
  });
  after(async () => {
    await browser?.close();
    await s?.stop();
    await src?.close();
  });

  it('loads every group with no console error or failed request, every input labelled', async () => {
    await page.goto(s.base + '/settings', { waitUntil: 'networkidle' });
    await page.locator('[data-resolved]').waitFor();
    const forms: Record<string, string[]> = { display: ['settings/timezone', 'settings/iss-display-mode'], gps: ['settings/gps'], catalog: ['datasets/sources'], network: ['network'], developer: ['settings/developer-overrides'] };
    for (const [group, list] of Object.entries(forms)) {
      await open(page, group);
      for (const form of list) await page.locator(`[data-form="/api/v1/${form}"] .field`).first().waitFor();
      if (group === 'catalog') {
        await page.locator('[data-snapshots]').waitFor();
        await page.locator('[data-catalog-state]').waitFor();
      }
      const unlabelled = await page.evaluate(() =>
        Array.from(document.querySelectorAll<HTMLInputElement>('input, select, textarea')).filter((el) => !el.labels?.length && !el.getAttribute('aria-label')).map((el) => el.outerHTML.slice(0, 80)),
      );
      assert.deepEqual(unlabelled, [], `${group}: every input has a label`);
    }
    assert.deepEqual(errors, []);
    await open(page, 'location');
  });

  it('adds and selects a location profile; the resolved location follows', async () => {
    await page.fill('#loc-name', 'Field day');
    await page.fill('#loc-lat', '48.1371');
    await page.fill('#loc-lon', '11.5754');
    await page.fill('#loc-alt_m', '520');
    await page.getByRole('button', { name: 'Add and select' }).click();
    await page.locator('[data-resolved]', { hasText: '48.1371' }).waitFor();
    const loc = (await s.get('/api/v1/location')).body;
    assert.equal(loc.state.selected_profile_id, 'field-day', 'its id made from its name');
    assert.deepEqual(loc.resolved, { source: 'manual', lat: 48.1371, lon: 11.5754, alt_m: 520, locator: 'JN58sd' });
    assert.equal(await page.locator('[data-locator]').innerText(), 'JN58sd', "the station's locator is shown");
    assert.deepEqual(unexpected(errors), []);
  });

  it('shows the API message under the field it names, and saves nothing', async () => {
    await page.fill('#loc-name', 'Bad');
    await page.fill('#loc-lat', '123');
    await page.fill('#loc-lon', '0');
    await page.getByRole('button', { name: 'Add and select' }).click();
    const err = page.locator('[data-field-error="add_profile.point.lat"]');
    await err.waitFor();
    assert.match(await err.innerText(), /90/);
    assert.equal(await page.locator('#loc-lat').getAttribute('aria-describedby'), 'loc-lat-err');
    assert.ok(!(await s.get('/api/v1/location')).body.state.profiles.some((p: { id: string }) => p.id === 'bad'));

    await open(page, 'display');
    const tz = page.locator('[data-form="/api/v1/settings/timezone"]');
    await tz.locator('input').fill('Mars/Base');
    await tz.getByRole('button', { name: 'Save' }).click();
    await tz.locator('[data-field-error="display_timezone"]').waitFor();
    await tz.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-field-error-1280x800');
    assert.equal((await s.get('/api/v1/settings/timezone')).body.state.display_timezone, 'UTC');
    await tz.locator('input').fill('Europe/Berlin');
    await tz.getByRole('button', { name: 'Save' }).click();
    assert.match(await tz.locator('.saved').innerText(), /Saved · Display timezone: Europe\/Berlin/, "the server's answer is shown");
    assert.equal((await s.get('/api/v1/settings/timezone')).body.state.display_timezone, 'Europe/Berlin');
  });

  it('removes a profile only after a confirming second press', async () => {
    await open(page, 'location');
    await page.locator('[data-profile="default"]').getByRole('button', { name: 'Select' }).click();
    await page.locator('[data-profile="default"] .badge').waitFor();
    const remove = page.locator('[data-profile="field-day"]').getByRole('button');
    await remove.filter({ hasText: 'Remove' }).click();
    await page.keyboard.press('Escape');
    await remove.filter({ hasText: /^Remove$/ }).waitFor();
    await remove.filter({ hasText: 'Remove' }).click();
    assert.equal((await s.get('/api/v1/location')).body.state.profiles.length, 2, 'one press does nothing');
    await page.locator('[data-profile="field-day"]').getByRole('button', { name: /Confirm: remove Field day/ }).click();
    await page.locator('[data-profile="field-day"]').waitFor({ state: 'detached' });
    assert.deepEqual((await s.get('/api/v1/location')).body.state.profiles.map((p: { id: string }) => p.id), ['default']);
  });

  it('adds a profile by Maidenhead locator (any case): the centre of the square, its locator shown', async () => {
    const form = page.locator('form.add-profile');
    await form.getByLabel('Maidenhead locator').check();
    assert.equal(await form.getByLabel('Latitude (°)').count(), 0, 'coordinates give way to the locator');
    await page.fill('#loc-name', 'Cambridge');
    await form.getByLabel('Locator', { exact: true }).fill('jo02xx9');
    await form.getByRole('button', { name: 'Add and select' }).click();
    const err = page.locator('[data-field-error="add_profile.locator"]');
    await err.waitFor();
    assert.match(await err.innerText(), /Maidenhead locator of 4, 6 or 8 characters/);
    assert.equal(await form.getByLabel('Locator', { exact: true }).getAttribute('aria-invalid'), 'true');
    assert.ok(!(await s.get('/api/v1/location')).body.state.profiles.some((p: { id: string }) => p.id === 'cambridge'), 'nothing saved');

    await form.getByLabel('Locator', { exact: true }).fill('jo02BF');
    await form.getByLabel('Altitude (m)').fill('12');
    await form.getByRole('button', { name: 'Add and select' }).click();
    await page.locator('[data-resolved]', { hasText: '52.2292' }).waitFor();
    assert.equal(await page.locator('[data-locator]').innerText(), 'JO02bf');
    assert.equal(await page.locator('[data-profile="cambridge"] [data-profile-locator]').innerText(), 'JO02bf');
    assert.equal(await page.locator('[data-profile="default"] [data-profile-locator]').innerText(), 'IO91xl', 'every profile shows its locator');
    const loc = (await s.get('/api/v1/location')).body;
    assert.deepEqual(loc.resolved, { source: 'manual', lat: 52.229167, lon: 0.125, alt_m: 12, locator: 'JO02bf' });
    for (const vp of VIEWPORTS) {
      await page.setViewportSize(vp);
      await page.locator('#location').scrollIntoViewIfNeeded();
      await page.locator('[data-resolved]').evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await screenshot(page, `settings-location-locator-${vp.name}`);
      assert.ok((await horizontalOverflow(page)) <= 0, vp.name);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    assert.deepEqual(unexpected(errors), []);
  });

  it('changes GPS settings through the schema-bound form', async () => {
    await open(page, 'gps');
    const gps = page.locator('[data-form="/api/v1/settings/gps"]');
    await gps.locator('select').first().selectOption('serial');
    await gps.getByLabel('Serial device').fill('/dev/ttyACM0');
    await gps.getByRole('button', { name: 'Save' }).click();
    assert.match(await gps.locator('.saved').innerText(), /Connection mode: serial · Serial device: \/dev\/ttyACM0/);
    const st = (await s.get('/api/v1/settings/gps')).body.state;
    assert.equal(st.connection_mode, 'serial');
    assert.equal(st.serial_device, '/dev/ttyACM0');
    await gps.getByLabel('Serial device').fill('ttyACM0');
    await gps.getByRole('button', { name: 'Save' }).click();
    await gps.locator('[data-field-error="serial_device"]').waitFor();
    assert.match(await gps.getByLabel('Serial device').getAttribute('aria-describedby') ?? '', /serial_device-err/);
    assert.equal((await s.get('/api/v1/settings/gps')).body.state.serial_device, '/dev/ttyACM0');
  });

  it('sets tri-state developer overrides', async () => {
    await open(page, 'developer');
    const dev = page.locator('[data-form="/api/v1/settings/developer-overrides"]');
    await dev.getByLabel('Enabled').check();
    await dev.getByLabel('Force scene').selectOption('pass');
    assert.equal(await dev.getByLabel('Force ISS video eligible').locator('option').first().innerText(), 'not forced');
    await dev.getByLabel('Force ISS video eligible').selectOption('false');
    await dev.getByRole('button', { name: 'Save' }).click();
    await dev.locator('.saved').waitFor();
    const st = (await s.get('/api/v1/settings/developer-overrides')).body.state;
    assert.deepEqual([st.enabled, st.force_scene, st.force_iss_video_eligible, st.force_iss_stream_healthy], [true, 'pass', false, null]);
    await page.setViewportSize({ width: 800, height: 480 });
    await dev.locator('.saved').scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-overrides-800x480');
    await page.setViewportSize({ width: 1280, height: 800 });
    await s.post('/api/v1/settings/developer-overrides', { enabled: false });
  });

  it('edits catalog sources, refreshes and shows each source’s outcome', async () => {
    await open(page, 'catalog');
    const form = page.locator('[data-form="/api/v1/datasets/sources"]');
    await form.locator('textarea').fill(`${src.base}/amateur.json\n${src.base}/gone.json`);
    await form.getByRole('button', { name: 'Save' }).click();
    await form.locator('.saved').waitFor();
    assert.deepEqual((await s.get('/api/v1/datasets/sources')).body.state.sources, [`${src.base}/amateur.json`, `${src.base}/gone.json`]);
    await page.locator('[data-refresh]').click();
    const report = page.locator('[data-refresh-report]');
    await report.waitFor({ timeout: 30_000 });
    const text = await report.innerText();
    assert.match(text, /fetched.*amateur\.json: \d+ objects/s);
    assert.match(text, /failed.*gone\.json/s);
    assert.match(text, /Partly refreshed: \d+ satellites/);
    await page.locator(`[data-source-state="${src.base}/amateur.json"]`, { hasText: /last success Sat 22 Aug 14:00 (CEST|GMT\+2), \d+ objects/ }).waitFor();
    await page.locator(`[data-source-state="${src.base}/gone.json"]`, { hasText: 'last error: HTTP 404' }).waitFor();
    await report.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-refresh-report-1280x800');
    await page.locator('[data-snapshots] tbody tr', { hasText: 'refresh (datasets/refresh)' }).first().waitFor();

    const clear = page.getByRole('button', { name: 'Clear pass cache' });
    await clear.click();
    await page.getByRole('button', { name: 'Confirm: clear and recompute passes' }).click();
    await page.getByText('Pass cache cleared').waitFor();
  });

  it('records a snapshot and lists it', async () => {
    const rows = page.locator('[data-snapshots] tbody tr');
    const n = await rows.count();
    await page.locator('[data-record]').click();
    await page.waitForFunction((k) => document.querySelectorAll('[data-snapshots] tbody tr').length > k, n);
    assert.equal((await s.get('/api/v1/snapshots')).body.count, await rows.count());
    assert.match(await page.locator('[data-snapshots] thead').innerText(), /CEST|GMT\+2|UTC\+2/, 'times in the display timezone, with the zone');
    assert.deepEqual(unexpected(errors), []);
  });

  it('sets the rig up for Wi-Fi; the password is never shown back and a resave keeps it', async () => {
    await open(page, 'radio');
    const form = page.locator('[data-form="/api/v1/settings/radio"]');
    await form.scrollIntoViewIfNeeded();
    await form.locator('.field').first().waitFor();
    await form.getByLabel('Transport').selectOption('wifi');
    await form.getByLabel('Rig address').fill('192.168.4.20');
    await form.getByLabel('User name').fill('satuser');
    await form.getByLabel('Password').fill('pa55word');
    await form.getByRole('button', { name: 'Save' }).click();
    const saved = form.locator('.saved');
    await saved.waitFor();
    assert.doesNotMatch(await page.content(), /pa55word/, 'the password is not on the page after saving');
    const st = (await s.get('/api/v1/settings/radio')).body.state;
    assert.equal(st.transport, 'wifi');
    assert.equal(st.wifi_host, '192.168.4.20');
    assert.equal(st.wifi_password, '********');
    // Reload: the form starts from the masked value; saving another field keeps the stored password.
    await page.reload({ waitUntil: 'networkidle' });
    const again = page.locator('[data-form="/api/v1/settings/radio"]');
    await again.locator('.field').first().waitFor();
    await again.getByLabel('User name').fill('satuser2');
    await again.getByRole('button', { name: 'Save' }).click();
    await again.locator('.saved').waitFor();
    assert.equal(s.app.services.stores.radio.get().wifi_password, 'pa55word');
    assert.equal(s.app.services.stores.radio.get().wifi_username, 'satuser2');
    await again.getByLabel('Rig address').scrollIntoViewIfNeeded();
    await page.setViewportSize({ width: 480, height: 320 });
    await again.getByLabel('Rig address').scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-radio-wifi-480x320');
    await page.setViewportSize({ width: 1280, height: 800 });
    await again.getByLabel('Transport').scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-radio-wifi-1280x800');
    assert.deepEqual(unexpected(errors), []);
  });

  it('names the rigs, and shows only the fields of the chosen radio transport', async () => {
    await s.post('/api/v1/settings/radio', { transport: 'usb' });
    await page.reload({ waitUntil: 'networkidle' });
    const form = page.locator('[data-form="/api/v1/settings/radio"]');
    await form.locator('.field').first().waitFor();
    const rig = form.getByLabel('Rig', { exact: true });
    assert.deepEqual(await rig.locator('option').evaluateAll((os) => os.map((o) => [(o as HTMLOptionElement).value, o.textContent])), [
      ['rigA', 'Icom IC-705'],
      ['rigB', 'Icom IC-9700 (not validated)'],
      ['ft817', 'Yaesu FT-817 (not validated)'],
      ['ft818', 'Yaesu FT-818 (not validated)'],
      ['ft857', 'Yaesu FT-857 (not validated)'],
      ['ft897', 'Yaesu FT-897 (not validated)'],
      ['hamlib', 'Another radio, through Hamlib (not validated)'],
    ]);
    const shown = async (label: string) => form.getByLabel(label, { exact: true }).count();
    assert.deepEqual([await shown('Rig address'), await shown('Control port'), await shown('User name'), await shown('Password')], [0, 0, 0, 0], 'usb: no Wi-Fi login');
    assert.equal(await shown('Serial device'), 1);
    await form.getByLabel('Transport').scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-radio-usb-1280x800');
    await form.getByLabel('Transport').selectOption('wifi');
    assert.deepEqual([await shown('Rig address'), await shown('Control port'), await shown('User name'), await shown('Password')], [1, 1, 1, 1], 'wifi: the login');
    assert.deepEqual([await shown('Serial device'), await shown('Baud rate')], [0, 0], 'wifi: no serial port');
    // Wi-Fi is the IC-705's alone (the API's rule): another rig is back on USB, its port shown.
    await rig.selectOption('rigB');
    assert.deepEqual([await shown('Transport'), await shown('Rig address'), await shown('Serial device')], [0, 0, 1], 'IC-9700: USB');
    await form.getByRole('button', { name: 'Save' }).click();
    assert.match(await form.locator('.saved').innerText(), /Rig: Icom IC-9700 \(not validated\)/, 'the saved summary names the rig too');
    const st = (await s.get('/api/v1/settings/radio')).body.state;
    assert.deepEqual([st.rig_model, st.transport], ['rigB', 'usb'], 'the API value stays rigB');
    await rig.selectOption('rigA');
    await form.getByLabel('Transport').selectOption('wifi');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.locator('.saved', { hasText: 'Icom IC-705' }).waitFor();
    for (const vp of VIEWPORTS) {
      await page.setViewportSize(vp);
      await form.getByLabel('Transport').scrollIntoViewIfNeeded();
      await screenshot(page, `settings-radio-transport-${vp.name}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('shows only the fields of the chosen APRS transport, with the rigs named', async () => {
    await open(page, 'aprs');
    const form = page.locator('[data-form="/api/v1/settings/aprs"]', { has: page.getByRole('heading', { name: 'Transport and PTT' }) });
    await form.locator('.field').first().waitFor();
    const shown = async (label: string) => page.locator('#aprs').getByLabel(label, { exact: true }).count();
    assert.equal((await s.get('/api/v1/settings/aprs')).body.state.transport_mode, 'usb');
    assert.deepEqual([await shown('Audio input device'), await shown('PTT method'), await shown('KISS TNC host')], [1, 1, 1], 'usb: TNC, PTT and sound cards');
    assert.deepEqual([await shown('Rig address'), await shown('User name'), await shown('Password'), await shown('TX delay (ms)')], [0, 0, 0, 0], 'usb: no Wi-Fi login anywhere in APRS');
    assert.deepEqual(await form.getByLabel('Rig', { exact: true }).locator('option').allInnerTexts(), ['Icom IC-705', 'Icom IC-9700 (not validated)']);
    await form.getByLabel('Transport mode').selectOption('wifi');
    assert.deepEqual([await shown('Rig address'), await shown('User name'), await shown('Password'), await shown('TX delay (ms)')], [1, 1, 1, 1], 'wifi: the login and our modem');
    assert.deepEqual([await shown('Audio input device'), await shown('PTT method'), await shown('KISS TNC host'), await shown('Serial device')], [0, 0, 0, 0], 'wifi: no sound card, PTT line or TNC host');
    for (const vp of VIEWPORTS) {
      await page.setViewportSize(vp);
      await form.getByLabel('Transport mode').scrollIntoViewIfNeeded();
      await screenshot(page, `settings-aprs-wifi-${vp.name}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await form.getByLabel('Transport mode').selectOption('usb');
    assert.equal(await shown('Rig address'), 0);
  });

  it('warns when the saved callsign cannot go on the air (N0CALL), not only "Saved"', async () => {
    const form = page.locator('[data-form="/api/v1/settings/aprs"]', { has: page.getByRole('heading', { name: 'Station', exact: true }) });
    await form.getByLabel('Callsign').fill('N0CALL');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.locator('.saved').waitFor();
    const warning = form.locator('[data-form-warning]', { hasText: 'N0CALL' });
    await warning.waitFor();
    assert.match(await warning.innerText(), /N0CALL is a placeholder, not a callsign: nothing can be sent until you save your own callsign/);
    for (const vp of VIEWPORTS) {
      await page.setViewportSize(vp);
      await form.locator('.saved').scrollIntoViewIfNeeded();
      await screenshot(page, `settings-aprs-n0call-${vp.name}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await form.getByLabel('Callsign').fill('DL1ABC');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.locator('.saved', { hasText: 'DL1ABC' }).waitFor();
    await form.locator('[data-form-warning]').waitFor({ state: 'detached' });
    assert.deepEqual(unexpected(errors), []);
  });

  it('fits 480×320, 800×480, 1280×800 and 200% zoom', async () => {
    for (const vp of VIEWPORTS) {
      await page.setViewportSize(vp);
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `settings-${vp.name}`);
      assert.ok((await horizontalOverflow(page)) <= 0, vp.name);
    }
    const zoom = await openPage(browser, { width: 640, height: 400, deviceScaleFactor: 2 });
    await zoom.page.clock.install({ time: Date.parse(NOW) });
    await zoom.page.goto(s.base + '/settings#catalog', { waitUntil: 'networkidle' });
    await zoom.page.locator('[data-form="/api/v1/datasets/sources"] textarea').waitFor();
    await screenshot(zoom.page, 'settings-zoom200-catalog');
    assert.ok((await horizontalOverflow(zoom.page)) <= 0, '200%');
    assert.deepEqual(zoom.problems.errors, []);
    await zoom.context.close();
  });
});
