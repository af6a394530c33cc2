import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserSkipReason, horizontalOverflow, openPage, screenshot, serverAndBrowser, VIEWPORTS } from '../helpers/browser.js';

// /lite/settings on a fresh install, on the real server and Debian's Chromium: the "Setup
// complete" box says what the API holds, and what it shows is what Save sends.

const NOW = '2026-08-22T12:00:00Z';
const skip = browserSkipReason() ?? false;

describe('/lite/settings "Setup complete"', { skip }, () => {
  const env = serverAndBrowser({ now: NOW });

  it('is unticked on a fresh install, as the API says', async () => {
    assert.equal((await env.s.get('/api/v1/settings/lite')).body.state.setup_complete, false);
    for (const vp of VIEWPORTS) {
      const { context, page, problems } = await openPage(env.browser, vp);
      await page.goto(env.s.base + '/lite/settings');
      const box = page.getByLabel('Setup complete');
      // Loaded: the list of satellites is there (the box may only show the API's value by then).
      await page.locator('[data-sat="iss"]').waitFor();
      await page.waitForFunction(() => !document.querySelector<HTMLInputElement>('.controls input[type=checkbox]')?.disabled);
      assert.equal(await box.isChecked(), false, vp.name);
      await screenshot(page, `lite-settings-fresh-${vp.name}`);
      assert.ok((await horizontalOverflow(page)) <= 0, vp.name);
      assert.deepEqual(problems.errors, []);
      await context.close();
    }
  });

  it('choosing satellites ticks it visibly; the operator may untick it; Save sends what is shown', async () => {
    const { context, page, problems } = await openPage(env.browser, { width: 800, height: 480 });
    await page.goto(env.s.base + '/lite/settings');
    await page.locator('[data-sat="iss"]').waitFor();
    const box = page.getByLabel('Setup complete');
    await page.waitForFunction(() => !document.querySelector<HTMLInputElement>('.controls input[type=checkbox]')?.disabled);
    await page.locator('input[type=search]').fill('so-50');
    await page.locator('[data-sat="so-50"]').check();
    assert.equal(await box.isChecked(), true, 'choosing the set is the setup');
    await box.uncheck();
    await page.locator('input[type=search]').fill('ao-91');
    await page.locator('[data-sat="ao-91"]').check();
    assert.equal(await box.isChecked(), false, "the operator's own choice stays");
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('[data-saved]').waitFor();
    assert.deepEqual((await env.s.get('/api/v1/settings/lite')).body.state, { tracked_sat_ids: ['iss', 'so-50', 'ao-91'], setup_complete: false });

    await box.check();
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/v1/settings/lite') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Save' }).click();
    await (await answered).finished();
    await page.getByRole('button', { name: 'Save' }).and(page.locator(':enabled')).waitFor();
    assert.equal((await env.s.get('/api/v1/settings/lite')).body.state.setup_complete, true);
    await page.reload();
    await page.locator('[data-sat="iss"]').waitFor();
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('.controls input[type=checkbox]')?.checked === true);
    await screenshot(page, 'lite-settings-complete-800x480');
    assert.deepEqual(problems.errors, []);
    await context.close();
  });
});
