import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserSkipReason, horizontalOverflow, openPage, screenshot, serverAndBrowser, VIEWPORTS } from '../helpers/browser.js';

// A QSO logged while the Cloudlog push is off waits for nothing (issue 33): the pages say "not
// pushed (push off)", not "push pending", and the counts say "1 QSO", not "1 QSOs"; with the push
// on, the same QSO is pending again.

const NOW = '2026-08-22T12:00:00Z';
const skip = browserSkipReason() ?? false;

describe('logbook push labels with the push off', { skip }, () => {
  const env = serverAndBrowser({ now: NOW }, async (s) => {
    assert.equal((await s.post('/api/v1/settings/logbook', { station_callsign: 'DL1ABC' })).status, 200);
  });

  it('logs from /radio and says "not pushed (push off)" in the answer and the recent list, at every size', async () => {
    for (const [i, vp] of VIEWPORTS.entries()) {
      const { context, page, problems } = await openPage(env.browser, vp);
      await page.clock.install({ time: Date.parse(NOW) });
      await page.goto(env.s.base + '/radio', { waitUntil: 'networkidle' });
      const panel = page.locator('[data-logbook-recent]');
      await panel.locator('input[name=call]').fill(['W1AW', 'K1ABC', 'VE3XYZ'][i]);
      // No rig and no pass: the station cannot tell the mode, the sheet asks.
      await panel.locator('[data-log-mode]').selectOption('FM');
      await panel.locator('[data-log-submit]').click();
      const done = panel.locator('[data-logged]');
      await done.waitFor();
      assert.match(await done.innerText(), /not pushed \(push off\)/);
      await page.waitForFunction((n) => document.querySelectorAll('[data-logbook-recent] [data-qso]').length === n, i + 1);
      const rows = await panel.locator('[data-qso]').allInnerTexts();
      assert.ok(rows.every((r) => r.includes('not pushed (push off)')), rows.join(' | '));
      assert.doesNotMatch(await page.locator('main').innerText(), /push pending/);
      assert.equal(await horizontalOverflow(page), 0);
      await panel.scrollIntoViewIfNeeded();
      await screenshot(page, `logbook-push-off-radio-${vp.name}`);
      assert.deepEqual(problems.errors, []);
      await context.close();
    }
  });

  it('counts them as not pushed, in the status and on the settings section, with singular and plural right', async () => {
    const st = (await env.s.get('/api/v1/logbook/status')).body;
    assert.deepEqual([st.records, st.push_enabled, st.pending, st.not_pushed, st.failed], [3, false, 0, 3, 0]);
    const one = (await env.s.get('/api/v1/logbook')).body.items.slice(1);
    for (const q of one) assert.equal((await env.s.post('/api/v1/logbook/qso/delete', { id: q.id })).status, 200);
    for (const vp of VIEWPORTS) {
      const { context, page, problems } = await openPage(env.browser, vp);
      await page.goto(env.s.base + '/settings#logbook');
      const status = page.locator('[data-logbook-status]');
      await status.waitFor();
      assert.equal((await status.innerText()).replace(/\s+/g, ' ').trim(), '1 QSO · 1 not pushed (push off)');
      await page.locator('#logbook [data-qso]').first().waitFor();
      assert.match(await page.locator('#logbook [data-qso]').first().innerText(), /not pushed \(push off\)/);
      await status.scrollIntoViewIfNeeded();
      await screenshot(page, `logbook-push-off-settings-${vp.name}`);
      assert.deepEqual(problems.errors, []);
      await context.close();
    }
    // The push on (to a logger that is not there): the same QSO is pending, and counted so.
    const on = await env.s.post('/api/v1/settings/logbook', { cloudlog_enabled: true, cloudlog_url: 'http://127.0.0.1:9', cloudlog_api_key: 'k', cloudlog_station_profile_id: '1' });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    const st2 = (await env.s.get('/api/v1/logbook/status')).body;
    assert.deepEqual([st2.records, st2.push_enabled, st2.pending, st2.not_pushed], [1, true, 1, 0]);
    assert.equal((await env.s.get('/api/v1/logbook')).body.push_enabled, true);
    assert.equal((await env.s.post('/api/v1/settings/logbook', { cloudlog_enabled: false })).status, 200);
  });
});
