import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, openPage, screenshot, serverAndBrowser } from '../helpers/browser.js';

// Sky plot labels never overlap (issue 23: "AOS" over "W" on /lite, "N" over "AOS" on /): the
// boxes of every label of the plot are measured in Chromium (getBBox) for many passes.

const skip = browserSkipReason() ?? false;
const SIX = ['iss', 'so-50', 'ao-91', 'ao-27', 'fo-29', 'ao-7'];
const TIMES = ['2026-08-22T00:00:00Z', '2026-08-22T06:00:00Z', '2026-08-22T12:00:00Z', '2026-08-22T18:00:00Z'];

interface Labels {
  texts: string[];
  overlaps: string[];
  /** Azimuth of the AOS marker (degrees, north 0, east 90), or null. */
  aos_az: number | null;
}

/** Every pair of text boxes in the sky plot that intersect, and where AOS is. */
function labelsOf(page: Page): Promise<Labels> {
  return page.locator('svg.sky').first().evaluate((svg) => {
    const texts = Array.from(svg.querySelectorAll('text')) as SVGTextElement[];
    const boxes = texts.map((t) => ({ label: t.textContent ?? '', b: t.getBBox() }));
    const overlaps: string[] = [];
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i].b;
        const b = boxes[j].b;
        if (a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height) overlaps.push(`${boxes[i].label} × ${boxes[j].label}`);
      }
    const m = svg.querySelector('[data-aos]');
    const aos_az = m ? ((Math.atan2(Number(m.getAttribute('cx')), -Number(m.getAttribute('cy'))) * 180) / Math.PI + 360) % 360 : null;
    return { texts: boxes.map((x) => x.label), overlaps, aos_az };
  });
}

/** Degrees from the nearest cardinal point. */
const offCardinal = (az: number) => Math.min(...[0, 90, 180, 270, 360].map((c) => Math.abs(az - c)));

describe('sky plot labels', { skip }, () => {
  const env = serverAndBrowser({ now: TIMES[0] }, (s) => s.post('/api/v1/settings/lite', { tracked_sat_ids: SIX, setup_complete: true }));

  it('on /lite: no label overlaps another, for every tracked satellite at several moments', async () => {
    const near: string[] = [];
    for (const at of TIMES) {
      const { context, page } = await openPage(env.browser, { width: 480, height: 320 });
      await page.clock.install({ time: Date.parse(at) });
      for (const id of SIX) {
        await page.goto(`${env.s.base}/lite?sat_id=${id}`);
        await page.locator('[data-focus-name]').waitFor();
        const l = await labelsOf(page);
        assert.deepEqual(l.overlaps, [], `${id} at ${at}: ${l.texts.join(', ')}`);
        if (l.aos_az !== null && l.texts.includes('AOS') && offCardinal(l.aos_az) < 25) {
          near.push(`${id}@${at}`);
          if (near.length === 1) await screenshot(page, 'lite-sky-aos-near-cardinal-480x320');
        }
      }
      await context.close();
    }
    assert.ok(near.length >= 2, `fixture: AOS labels near a compass letter were checked (${near.join(', ')})`);
  });

  it('on /: no label overlaps another for the first passes of the table', async () => {
    const { context, page } = await openPage(env.browser, { width: 1280, height: 800 });
    await page.clock.install({ time: Date.parse(TIMES[0]) });
    await page.goto(env.s.base + '/');
    await page.locator('[data-row]').first().waitFor();
    const rows = Math.min(12, await page.locator('[data-row]').count());
    let checked = 0;
    for (let i = 0; i < rows; i++) {
      await page.locator('[data-row]').nth(i).getByRole('button').first().click();
      await page.locator('svg.sky [data-aos]').waitFor();
      await page.waitForTimeout(150);
      const l = await labelsOf(page);
      assert.deepEqual(l.overlaps, [], `row ${i}: ${l.texts.join(', ')}`);
      checked++;
    }
    assert.ok(checked >= 5);
    await page.locator('svg.sky').scrollIntoViewIfNeeded();
    await screenshot(page, 'home-sky-labels-1280x800');
    await context.close();
  });
});
