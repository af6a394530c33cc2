import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, horizontalOverflow, openPage, screenshot, serverAndBrowser, VIEWPORTS } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';

// The frequency-profile editor on /settings (issue 27), in Chromium against the real server and
// the bundled SatNOGS data: the attribution its licence asks for, a satellite found by name,
// its profile opened in MHz, saved as the operator's (the API gets Hz, the next pass's Doppler
// result follows at once), a 400 shown beside the field it names, and "back to the data's
// profile" returning the SatNOGS one.

const NOW = '2026-08-22T12:00:00Z';
const skip = browserSkipReason() ?? false;
/** A 400 the test provokes on purpose is not a page problem. */
const unexpected = (errors: string[]) => errors.filter((e) => !/HTTP 400: POST .*\/api\/v1\/frequency-guides\/profiles|status of 400/.test(e));

interface Listed {
  sat_id: string;
  name: string;
  source: string;
  receive_only: boolean;
  profile: { mode: string; columns: Array<{ uplink_hz: number | null; downlink_hz: number }>; ctcss_hz?: number };
}

const listed = async (s: TestServer, sat: string): Promise<Listed> => (await s.get('/api/v1/frequency-guides/profiles')).body.items.find((p: Listed) => p.sat_id === sat);
const recommendation = async (s: TestServer, sat: string) => (await s.get(`/api/v1/frequency-guides/recommendation?sat_id=${sat}&min_max_el=0`)).body.recommendation;

/** A two-way FM satellite from the SatNOGS data with a pass to come: the most fields to edit. */
async function twoWayFm(s: TestServer): Promise<Listed> {
  const items: Listed[] = (await s.get('/api/v1/frequency-guides/profiles')).body.items;
  for (const p of items.filter((x) => x.source === 'transmitters' && x.profile.mode === 'fm' && !x.receive_only)) {
    if (await recommendation(s, p.sat_id)) return p;
  }
  throw new Error('no two-way FM profile with a pass in the bundled data');
}

async function openEditor(page: Page, base: string, p: Listed) {
  await page.goto(base + '/settings#profiles');
  const section = page.locator('#profiles');
  await section.locator('[data-attribution]').waitFor();
  await section.locator('[data-profile-search]').fill(p.name);
  await section.locator(`[data-profile-row="${p.sat_id}"]`).click();
  const editor = section.locator(`[data-profile-editor="${p.sat_id}"]`);
  await editor.waitFor();
  return editor;
}

