import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UI_ROUTES } from '../../src/http/ui-pages.js';
import { browserSkipReason, horizontalOverflow, openPage, screenshot, serverAndBrowser, VIEWPORTS } from '../helpers/browser.js';

// Every page route at each screen size: it renders, with no console error, no failed
// request, nothing wider than the screen; a screenshot of each is written on every run.

const NOW = '2026-08-22T12:00:00Z';
const skip = browserSkipReason() ?? false;

describe('every page in Chromium', { skip }, () => {
  // A loopback stream URL: the kiosk's ISS scene may embed it, and tests have no internet.
  const env = serverAndBrowser({ now: NOW }, (s) => s.post('/api/v1/settings/iss-display-mode', { stream_url: `${s.base}/health` }));

  const routes = UI_ROUTES.filter((r) => r.path !== '/settings-v2');
  for (const vp of VIEWPORTS) {
    it(`loads every page at ${vp.name} without errors or overflow`, async () => {
      for (const r of routes) {
        const { context, page, problems } = await openPage(env.browser, vp);
        await page.clock.install({ time: Date.parse(NOW) });
        await page.goto(env.s.base + r.path, { waitUntil: 'networkidle' });
        await page.waitForFunction(() => (document.getElementById('app')?.textContent ?? '').length > 20);
        await screenshot(page, `${r.page}-${vp.name}`);
        assert.deepEqual(problems.errors, [], `${r.path} at ${vp.name}`);
        assert.ok((await horizontalOverflow(page)) <= 0, `${r.path} is wider than ${vp.name}`);
        await context.close();
      }
    });
  }

  it('serves /settings-v2 as the settings page', async () => {
    const { context, page, problems } = await openPage(env.browser, VIEWPORTS[2]);
    const res = await page.goto(env.s.base + '/settings-v2', { waitUntil: 'networkidle' });
    assert.equal(res?.headers()['x-page'], 'settings');
    assert.deepEqual(problems.errors, []);
    await context.close();
  });

  it('stays usable at 200% zoom (1280×800 seen as 640×400 CSS pixels)', async () => {
    for (const r of routes) {
      const { context, page, problems } = await openPage(env.browser, { width: 640, height: 400, deviceScaleFactor: 2 });
      await page.clock.install({ time: Date.parse(NOW) });
      await page.goto(env.s.base + r.path, { waitUntil: 'networkidle' });
      await screenshot(page, `${r.page}-zoom200`);
      assert.deepEqual(problems.errors, [], r.path);
      assert.ok((await horizontalOverflow(page)) <= 0, `${r.path} overflows at 200%`);
      await context.close();
    }
  });

  it('can be used by keyboard: every control is reachable with Tab and shows focus', async () => {
    for (const r of routes) {
      const { context, page } = await openPage(env.browser, VIEWPORTS[2]);
      await page.clock.install({ time: Date.parse(NOW) });
      await page.goto(env.s.base + r.path, { waitUntil: 'networkidle' });
      const controls = await page.locator('a[href], button, input, select, textarea').count();
      const reached = new Set<string>();
      for (let i = 0; i < Math.min(controls, 40); i++) {
        await page.keyboard.press('Tab');
        const tag = await page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          if (!el || el === document.body) return null;
          return `${el.tagName}:${el.textContent?.slice(0, 20)}:${getComputedStyle(el).outlineStyle}`;
        });
        if (tag) reached.add(tag);
      }
      // The kiosk has no controls by design (an unattended display); every other page has some.
      if (controls > 0) assert.ok(reached.size > 0, `${r.path}: Tab reaches no control`);
      assert.ok([...reached].every((t) => !t.endsWith(':none')), `${r.path}: a focused control shows no outline: ${[...reached].join(' | ')}`);
      await context.close();
    }
  });
});
