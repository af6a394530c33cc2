import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { VIEWPORTS, browserSkipReason, openPage, screenshot, serverAndBrowser } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';
import type { FixedClock } from '../../src/util/clock.js';

// /lite on the second evening (issue 33): old elements warned at every size, status lines in
// words that fit, the tone beside its uplink, tomorrow's chips marked, readable compass letters
// at night. Real server, Debian's Chromium, screenshots in test/artifacts/.

const NOW = '2026-08-22T20:00:00Z';
const DAY_MS = 86_400_000;
const TRACKED = ['iss', 'so-50', 'ao-91', 'ao-27', 'fo-29', 'ao-7'];
const skip = browserSkipReason() ?? false;

async function openLite(browser: Browser, s: TestServer, size: { width: number; height: number }, at = NOW) {
  const o = await openPage(browser, size);
  await o.page.clock.install({ time: Date.parse(at) });
  await o.page.goto(s.base + '/lite?sat_id=so-50');
  await o.page.locator('[data-countdown], [data-no-pass]').first().waitFor();
  return o;
}

/** Whether the element's text is cut (ellipsized or clipped by its box). */
const clipped = (page: Page, sel: string) => page.locator(sel).first().evaluate((e) => e.scrollWidth > e.clientWidth + 1);

/** Is the element drawn at its own centre (on screen and not covered)? */
const visibleAtCentre = (page: Page, sel: string) =>
  page.locator(sel).first().evaluate((e) => {
    const r = e.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return r.width > 0 && r.bottom <= innerHeight && !!hit && (hit === e || e.contains(hit));
  });

function luminance(rgb: string): number {
  const [r, g, b] = rgb.match(/\d+/g)!.slice(0, 3).map((x) => {
    const c = Number(x) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

describe('/lite, the second evening', { skip }, () => {
  const env = serverAndBrowser({ now: NOW }, (s) => s.post('/api/v1/settings/lite', { tracked_sat_ids: TRACKED, setup_complete: true }));

  it('warns of old elements at every size, whole', async () => {
    const later = new Date(Date.parse(NOW) + 98 * DAY_MS).toISOString();
    const clock = env.s.clock as FixedClock;
    clock.set(later);
    try {
    for (const vp of VIEWPORTS) {
      const { context, page } = await openLite(env.browser, env.s, vp, later);
      const warn = page.locator('[data-element-age]');
      await screenshot(page, `lite-old-elements-${vp.name}`);
      assert.equal(await warn.count(), 1, `one element-age warning at ${vp.name}`);
      assert.ok(await warn.isVisible(), `the warning shows at ${vp.name}`);
      assert.match(await warn.innerText(), /elements 98 d old: refresh before trusting AOS times/);
      assert.equal(await clipped(page, '[data-element-age]'), false, `the warning is whole at ${vp.name}`);
      await context.close();
    }
    } finally {
      clock.set(NOW);
    }
  });

  it('says the radio and APRS lines in words that fit', async () => {
    for (const vp of VIEWPORTS) {
      const { context, page, problems } = await openLite(env.browser, env.s, vp);
      for (const sel of ['[data-radio-line]', '[data-aprs-line]']) {
        const text = await page.locator(sel).innerText();
        assert.ok(!(await clipped(page, sel)), `${sel} "${text}" is whole at ${vp.name}`);
      }
      if (vp.width > 520) assert.match(await page.locator('[data-aprs-line]').innerText(), /aprs: off · no callsign/);
      else assert.equal(await page.locator('[data-aprs-line]').innerText(), 'APRS off');
      await screenshot(page, `lite-status-words-${vp.name}`);
      assert.deepEqual(problems.errors, []);
      await context.close();
    }
  });

  it('keeps the CTCSS tone with its uplink', async () => {
    for (const vp of VIEWPORTS) {
      const { context, page } = await openLite(env.browser, env.s, vp);
      const tone = page.locator('[data-tune] [title="CTCSS tone"]');
      assert.match(await tone.innerText(), /67\.0 Hz/);
      const top = (sel: string) => page.locator(sel).first().evaluate((e) => Math.round(e.getBoundingClientRect().top));
      const upTop = await page.locator('[data-tune] [title="uplink (transmit)"] b').evaluate((e) => e.getBoundingClientRect().bottom);
      const toneBox = await tone.evaluate((e) => e.getBoundingClientRect());
      assert.ok(toneBox.top < upTop && toneBox.bottom > upTop - 10, `the tone is on the uplink's line at ${vp.name} (${await top('[data-tune] [title="CTCSS tone"]')} vs ${upTop})`);
      await screenshot(page, `lite-tone-${vp.name}`);
      await context.close();
    }
  });

  it("marks a chip's pass tomorrow", async () => {
    for (const vp of VIEWPORTS) {
      const { context, page } = await openLite(env.browser, env.s, vp);
      const chips = await page.locator('.tracked [data-pass] .t-aos').allInnerTexts();
      const passes = (await env.s.get('/api/v1/lite/snapshot?sat_id=so-50')).body.passes as Array<{ aos: string }>;
      assert.ok(passes.some((p) => p.aos.slice(0, 10) === '2026-08-23'), 'fixture: a pass after midnight UTC');
      assert.ok(chips.some((t) => /^tmrw\s+\d\d:\d\d$/.test(t)), `a chip says tmrw at ${vp.name}: ${chips.join(' | ')}`);
      await screenshot(page, `lite-tmrw-${vp.name}`);
      await context.close();
    }
  });

  it('draws the compass letters readably at night', async () => {
    for (const vp of VIEWPORTS) {
      const { context, page } = await openLite(env.browser, env.s, vp);
      await page.locator('footer button:has-text("Night")').click();
      await page.waitForFunction(() => document.documentElement.classList.contains('night'));
      const fill = await page.locator('.lite-sky text', { hasText: /^N$/ }).evaluate((e) => getComputedStyle(e).fill);
      const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      const [a, b] = [luminance(fill), luminance(bg)].sort((x, y) => y - x);
      const contrast = (a + 0.05) / (b + 0.05);
      assert.ok(contrast >= 3.5, `N at night: ${fill} on ${bg} is ${contrast.toFixed(1)}:1 at ${vp.name}`);
      await screenshot(page, `lite-night-sky-${vp.name}`);
      await context.close();
    }
  });
});
