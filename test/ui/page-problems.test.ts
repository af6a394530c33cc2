import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserSkipReason, openPage, serverAndBrowser } from '../helpers/browser.js';

// The page tests' problem collector: a poll that a reload or navigation aborts is not a fault of
// the page (the station view's test once failed on its /live poll aborted by page.reload());
// a request aborted for any other reason still is.

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
