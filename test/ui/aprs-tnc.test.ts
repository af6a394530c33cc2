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
// sidecar that crashes while connected. The operator reads one line at the top, the problem and
// its fix in the TNC card, the output of the failed start kept (in a bounded box, not over the
// whole screen), and a TNC card that never says "running" while it fails.

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
    [s, browser] = await Promise.all([startServer({ now: NOW, config: { uiDir }, app: { aprsTransport: { env: { HOME: home } } } }), launch()]);
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

  it('no sound card at connect: one line on top, the problem and its fix in the TNC card, the output kept', async () => {
    await page.goto(s.base + '/aprs', { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.locator('[data-last-error]').waitFor();
    const banner = await page.locator('[data-last-error]').innerText();
    assert.match(banner, /Sound card "plughw:7,0" \(audio input\) not found/);
    assert.doesNotMatch(banner, /ALSA lib|Pointless/);
    await page.locator('[data-tnc-problem="audio_input"]').waitFor();
    assert.match(await page.locator('[data-tnc-problem]').innerText(), /Audio input device in \/settings → APRS.*arecord -l/s);
    assert.match(await page.locator('[data-sidecar]').innerText(), /sidecar stopped/);
    const tail = page.locator('[data-output-tail] pre');
    await tail.waitFor();
    // The failing line itself: Dire Wolf's "Pointless to continue..." races our SIGINT.
    assert.match(await tail.innerText(), /Could not open audio device plughw:7,0 for input/);
    assert.doesNotMatch(await page.locator('[data-output-tail] summary').innerText(), /\(0 lines\)/);
    for (const vp of VIEWPORTS) {
      await page.setViewportSize({ width: vp.width, height: vp.height });
      await oneLine('[data-last-error]');
      assert.ok((await horizontalOverflow(page)) <= 0, `no sideways scroll at ${vp.name}`);
      // The raw output is in a box of at most 40 % of the screen, scrolling inside.
      const t = await tail.boundingBox();
      assert.ok(t && t.height <= vp.height * 0.4 + 1, `output box ${t?.height} px at ${vp.name}`);
      await page.locator('[data-tnc-problem]').scrollIntoViewIfNeeded();
      await screenshot(page, `aprs-tnc-no-card-${vp.name}`);
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `aprs-tnc-no-card-top-${vp.name}`);
    }
    assert.deepEqual(unexpected(errors), []);
  });

  it('a crashing sidecar: "failing", the crash named, the next try counted down; never "running"', async () => {
    const set = await s.post('/api/v1/settings/aprs', { audio_input_device: '', audio_output_device: '' });
    assert.equal(set.status, 200);
    await page.setViewportSize({ width: VIEWPORTS[0].width, height: VIEWPORTS[0].height });
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.locator('[data-sidecar="running"]').waitFor();
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
    assert.match(await page.locator('[data-tnc-retry]').innerText(), /next try in 00:01/);
    await until(async () => (await s.get('/api/v1/aprs/state')).body.runtime.output_tail.some((l: string) => l.includes('killed by SIGSEGV')), 'the crash in the output', 3000);
    for (const vp of VIEWPORTS) {
      await page.setViewportSize({ width: vp.width, height: vp.height });
      await oneLine('[data-last-error]');
      assert.ok((await horizontalOverflow(page)) <= 0, `no sideways scroll at ${vp.name}`);
      await page.locator('[data-tnc-problem]').scrollIntoViewIfNeeded();
      await screenshot(page, `aprs-tnc-crash-${vp.name}`);
    }
    await s.post('/api/v1/aprs/disconnect');
    assert.deepEqual(unexpected(errors), []);
  });
});
