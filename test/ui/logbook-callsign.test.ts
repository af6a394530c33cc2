import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VIEWPORTS, browserSkipReason, openPage, screenshot, serverAndBrowser } from '../helpers/browser.js';

// Issue 33: the /settings Logbook section warns before the first QSO when no station callsign
// is set (neither the logbook's nor a valid APRS one), and only then.

const skip = browserSkipReason() ?? false;

describe('/settings Logbook: no station callsign', { skip }, () => {
  const env = serverAndBrowser({ now: '2026-08-22T12:00:00Z' });

  it('warns at every size while no callsign is set, and not once one is', async () => {
    for (const vp of VIEWPORTS) {
      const { context, page, problems } = await openPage(env.browser, vp);
      await page.goto(env.s.base + '/settings#logbook');
      const warn = page.locator('#logbook [data-no-station-call]');
      await warn.waitFor();
      assert.match(await warn.innerText(), /No callsign: no QSO can be logged/);
      await warn.scrollIntoViewIfNeeded();
      await screenshot(page, `logbook-no-callsign-${vp.name}`);
      assert.deepEqual(problems.errors, []);
      await context.close();
    }
    assert.equal((await env.s.post('/api/v1/settings/logbook', { station_callsign: 'DL1ABC' })).status, 200);
    const { context, page } = await openPage(env.browser, VIEWPORTS[1]);
    await page.goto(env.s.base + '/settings#logbook');
    await page.locator('#logbook input[name=station_callsign]').waitFor();
    assert.equal(await page.locator('#logbook input[name=station_callsign]').inputValue(), 'DL1ABC');
    assert.equal(await page.locator('#logbook [data-no-station-call]').count(), 0);
    await context.close();
  });
});
