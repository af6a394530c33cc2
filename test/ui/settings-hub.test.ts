import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, horizontalOverflow, openPage, screenshot, serverAndBrowser, VIEWPORTS } from '../helpers/browser.js';
import { SETTINGS_GROUPS, type SettingsGroup } from '../../ui/components/settings/settings-groups.js';

// Issue 33: every settings group reachable in both modes. On a low-power board /settings serves
// the lite settings page (spec part 1); it lists every group, and each group's code loads only
// when it is opened. Deep links (/settings#logbook) open their group in both modes; every view
// has unique element ids; the lock is said once; /login links to it; a location needs no id.

const NOW = '2026-08-22T12:00:00Z';
const skip = browserSkipReason() ?? false;
const GROUP_CHUNK = /\/assets\/chunks\/([a-z]+)-[A-Z0-9]{8}\.js$/;
const group = (id: string) => SETTINGS_GROUPS.find((g) => g.id === id)!;
type Viewport = (typeof VIEWPORTS)[number];

/** Waits until the group is shown with its code loaded and its first controls filled in. */
async function shown(page: Page, g: SettingsGroup): Promise<void> {
  const section = page.locator(`section[data-group="${g.id}"][data-loaded="true"]`);
  await section.locator('input, select, textarea').first().waitFor();
  assert.equal((await section.locator('h2').innerText()).trim(), g.title);
}

/** Loads /settings#<hash> and waits for the group it opens. */
async function open(page: Page, base: string, hash: string, g = group(hash)): Promise<void> {
  await page.goto(`${base}/settings#${hash}`);
  await shown(page, g);
}

/** Runs `fn` on a fresh page at each screen size; the page may show no console error or failed request. */
async function atEverySize(browser: Browser, fn: (page: Page, vp: Viewport) => Promise<void>): Promise<void> {
  for (const vp of VIEWPORTS) {
    const { context, page, problems } = await openPage(browser, vp);
    await fn(page, vp);
    assert.deepEqual(problems.errors, [], vp.name);
    await context.close();
  }
}

/** Ids that more than one element on the page carries. */
const duplicateIds = (page: Page) =>
  page.evaluate(() => {
    const seen = new Map<string, number>();
    for (const el of Array.from(document.querySelectorAll('[id]'))) seen.set(el.id, (seen.get(el.id) ?? 0) + 1);
    return [...seen].filter(([, n]) => n > 1).map(([id, n]) => `${id} ×${n}`);
  });

/** Asserts the group's section starts in the upper half of the screen. */
async function inView(page: Page, id: string, vp: Viewport, what: string): Promise<void> {
  const top = await page.locator(`section[data-group="${id}"]`).evaluate((el) => el.getBoundingClientRect().top);
  assert.ok(top >= -1 && top < vp.height / 2, `${what} at ${vp.name}: the group is in view (top ${top})`);
}

/** Waits until the page has asked for nothing new for a while (a group's forms read /docs and their state). */
async function settled(page: Page): Promise<void> {
  let last = -1;
  for (;;) {
    const n = await page.evaluate(() => performance.getEntriesByType('resource').length);
    if (n === last) return;
    last = n;
    await page.waitForTimeout(300);
  }
}

