import { systemClock } from '../../src/util/clock.js';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, horizontalOverflow, launch, openPage, screenshot, VIEWPORTS } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { resolveTncBinary } from '../../src/aprs/tnc/tnc-binary.js';
import { until } from '../aprs/aprs-fixture.js';

// /aprs in Chromium when the real Dire Wolf cannot work: no sound card at connect, then a
// sidecar that crashes while connected. The operator reads the problem once, in one line at the
// top, its fix one tap away (issue 33: not also a ✗ line and an "error" badge), the output of the
// failed start kept (in a bounded box, not over the whole screen), no crash where Dire Wolf 1.6
// only died in its SIGINT handler as we stopped it, and a TNC card that never says "running"
// while it fails.

const NOW = '2026-11-23T12:00:00Z';
const haveDirewolf = resolveTncBinary('direwolf').installed || process.env.REQUIRE_DIREWOLF === '1';
const skip = browserSkipReason() ?? (haveDirewolf ? false : 'direwolf is not installed (apt-get install direwolf)');

/** Pids of this server's Dire Wolf (its command line names the data folder's config). */
const direwolfPids = (dataDir: string) =>
  readdirSync('/proc').filter((p) => {
    try {
      return /^\d+$/.test(p) && readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(join(dataDir, 'direwolf.conf'));
    } catch {
      return false;
    }
  });

/** A 502 from connect is what these tests provoke: not a page problem. */
const unexpected = (errors: string[]) => errors.filter((e) => !/HTTP 502: POST .*\/api\/v1\/aprs\/connect|status of 502/.test(e));

