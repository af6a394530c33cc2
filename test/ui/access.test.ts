import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { browserSkipReason, launch, openPage, screenshot, startUiServer } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';

// The operator lock in Debian's Chromium: lock from /settings, a second browser that is not
// signed in sees "locked" and is refused, signs in on /login and is sent back.

const NOW = '2026-08-22T12:00:00Z';
const TOKEN = 'field-day-2026';
const skip = browserSkipReason() ?? false;

describe('operator lock pages', { skip }, () => {
  let s: TestServer;
  let browser: Browser;
  before(async () => {
    s = await startUiServer({ now: NOW });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await s?.stop();
  });

  it('/settings says plainly the station is open, and locks it with a token', async () => {
    const { page, problems, context } = await openPage(browser, { width: 1280, height: 800 });
    await page.goto(s.base + '/settings#access', { waitUntil: 'networkidle' });
    await page.locator('[data-lock-badge="open"]').first().waitFor();
    assert.match(await page.locator('[data-access]').innerText(), /Anyone who can reach this appliance can change settings/);
    await screenshot(page, 'settings-access-open-1280x800');
    await page.fill('[data-access] input[type=password]', TOKEN);
    await page.click('text=Lock the station');
    await page.locator('[data-access="locked"]').waitFor();
    assert.match(await page.locator('[data-lock-badge]').first().innerText(), /locked · signed in/);
    await screenshot(page, 'settings-access-locked-1280x800');
    assert.deepEqual(problems.errors, []);
    await context.close();
    assert.equal((await s.get('/api/v1/access')).body.locked, true);
  });

  it('a browser that is not signed in can read every page, is refused a change, and signs in on /login', async () => {
    const { page, problems, context } = await openPage(browser, { width: 480, height: 320 });
    for (const p of ['/', '/lite', '/radio', '/aprs']) {
      await page.goto(s.base + p, { waitUntil: 'networkidle' });
      assert.ok(!problems.errors.some((e) => /HTTP 401/.test(e)), `${p}: ${problems.errors.join('; ')}`);
    }
    await page.goto(s.base + '/settings#display', { waitUntil: 'networkidle' });
    const tz = page.locator('[data-form="/api/v1/settings/timezone"]');
    await tz.locator('input').first().fill('Europe/Berlin');
    await tz.locator('button[type=submit]').click();
    const refused = tz.locator('[role=alert]');
    await refused.waitFor();
    assert.match(await refused.innerText(), /station is locked/);
    await refused.locator('a', { hasText: 'Sign in' }).waitFor();
    await screenshot(page, 'settings-locked-refused-480x320');

    await page.goto(s.base + '/settings#access', { waitUntil: 'networkidle' });
    assert.equal(await page.locator('[data-lock-badge]').first().innerText(), 'locked');
    await page.click('[data-access] a:has-text("Sign in")');
    await page.waitForURL(/\/login\?next=/);
    await page.fill('input[name=token]', 'not the token');
    await page.click('button:has-text("Sign in")');
    await page.locator('[data-outcome="login"]').waitFor();
    assert.match(await page.locator('[data-outcome="login"]').innerText(), /Wrong operator token/);
    await screenshot(page, 'login-wrong-480x320');
    await page.fill('input[name=token]', TOKEN);
    await page.click('button:has-text("Sign in")');
    await page.waitForURL(/\/settings$/);
    await page.locator('[data-lock-badge="locked"]', { hasText: 'signed in' }).first().waitFor({ timeout: 5000 });
    await screenshot(page, 'settings-access-signed-in-480x320');
    const c = (await context.cookies()).find((k) => k.name === 'satstation_operator');
    assert.equal(c?.httpOnly, true);
    assert.equal(c?.sameSite, 'Strict');
    assert.deepEqual(problems.errors.filter((e) => !/\b401\b/.test(e)), []);
    await context.close();
  });
});
