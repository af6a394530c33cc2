import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserSkipReason, horizontalOverflow, openPage, screenshot, serverAndBrowser, VIEWPORTS } from '../helpers/browser.js';
import { portOf } from '../http/raw.js';

// /docs in Chromium: the site's frame (navigation back, the palette, night mode) around the API
// reference, the site icon, and a hostile page's no-cors POST refused in a real browser.

const skip = browserSkipReason() ?? false;

describe('/docs page, site icon and cross-site requests in Chromium', { skip }, () => {
  const env = serverAndBrowser({ now: '2026-08-22T12:00:00Z' });

  for (const vp of VIEWPORTS) {
    it(`/docs at ${vp.name}: the site's navigation and styles, every route, no console error`, async () => {
      const { context, page, problems } = await openPage(env.browser, vp);
      try {
        await page.goto(env.s.base + '/docs', { waitUntil: 'networkidle' });
        await page.locator('.shell nav a[href="/"]').waitFor();
        const gets = env.s.app.routes.length;
        assert.equal(await page.locator('#docs details').count(), gets, 'one entry per route');
        // The site's palette, not the browser's white page.
        const bg = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
        assert.equal(bg, 'rgb(14, 20, 25)');
        const links = await page.locator('.shell nav a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
        for (const href of ['/', '/lite', '/radio', '/aprs', '/settings']) assert.ok(links.includes(href), `nav links to ${href}`);
        assert.ok((await horizontalOverflow(page)) <= 0, 'no sideways scrolling');
        const icon = await page.locator('link[rel="icon"]').getAttribute('href');
        assert.match(icon!, /^data:image\/svg\+xml,/);
        await screenshot(page, `docs-${vp.name}`);
        // Opened, a route shows its schemas inside the page's width.
        await page.locator('#docs details:has(code.p:text-is("/api/v1/passes")) summary').click();
        assert.ok((await horizontalOverflow(page)) <= 0, 'an open entry does not widen the page');
        assert.deepEqual(problems.errors, []);
      } finally {
        await context.close();
      }
    });
  }

  it('/docs says what each choice of a setting means: rigA is the IC-705, rigB the IC-9700 (issue 33)', async () => {
    for (const vp of VIEWPORTS) {
      const { context, page, problems } = await openPage(env.browser, vp);
      try {
        await page.goto(env.s.base + '/docs', { waitUntil: 'networkidle' });
        const entry = page.locator('#docs details:has(code.m-post):has(code.p:text-is("/api/v1/settings/radio"))');
        await entry.locator('summary').click();
        const body = entry.locator('pre').first();
        assert.match(await body.innerText(), /"rigA": "Icom IC-705[^"]*",\s*"rigB": "Icom IC-9700/);
        await body.evaluate((pre) => {
          // The body schema scrolls in its own box: bring the rig's lines to its top, the box on screen.
          const before = pre.textContent!.slice(0, pre.textContent!.indexOf('"rig_model"')).split('\n').length - 1;
          pre.scrollTop = before * parseFloat(getComputedStyle(pre).lineHeight || '16');
          pre.scrollIntoView({ block: 'start' });
        });
        await screenshot(page, `docs-rig-model-${vp.name}`);
        assert.ok((await horizontalOverflow(page)) <= 0);
        assert.deepEqual(problems.errors, []);
      } finally {
        await context.close();
      }
    }
  });

  it('/docs filter and night mode', async () => {
    const { context, page, problems } = await openPage(env.browser, { width: 800, height: 480 });
    try {
      await page.goto(env.s.base + '/docs', { waitUntil: 'networkidle' });
      await page.locator('.docs-filter input').fill('radio ports');
      const visible = await page.locator('#docs details:visible code.p').allTextContents();
      assert.deepEqual(visible, ['/api/v1/radio/ports']);
      await page.getByRole('button', { name: 'Night' }).click();
      const fg = await page.evaluate(() => getComputedStyle(document.querySelector('#docs code.p')!).color);
      assert.equal(fg, 'rgb(208, 40, 24)', 'red on black at night');
      await screenshot(page, 'docs-800x480-night-filtered');
      assert.deepEqual(problems.errors, []);
    } finally {
      await context.close();
    }
  });

  it('/favicon.ico is a real icon Chromium decodes; /favicon.svg too', async () => {
    const ico = await fetch(env.s.base + '/favicon.ico');
    assert.equal(ico.status, 200);
    assert.equal(ico.headers.get('content-type'), 'image/x-icon');
    const svg = await fetch(env.s.base + '/favicon.svg');
    assert.equal(svg.headers.get('content-type'), 'image/svg+xml');
    const { context, page, problems } = await openPage(env.browser, { width: 480, height: 320 });
    try {
      await page.goto(env.s.base + '/docs', { waitUntil: 'networkidle' });
      const sizes = await page.evaluate(async () => {
        document.body.innerHTML =
          '<div style="display:flex;gap:16px;padding:16px;background:#fff"><img id="ico" src="/favicon.ico" style="width:128px;image-rendering:pixelated"><img id="svg" src="/favicon.svg" style="width:128px"></div>';
        const imgs = ['ico', 'svg'].map((id) => document.getElementById(id) as HTMLImageElement);
        await Promise.all(imgs.map((img) => img.decode()));
        return { ico: [imgs[0].naturalWidth, imgs[0].naturalHeight], svg: [imgs[1].naturalWidth, imgs[1].naturalHeight] };
      });
      assert.deepEqual(sizes.ico, [32, 32]);
      assert.ok(sizes.svg[0] > 0);
      await screenshot(page, 'favicon-ico-and-svg');
      assert.deepEqual(problems.errors, []);
    } finally {
      await context.close();
    }
  });

  it('a page on another origin cannot change state with a no-cors POST; the station’s own page can', async () => {
    const count = async () => (await env.s.get('/api/v1/snapshots')).body.items.length as number;
    const station = env.s.base; // http://127.0.0.1:<port>
    const other = `http://localhost:${portOf(station)}`; // another origin (and site) in the browser's eyes
    const { context, page } = await openPage(env.browser, { width: 800, height: 480 });
    try {
      const before = await count();
      await page.goto(other + '/docs', { waitUntil: 'networkidle' });
      const hostile = await page.evaluate(async (url) => {
        const r = await fetch(url + '/api/v1/snapshots/record', { method: 'POST', mode: 'no-cors' });
        return r.type;
      }, station);
      assert.equal(hostile, 'opaque');
      assert.equal(await count(), before, 'the cross-site POST recorded nothing');
      await page.goto(station + '/docs', { waitUntil: 'networkidle' });
      const own = await page.evaluate(async () => (await fetch('/api/v1/snapshots/record', { method: 'POST' })).status);
      assert.equal(own, 200);
      assert.equal(await count(), before + 1);
    } finally {
      await context.close();
    }
  });
});