describe('/aprs when Dire Wolf fails', { skip }, () => {
  let s: TestServer;
  let home: string;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;
  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'dw-ui-home-'));
    // The default ALSA device is the null PCM: a healthy Dire Wolf without a sound card.
    writeFileSync(join(home, '.asoundrc'), 'pcm.!default {\n  type null\n}\n');
    const uiDir = process.env.UI_DIR ? resolve(process.env.UI_DIR) : null;
    [s, browser] = await Promise.all([startServer({ now: NOW, config: { uiDir }, app: { aprsTransport: { env: { HOME: home } }, eventsPacing: systemClock } }), launch()]);
    const set = await s.post('/api/v1/settings/aprs', { callsign: 'G4ABC', ssid: 7, audio_input_device: 'plughw:7,0', audio_output_device: 'plughw:7,0' });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const o = await openPage(browser, VIEWPORTS[0]);
    page = o.page;
    errors = o.problems.errors;
    close = () => o.context.close();
    await page.clock.install({ time: Date.parse(NOW) });
  });
  after(async () => {
    await close?.();
    await browser?.close();
    await s?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  /** The element fits on screen as one line (no wrapped raw error text). */
  async function oneLine(sel: string): Promise<void> {
    const box = await page.locator(sel).boundingBox();
    const line = await page.locator(sel).evaluate((el) => parseFloat(getComputedStyle(el).lineHeight) || 20);
    const pad = await page.locator(sel).evaluate((el) => parseFloat(getComputedStyle(el).paddingTop) + parseFloat(getComputedStyle(el).paddingBottom) + 4);
    assert.ok(box && box.height <= line + pad, `${sel} is ${box?.height} px tall (one line is ${line} px)`);
  }

  it('no sound card at connect: the problem once in one line on top, its fix one tap away, the output kept, no crash', async () => {
    await page.goto(s.base + '/aprs', { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.locator('[data-last-error]').waitFor();
    const banner = page.locator('[data-last-error]');
    assert.match(await banner.innerText(), /^APRS error: Sound card "plughw:7,0" \(audio input\) not found$/);
    // Said once: no ✗ line under Connect, no "error" badge, not again in the TNC card.
    await page.locator('[data-sidecar="stopped"]').waitFor();
    const body = () => page.evaluate(() => document.body.innerText);
    assert.equal((await body()).split('Sound card "plughw:7,0" (audio input) not found').length - 1, 1, 'the problem is said once');
    assert.equal(await page.locator('[data-outcome="conn"]').count(), 0);
    assert.equal(await page.locator('[data-connection]').innerText(), 'not connected');
    assert.doesNotMatch(await banner.innerText(), /ALSA lib|Pointless/);
    // Dire Wolf 1.6 died in its SIGINT handler as we ended the run: a stop, not a crash, everywhere the operator looks.
    const tail = page.locator('[data-output-tail] pre');
    await tail.waitFor();
    // The failing line itself: Dire Wolf's "Pointless to continue..." races our SIGINT.
    assert.match(await tail.innerText(), /Could not open audio device plughw:7,0 for input/);
    assert.doesNotMatch(await body(), /SIGSEGV|crash|killed/i);
    const rt = (await s.get('/api/v1/aprs/state')).body.runtime;
    assert.deepEqual(rt.output_tail.filter((l: string) => /SIGSEGV|killed/.test(l)), []);
    assert.doesNotMatch(rt.last_error, /SIGSEGV|crash/i);
    assert.doesNotMatch(await page.locator('[data-output-tail] summary').innerText(), /\(0 lines\)/);
    for (const vp of VIEWPORTS) {
      await page.setViewportSize({ width: vp.width, height: vp.height });
      await page.evaluate(() => window.scrollTo(0, 0));
      await oneLine('[data-last-error] > summary');
      assert.ok((await horizontalOverflow(page)) <= 0, `no sideways scroll at ${vp.name}`);
      await screenshot(page, `aprs-tnc-no-card-top-${vp.name}`);
      // One tap: the whole line and the fix.
      await banner.locator('summary').click();
      assert.match(await banner.innerText(), /Audio input device in \/settings → APRS.*arecord -l/s);
      assert.equal(await banner.getAttribute('data-tnc-problem'), 'audio_input');
      await screenshot(page, `aprs-tnc-no-card-fix-${vp.name}`);
      await banner.locator('summary').click();
      // The raw output is in a box of at most 40 % of the screen, scrolling inside.
      const t = await tail.boundingBox();
      assert.ok(t && t.height <= vp.height * 0.4 + 1, `output box ${t?.height} px at ${vp.name}`);
      await page.locator('[data-sidecar]').scrollIntoViewIfNeeded();
      await screenshot(page, `aprs-tnc-no-card-${vp.name}`);
    }
    assert.deepEqual(unexpected(errors), []);
  });

  it('a crashing sidecar: "failing", the crash named, the next try counted down; never "running"', async () => {
    const set = await s.post('/api/v1/settings/aprs', { audio_input_device: '', audio_output_device: '' });
    assert.equal(set.status, 200);
    await page.setViewportSize({ width: VIEWPORTS[0].width, height: VIEWPORTS[0].height });
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.locator('[data-sidecar="running"]').waitFor();
    // The connect itself ends after the sidecar runs (the KISS link over its pseudo-terminal is
    // opened next). A crash before that is a failed connect: stopped, the 502 naming it, no
    // restart. Under a loaded run the kill below came in that window and the test met "stopped".
    await until(async () => (await s.get('/api/v1/aprs/state')).body.runtime.connected === true, 'the connect to finish', 10_000);
    assert.equal(await page.locator('[data-last-error]').count(), 0, 'a healthy sidecar shows no error');
    const pids = direwolfPids(s.dataDir);
    assert.equal(pids.length, 1);
    // The page's "now" held at the server's fixed time, so the countdown reads the server's pause.
    await page.clock.setFixedTime(Date.parse(NOW));
    process.kill(Number(pids[0]), 'SIGSEGV');
    // The server's clock is fixed: the restart waits, and the page shows the wait.
    await page.locator('[data-sidecar="failing"]').waitFor();
    assert.equal(await page.locator('[data-sidecar="running"]').count(), 0);
    assert.match(await page.locator('[data-last-error]').innerText(), /Dire Wolf crashed \(SIGSEGV\)/);
    // Pushed at once: the countdown reads the fixed time from the page's next tick.
    await page.locator('[data-tnc-retry]', { hasText: /next try in 00:01/ }).waitFor();
    await until(async () => (await s.get('/api/v1/aprs/state')).body.runtime.output_tail.some((l: string) => l.includes('killed by SIGSEGV')), 'the crash in the output', 3000);
    for (const vp of VIEWPORTS) {
      await page.setViewportSize({ width: vp.width, height: vp.height });
      await oneLine('[data-last-error] > summary');
      assert.ok((await horizontalOverflow(page)) <= 0, `no sideways scroll at ${vp.name}`);
      await page.locator('[data-tnc-retry]').scrollIntoViewIfNeeded();
      await screenshot(page, `aprs-tnc-crash-${vp.name}`);
    }
    await s.post('/api/v1/aprs/disconnect');
    assert.deepEqual(unexpected(errors), []);
  });
});
