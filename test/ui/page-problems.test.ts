import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserSkipReason, openPage, serverAndBrowser } from '../helpers/browser.js';

// The page tests' problem collector: a poll that a reload or navigation aborts is not a fault of
// the page (the station view's test once failed on its /live poll aborted by page.reload());
// a request aborted for any other reason still is. A poll started while a navigation is on its
// way belongs to the old document too (test/ui/access.test.ts failed on one after a link click).

const skip = browserSkipReason() ?? false;

describe('page problems', { skip }, () => {
  const env = serverAndBrowser({ now: '2026-08-22T12:00:00Z' });

  it('a request the reload aborts is not counted; one the page aborts itself is', async () => {
    const { context, page, problems } = await openPage(env.browser, { width: 480, height: 320 });
    await page.goto(env.s.base + '/health');
    // Held at the browser's edge until the reload has aborted it.
    await page.route('**/held', () => {});
    const held = page.waitForRequest('**/held');
    await page.evaluate(() => void fetch('/held').catch(() => {}));
    await held;
    await page.reload();
    assert.deepEqual(problems.errors, [], 'aborted by the reload');
    // A poll the old document starts while a navigation is already on its way (a link, a form).
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    await page.route('**/next-page', async (route) => {
      await gate;
      await route.fulfill({ body: '<p>next</p>', contentType: 'text/html' });
    });
    const navigating = page.waitForRequest('**/next-page');
    const polled = page.waitForRequest('**/held');
    await page.evaluate(() => {
      location.href = '/next-page';
      setTimeout(() => void fetch('/held').catch(() => {}), 50);
    });
    const [nav, poll] = await Promise.all([navigating, polled]);
    assert.ok(nav && poll);
    release();
    await page.waitForURL('**/next-page');
    assert.deepEqual(problems.errors, [], 'aborted by the navigation under way when it started');
    const failed = page.waitForEvent('requestfailed');
    await page.evaluate(async () => {
      const c = new AbortController();
      const p = fetch('/held', { signal: c.signal }).catch(() => {});
      await new Promise((r) => setTimeout(r, 50));
      c.abort();
      await p;
    });
    await failed;
    assert.equal(problems.errors.length, 1, problems.errors.join('; '));
    assert.match(problems.errors[0], /request failed: GET .*\/held net::ERR_ABORTED/);
    await context.close();
  });
});
