import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { systemClock } from '../../src/util/clock.js';
import { browserSkipReason, openPage, serverAndBrowser } from '../helpers/browser.js';

// Issue 9 budgets for /lite on a slow CPU (Chromium's 6× CPU throttling): the first useful
// frame (focus name and countdown) within 1.5 s, and between polls no work but the one-second
// tick. The figures are printed beside their budgets; per the developers' guide speed is not
// asserted by timed tests, but the absence of an animation loop and of extra renders is.

const FIRST_FRAME_BUDGET_MS = 1500;
const skip = browserSkipReason() ?? false;

describe('/lite on a 6× slower CPU', { skip }, () => {
  const env = serverAndBrowser({ clock: systemClock }, async (s) => {
    await s.get('/api/v1/lite/snapshot'); // the pass table is built: measure the page, not the first boot
  });

  it('shows its first useful frame, then idles but for the one-second tick', async () => {
    const { context, page, problems } = await openPage(env.browser, { width: 480, height: 320 });
    // Count animation frames and DOM updates from the first script on.
    await page.addInitScript(() => {
      const w = window as unknown as { __raf: number; __mutations: number; __firstFrame: number };
      w.__raf = 0;
      w.__mutations = 0;
      w.__firstFrame = 0;
      const raf = window.requestAnimationFrame.bind(window);
      window.requestAnimationFrame = (cb) => {
        w.__raf++;
        return raf(cb);
      };
      new MutationObserver(() => {
        w.__mutations++;
        // The first useful frame: focus name and countdown are in the DOM (painted next frame).
        if (!w.__firstFrame && document.querySelector('[data-countdown]') && document.querySelector('[data-focus-name]')) w.__firstFrame = performance.now();
      }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
    await cdp.send('Performance.enable');
    await page.goto(env.s.base + '/lite');
    await page.locator('[data-countdown]').waitFor();
    await page.locator('[data-focus-name]').waitFor();
    await page.waitForTimeout(200);
    // In the DOM at __firstFrame; on screen at the first contentful paint if that came later
    // (the page holds its first render until the snapshot is in, so the two are one frame).
    const { dom, fcp } = await page.evaluate(() => ({
      dom: (window as any).__firstFrame as number,
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0,
    }));
    const firstFrame = Math.max(dom, fcp);

    // Idle window: 10 s, which holds two polls (every 5 s) and ten ticks.
    const metric = async () => {
      const m = (await cdp.send('Performance.getMetrics')).metrics;
      return Object.fromEntries(m.map((x) => [x.name, x.value])) as Record<string, number>;
    };
    const w0 = await page.evaluate(() => ({ raf: (window as any).__raf, mutations: (window as any).__mutations }));
    const m0 = await metric();
    const WINDOW_S = 10;
    await page.waitForTimeout(WINDOW_S * 1000);
    const m1 = await metric();
    const w1 = await page.evaluate(() => ({ raf: (window as any).__raf, mutations: (window as any).__mutations }));
    const busyMsPerS = ((m1.TaskDuration - m0.TaskDuration) * 1000) / WINDOW_S;
    const scriptMsPerS = ((m1.ScriptDuration - m0.ScriptDuration) * 1000) / WINDOW_S;
    const updatesPerS = (w1.mutations - w0.mutations) / WINDOW_S;
    console.log(`/lite first useful frame at 6× CPU throttling: ${firstFrame.toFixed(0)} ms (budget ${FIRST_FRAME_BUDGET_MS} ms; in the DOM at ${dom.toFixed(0)} ms, first contentful paint ${fcp.toFixed(0)} ms)`);
    console.log(
      `/lite between polls at 6× throttling: main thread busy ${busyMsPerS.toFixed(1)} ms/s (script ${scriptMsPerS.toFixed(1)} ms/s), ` +
        `${updatesPerS.toFixed(1)} DOM mutation batches/s, ${w1.raf - w0.raf} animation frames requested (budget: one tick per second, no animation loop)`,
    );
    assert.equal(w1.raf - w0.raf, 0, 'no animation loop');
    // One tick a second plus a poll every 5 s; the two polls may each touch a few nodes.
    assert.ok(w1.mutations - w0.mutations <= WINDOW_S * 4 + 2 * 20, `DOM updates in ${WINDOW_S} s: ${w1.mutations - w0.mutations}`);
    assert.deepEqual(problems.errors, []);
    await context.close();
  });
});
