import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { browserSkipReason, horizontalOverflow, launch, openPage, screenshot, VIEWPORTS } from '../helpers/browser.js';
import { rigFixture, until, type RigFixture } from '../radio/rig-fixture.js';
import { FixedClock } from '../../src/util/clock.js';

// The /radio page in Chromium against the real server and the simulated IC-705 on a pty:
// connect, readback, a VFO write, a manual pair (and a refused one), and the session flow.

const NOW = '2026-08-22T12:00:00Z';
const skip = browserSkipReason() ?? false;

describe('/radio page with a simulated rig', { skip }, () => {
  let f: RigFixture;
  let browser: Browser;
  before(async () => {
    f = await rigFixture({ clock: new FixedClock(Date.parse(NOW)), connect: false });
    await f.s.app.services.orbit.table.ready();
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await f?.stop();
  });

  it('connects, reads back, writes a VFO and a pair, refuses an out-of-band pair, and runs select → test → confirm', async () => {
    const { context, page, problems } = await openPage(browser, VIEWPORTS[1]);
    await page.clock.install({ time: Date.parse(NOW) });
    await page.goto(f.s.base + '/radio', { waitUntil: 'networkidle' });
    await screenshot(page, 'radio-disconnected-800x480');

    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByRole('button', { name: 'Disconnect' }).waitFor();
    assert.ok(f.sim.log.some((e) => e.cmd === 0x07 && e.data[0] === 0x00), 'VFO A selected on connect');

    f.sim.state.vfoA.freq = 145_800_000;
    f.sim.state.vfoB.freq = 437_800_000;
    await page.getByRole('button', { name: 'Read rig now' }).click();
    await page.locator('[data-vfo="A"] strong', { hasText: '145.800 000' }).waitFor();
    await page.locator('[data-vfo="B"] strong', { hasText: '437.800 000' }).waitFor();

    await page.selectOption('#vfo-sel', 'B');
    await page.fill('#vfo-mhz', '435.300');
    await page.getByRole('button', { name: 'Set VFO' }).click();
    await until(() => f.sim.state.vfoB.freq === 435_300_000, 'VFO B written');
    assert.equal(f.sim.state.selected, 'A');

    await page.fill('#pair-up', '145.990');
    await page.fill('#pair-down', '437.800');
    await page.getByRole('button', { name: 'Write pair' }).click();
    await until(() => f.sim.state.split && f.sim.state.vfoB.freq === 145_990_000 && f.sim.state.vfoA.freq === 437_800_000, 'pair written');

    const before = f.sim.log.length;
    await page.fill('#pair-up', '1268.000');
    await page.fill('#pair-down', '29.400');
    await page.getByRole('button', { name: 'Write pair' }).click();
    await page.locator('[data-outcome="pair"].bad', { hasText: 'not eligible' }).waitFor();
    assert.equal(f.sim.log.length, before, 'the rig was not touched');

    const first = page.locator('.radio-passes button').first();
    await first.waitFor();
    await first.click();
    await page.locator('[data-test-pair]').waitFor();
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await page.locator('[data-screen-state]', { hasText: 'test' }).waitFor();
    await screenshot(page, 'radio-session-test-800x480');
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await page.locator('[data-screen-state]', { hasText: 'released' }).waitFor();

    // The refused pair's 400 is the one error the page was meant to meet.
    const unexpected = problems.errors.filter((e) => !/\/api\/v1\/radio\/pair|status of 400/.test(e));
    assert.deepEqual(unexpected, []);
    await context.close();
  });

  for (const vp of VIEWPORTS) {
    it(`fits ${vp.name} with the rig connected`, async () => {
      const { context, page, problems } = await openPage(browser, vp);
      await page.clock.install({ time: Date.parse(NOW) });
      await page.goto(f.s.base + '/radio', { waitUntil: 'networkidle' });
      await page.locator('[data-vfo="A"]').waitFor();
      await screenshot(page, `radio-rig-${vp.name}`);
      assert.ok((await horizontalOverflow(page)) <= 0, `wider than ${vp.name}`);
      assert.deepEqual(problems.errors, []);
      await context.close();
    });
  }
});