// The two modes side by side: each has its own server and browser, and most of a test's time is
// the page waiting for its answers, so the file takes about the time of the longer mode.
describe('settings groups in both modes', { skip, concurrency: true }, () => {
  for (const mode of [
    { name: 'low-power (LOW_POWER=1)', lowPower: true, page: 'lite-settings', first: 'satellites' },
    { name: 'normal', lowPower: false, page: 'settings', first: 'location' },
  ]) {
    describe(`settings groups, ${mode.name}`, { concurrency: false }, () => {
      const env = serverAndBrowser({ now: NOW, config: { lowPower: mode.lowPower } });
      const tag = mode.lowPower ? 'lowpower' : 'normal';

      for (const vp of VIEWPORTS) {
        it(`reaches every group from the list at ${vp.name}, loading only the groups opened, every id unique`, async () => {
          const { context, page, problems } = await openPage(env.browser, vp);
          const chunks: string[] = [];
          page.on('request', (r) => {
            const m = GROUP_CHUNK.exec(r.url());
            if (m && m[1] !== 'chunk') chunks.push(m[1]); // chunk-*: what groups share
          });
          const res = await page.goto(env.s.base + '/settings', { waitUntil: 'networkidle' });
          assert.equal(res?.headers()['x-page'], mode.page);
          await shown(page, group(mode.first));
          await screenshot(page, `settings-hub-${tag}-${vp.name}`);
          const opened = [mode.first];
          for (const g of SETTINGS_GROUPS.filter((x) => x.id !== mode.first)) {
            await page.locator('nav.groups').getByRole('link', { name: g.label, exact: true }).click();
            await shown(page, g);
            opened.push(g.id);
            await settled(page);
            assert.deepEqual([...new Set(chunks)].sort(), [...opened].sort(), `${g.id}: only the groups opened have loaded`);
            assert.deepEqual(await duplicateIds(page), [], `${g.id}: every id unique`);
            assert.ok((await horizontalOverflow(page)) <= 0, `${g.id} is wider than ${vp.name}`);
            await inView(page, g.id, vp, g.id);
            assert.equal(new URL(page.url()).hash, `#${g.id}`, 'the address names the group: a link to it can be kept');
            if (vp.name === '480x320') await screenshot(page, `settings-group-${tag}-${g.id}-${vp.name}`);
          }
          await screenshot(page, `settings-group-${tag}-developer-${vp.name}`);
          assert.deepEqual(problems.errors, []);
          await context.close();
        });
      }

      it('opens each group by its deep link at every size, by its aliases too, and shows the group in view', async () => {
        await atEverySize(env.browser, async (page, vp) => {
          for (const g of SETTINGS_GROUPS) {
            for (const name of [g.id, ...(g.aliases ?? [])]) {
              await open(page, env.s.base, name, g);
              await inView(page, g.id, vp, `#${name}`);
            }
          }
          await open(page, env.s.base, 'logbook');
          await screenshot(page, `settings-deeplink-${tag}-logbook-${vp.name}`);
        });
      });

      it('keeps the way back to the list on screen in a long group, and the list fits the width', async () => {
        await atEverySize(env.browser, async (page, vp) => {
          await open(page, env.s.base, 'aprs');
          const links = page.locator('nav.groups a');
          assert.equal(await links.count(), SETTINGS_GROUPS.length);
          for (const right of await links.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right))) assert.ok(right <= vp.width, `a group link ends at ${right} px, past ${vp.width}`);
          await page.evaluate(() => scrollBy(0, 2500));
          await page.waitForTimeout(100);
          const bar = await page.locator('section[data-group="aprs"] .group-bar').boundingBox();
          assert.ok(bar && bar.y >= -1 && bar.y < 10, `the group's bar stays at the top (y ${bar?.y})`);
          await screenshot(page, `settings-scrolled-${tag}-${vp.name}`);
          const back = page.getByRole('button', { name: 'Groups ↑' });
          const list = page.locator('nav.groups');
          if (await back.isVisible()) {
            // Small screens: the list stands above the group, one tap away.
            assert.ok(!(await list.evaluate((el) => el.getBoundingClientRect().bottom > 0)), 'scrolled past the list');
            await back.click();
          }
          const r = await list.evaluate((el) => el.getBoundingClientRect().toJSON() as DOMRect);
          assert.ok(r.top < vp.height && r.bottom > 0, `the list is on screen at ${vp.name}`);
        });
      });

      it('says whether the station is open once, on the access group too', async () => {
        await atEverySize(env.browser, async (page, vp) => {
          await open(page, env.s.base, 'access');
          assert.deepEqual(await page.locator('.badge').filter({ hasText: /^open$/ }).allInnerTexts(), ['open']);
          assert.match(await page.locator('[data-access]').innerText(), /Anyone who can reach this appliance can change settings/);
          await screenshot(page, `settings-access-once-${tag}-${vp.name}`);
        });
      });

      it('adds a location by its name: the id is made from it, unique', async () => {
        const ids: string[] = [];
        await atEverySize(env.browser, async (page, vp) => {
          await open(page, env.s.base, 'location');
          const form = page.locator('form.add-profile');
          assert.equal(await form.getByLabel('Id', { exact: true }).count(), 0, 'no id to invent');
          await form.getByLabel('Name', { exact: true }).fill('Field day, Hügel');
          await form.getByLabel('Latitude (°)').fill('48.1371');
          await form.getByLabel('Longitude (°)').fill('11.5754');
          await form.getByRole('button', { name: 'Add and select' }).click();
          await page.getByRole('status').filter({ hasText: 'Added and selected Field day, Hügel' }).waitFor();
          const id = (await env.s.get('/api/v1/location')).body.state.selected_profile_id;
          ids.push(id);
          await page.locator(`[data-profile="${id}"]`).scrollIntoViewIfNeeded();
          await screenshot(page, `settings-location-added-${tag}-${vp.name}`);
        });
        assert.deepEqual(ids, ['field-day-hugel', 'field-day-hugel-2', 'field-day-hugel-3']);
      });

      it('/login on an open station links to Settings → Operator access, which opens that group', async () => {
        await atEverySize(env.browser, async (page, vp) => {
          await page.goto(env.s.base + '/login');
          const link = page.getByRole('link', { name: 'Settings → Operator access' });
          await link.waitFor();
          await screenshot(page, `login-open-${tag}-${vp.name}`);
          await link.click();
          await shown(page, group('access'));
          assert.equal(new URL(page.url()).pathname + new URL(page.url()).hash, '/settings#access');
        });
      });
    });
  }
});