describe('/settings: frequency profiles', { skip }, () => {
  const env = serverAndBrowser({ now: NOW }, (s) => s.app.services.orbit.table.ready());

  it('round trip: edit a SatNOGS profile as the operator, see the next pass follow, go back to the data', async () => {
    const p = await twoWayFm(env.s);
    const down0 = p.profile.columns[0].downlink_hz;
    const rec0 = await recommendation(env.s, p.sat_id);
    const { context, page, problems } = await openPage(env.browser, VIEWPORTS[1]);
    await page.clock.install({ time: Date.parse(NOW) });
    const editor = await openEditor(page, env.s.base, p);

    // The attribution the CC BY-SA licence asks for: publisher, licence with its link, date.
    const attr = page.locator('#profiles [data-attribution]');
    assert.match(await attr.innerText(), /Libre Space Foundation/);
    assert.match(await attr.innerText(), /\d{4}-\d{2}-\d{2}/);
    assert.equal(await attr.getByRole('link', { name: 'CC BY-SA 4.0' }).getAttribute('href'), 'https://creativecommons.org/licenses/by-sa/4.0/');
    // The row says where the profile came from.
    assert.match(await page.locator(`[data-profile-row="${p.sat_id}"]`).innerText(), /SatNOGS/);

    // The profile in MHz, and the next pass's result for it.
    const downField = editor.getByLabel('↓ Downlink MHz');
    assert.equal(Number(await downField.inputValue()), down0 / 1e6);
    assert.equal(Number(await editor.getByLabel('↑ Uplink MHz').inputValue()), p.profile.columns[0].uplink_hz! / 1e6);
    const result = editor.locator('[data-next-pass] [data-tune]');
    await result.waitFor();
    assert.match(await result.innerText(), new RegExp(`↓ ${rec0.downlink_mhz.toFixed(3).replace('.', '\\.')}`));
    assert.match(await editor.locator('[data-next-pass-time]').innerText(), /\d\d:\d\d–\d\d:\d\d · max \d+°/);
    await screenshot(page, 'profiles-editor-open-800x480');

    // Save 100 kHz higher with another tone: stored in Hz as the operator's profile.
    const down1 = down0 + 100_000;
    await downField.fill((down1 / 1e6).toFixed(3));
    await editor.getByLabel('CTCSS tone Hz (empty: none)').fill('88.5');
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.locator('[data-profile-saved]').waitFor();
    const mine = await listed(env.s, p.sat_id);
    assert.equal(mine.source, 'operator');
    assert.equal(mine.profile.columns[0].downlink_hz, down1);
    assert.equal(mine.profile.ctcss_hz, 88.5);
    // The next pass's Doppler result follows at once: the API's new figures on the page.
    const rec1 = await recommendation(env.s, p.sat_id);
    assert.ok(Math.abs(rec1.downlink_hz - rec0.downlink_hz - 100_000) < 5_000, 'the recommendation moved with the profile');
    await editor.locator('[data-next-pass] [data-tune]', { hasText: `↓ ${rec1.downlink_mhz.toFixed(3)}` }).waitFor();
    assert.match(await result.innerText(), /88\.5 Hz/);
    await page.locator(`[data-profile-row="${p.sat_id}"] [data-source="operator"]`).waitFor();
    await editor.locator('[data-next-pass]').scrollIntoViewIfNeeded();
    await screenshot(page, 'profiles-editor-saved-800x480');

    // Back to the data's profile (a confirmed press): SatNOGS again, figures as before.
    const back = editor.getByRole('button', { name: "Back to the data's profile" });
    await back.click();
    await editor.getByRole('button', { name: /Confirm/ }).click();
    await editor.locator('[data-profile-saved]', { hasText: 'Back to the SatNOGS profile' }).waitFor();
    assert.equal((await listed(env.s, p.sat_id)).source, 'transmitters');
    await editor.locator('[data-next-pass] [data-tune]', { hasText: `↓ ${rec0.downlink_mhz.toFixed(3)}` }).waitFor();
    assert.equal(Number(await downField.inputValue()), down0 / 1e6, 'the form shows the data again');
    await page.locator(`[data-profile-row="${p.sat_id}"] [data-source="transmitters"]`).waitFor();
    await screenshot(page, 'profiles-editor-reverted-800x480');
    assert.deepEqual(problems.errors, []);
    await context.close();
  });

  it('shows the API refusal beside the field it names, stores nothing, and fits 480×320 and 1280×800', async () => {
    const p = await twoWayFm(env.s);
    const { context, page, problems } = await openPage(env.browser, VIEWPORTS[0]);
    await page.clock.install({ time: Date.parse(NOW) });
    const editor = await openEditor(page, env.s.base, p);
    await editor.getByLabel('CTCSS tone Hz (empty: none)').fill('300');
    await editor.getByLabel('↓ Downlink MHz').fill('');
    await editor.getByRole('button', { name: 'Save' }).click();
    const tone = editor.locator('[data-field-error="ctcss_hz"]');
    await tone.waitFor();
    assert.match(await tone.innerText(), /260/);
    assert.equal(await editor.getByLabel('CTCSS tone Hz (empty: none)').getAttribute('aria-invalid'), 'true');
    const down = editor.locator('[data-field-error="columns.0.downlink_hz"]');
    await down.waitFor();
    // The message sits in the downlink's own field, not at the top of the form.
    assert.equal(await down.evaluate((e) => e.parentElement!.querySelector('input')!.id), 'pf-columns.0.downlink_hz');
    assert.equal((await listed(env.s, p.sat_id)).source, 'transmitters', 'nothing stored by the refusal');
    await tone.scrollIntoViewIfNeeded();
    assert.ok((await horizontalOverflow(page)) <= 0, 'fits 480 px');
    await screenshot(page, 'profiles-editor-field-error-480x320');
    await page.setViewportSize(VIEWPORTS[2]);
    await page.locator('#profiles').scrollIntoViewIfNeeded();
    await screenshot(page, 'profiles-editor-field-error-1280x800');
    assert.deepEqual(unexpected(problems.errors), []);
    await context.close();
  });

  it('receive only: the switch nulls the uplink and the next pass reads ↓ only', async () => {
    const p = await twoWayFm(env.s);
    const { context, page, problems } = await openPage(env.browser, VIEWPORTS[0]);
    await page.clock.install({ time: Date.parse(NOW) });
    const editor = await openEditor(page, env.s.base, p);
    await editor.getByLabel('Receive only (no uplink)').check();
    assert.equal(await editor.getByLabel('↑ Uplink MHz').isDisabled(), true);
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.locator('[data-profile-saved]').waitFor();
    const mine = await listed(env.s, p.sat_id);
    assert.equal(mine.receive_only, true);
    assert.equal(mine.profile.columns[0].uplink_hz, null);
    const result = editor.locator('[data-next-pass] [data-tune][data-receive-only]');
    await result.waitFor();
    assert.doesNotMatch(await result.innerText(), /↑/);
    await result.scrollIntoViewIfNeeded();
    await screenshot(page, 'profiles-editor-receive-only-480x320');
    assert.equal((await env.s.post('/api/v1/frequency-guides/profiles/delete', { sat_id: p.sat_id })).status, 200);
    assert.deepEqual(problems.errors, []);
    await context.close();
  });
});
