import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { FixedClock } from '../../src/util/clock.js';
import { browserSkipReason, openPage, screenshot, serverAndBrowser } from '../helpers/browser.js';

// Issue 32: the Log sheet asks for the mode when nothing else gives it. On /lite at 480×320 with
// no pass under way and no rig, a mode picker appears (GET /api/v1/logbook/qso/mode says null),
// Log waits for a choice, and the choice is sent as `mode`; during a pass the frequency guide
// gives the mode and the sheet stays as it was.

const NOW = '2026-08-22T12:00:00Z';
const skip = browserSkipReason() ?? false;

/** An element wholly on screen and not covered by anything else. */
const visibleWhole = (page: Page, sel: string) =>
  page.locator(sel).first().evaluate((e) => {
    const r = e.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5 && !!hit && (hit === e || e.contains(hit));
  });

describe('the Log sheet asks for the mode', { skip }, () => {
  const clock = new FixedClock(Date.parse(NOW));
  const env = serverAndBrowser({ clock }, (s) => s.post('/api/v1/settings/logbook', { station_callsign: 'DL1ABC' }));

  /** /lite at 480×320 at the server's time, the Log sheet open once the station's mode is known. */
  async function openLog(time: number) {
    const o = await openPage(env.browser, { width: 480, height: 320 });
    await o.page.clock.install({ time });
    const asked = o.page.waitForResponse((r) => r.url().includes('/api/v1/logbook/qso/mode'));
    await o.page.goto(env.s.base + '/lite');
    await o.page.locator('[data-log-open]').click();
    await o.page.locator('[data-log-sheet] input[name=call]').waitFor();
    assert.equal((await asked).status(), 200);
    return o;
  }

  it('with no satellite and no rig: a picker, Log waits for a mode, the mode chosen is logged', async () => {
    const { context, page, problems } = await openLog(clock.now());
    // Outside a pass the sheet offers the focus satellite with its guide's mode (issue 33): a QSO
    // off the satellites is "no satellite", where nothing gives the mode.
    await page.locator('[data-log-sheet] select[name=sat_id]').selectOption('');
    const picker = page.locator('[data-log-sheet] select[name=mode]');
    await picker.waitFor();
    assert.match(await page.locator('[data-mode-hint]').innerText(), /choose/);
    await page.locator('[data-log-sheet] input[name=call]').fill('n1xyz');
    assert.equal(await page.locator('[data-log-submit]').isDisabled(), true, 'no mode yet: Log waits');
    for (const sel of ['[data-log-sheet] select[name=mode]', '[data-log-submit]', '[data-mode-hint]']) assert.ok(await visibleWhole(page, sel), `${sel} whole on screen`);
    const h = await picker.evaluate((e) => e.getBoundingClientRect().height);
    assert.ok(h >= 43.5, `the picker is a 44 px touch target (${h})`);
    assert.deepEqual(
      await picker.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value)),
      ['', 'FM', 'USB', 'LSB', 'CW', 'AM', 'PKT', 'FT8', 'FT4', 'PSK31', 'SSTV', 'RTTY', 'DSTAR'],
    );
    await screenshot(page, 'logbook-mode-picker-480x320');

    await picker.selectOption('USB');
    assert.equal(await page.locator('[data-mode-hint]').count(), 0);
    await page.locator('[data-log-submit]').click();
    const done = page.locator('[data-logged]');
    await done.waitFor();
    const q = (await env.s.get('/api/v1/logbook')).body.items[0];
    assert.deepEqual([q.call, q.sat_id, q.mode, q.submode], ['N1XYZ', null, 'SSB', 'USB']);
    assert.match(await done.innerText(), /SSB USB/);
    const o = await page.evaluate(() => ({ y: document.documentElement.scrollHeight - innerHeight, x: document.documentElement.scrollWidth - innerWidth }));
    assert.ok(o.x <= 0 && o.y <= 0, `no page scrolling: ${JSON.stringify(o)}`);
    await screenshot(page, 'logbook-mode-logged-480x320');
    assert.deepEqual(problems.errors, []);
    await context.close();
  });

  it('during a pass the guide gives the mode: no picker, one tap logs', async () => {
    const p = env.s.app.services.orbit.passes({ from_ms: clock.now(), hours: 24, min_max_el_deg: 10, sat_ids: ['iss'], include_ongoing: false })[0];
    assert.ok(p, 'an ISS pass within a day');
    clock.set(Math.round((p.aos_ms + p.los_ms) / 2));
    const { context, page, problems } = await openLog(clock.now());
    await page.locator('[data-countdown]').waitFor();
    assert.equal(await page.locator('[data-log-sheet] select[name=mode]').count(), 0, 'no picker');
    await page.locator('[data-log-sheet] input[name=call]').fill('ve3xyz');
    await page.locator('[data-log-submit]').click();
    await page.locator('[data-logged]').waitFor();
    const q = (await env.s.get('/api/v1/logbook')).body.items[0];
    assert.deepEqual([q.call, q.sat_id, q.mode], ['VE3XYZ', 'iss', 'FM']);
    await screenshot(page, 'logbook-mode-from-guide-480x320');
    assert.deepEqual(problems.errors, []);
    await context.close();
  });
});
