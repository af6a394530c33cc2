import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { browserSkipReason, horizontalOverflow, launch, openPage, screenshot, VIEWPORTS } from '../helpers/browser.js';
import { rigFixture, until, type RigFixture } from '../radio/rig-fixture.js';
import { freePort } from '../rotator/rotctld-peer.js';
import { systemClock } from '../../src/util/clock.js';

// /radio while a Hamlib network client holds the rig (issue 26), in Chromium against the real
// server driving a simulated IC-705 over a pty: a raw rigctld client on the server's own rigctld
// port sets the frequency and stays connected, so the runtime says control_mode 'external'; the
// page names that client in its header and in the rig readback at every size, and drops the name
// when the client goes. Async socket I/O only: the server runs in this process.

const skip = browserSkipReason() ?? false;

/** A rigctld client that has sent `line` and read its one-line answer; it stays connected. */
function rigctlClient(port: number, line: string): Promise<{ socket: Socket; answer: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(line));
    let got = '';
    socket.setEncoding('utf8');
    socket.on('data', function onData(d: string) {
      got += d;
      if (got.includes('\n')) {
        socket.off('data', onData);
        resolve({ socket, answer: got.trim() });
      }
    });
    socket.once('error', reject);
  });
}

describe('/radio names the Hamlib client that holds the rig', { skip }, () => {
  let f: RigFixture;
  let browser: Browser;
  let client: Socket | null = null;
  let rigPort: number;
  before(async () => {
    [f, browser, rigPort] = await Promise.all([rigFixture({ clock: systemClock }), launch(), freePort()]);
    const set = await f.s.post('/api/v1/settings/hamlib', { rigctld_enabled: true, rigctld_port: rigPort });
    assert.equal(set.status, 200, JSON.stringify(set.body));
  });
  after(async () => {
    client?.destroy();
    await f?.s.post('/api/v1/settings/hamlib', { rigctld_enabled: false });
    await browser?.close();
    await f?.stop();
  });

  it('shows "external: rigctld <address>" in the header, once, fitting every size, until the client leaves', async () => {
    const { context, page, problems } = await openPage(browser, VIEWPORTS[0]);
    await page.goto(f.s.base + '/radio');
    await page.locator('[data-connection]', { hasText: /^connected$/ }).waitFor();
    assert.equal(await page.locator('[data-control-holder]').count(), 0, 'nobody holds the rig: nothing said');

    const c = await rigctlClient(rigPort, 'F 145900000\n');
    client = c.socket;
    assert.equal(c.answer, 'RPRT 0');
    await until(() => f.sim.state.vfoA.freq === 145_900_000, 'the rig retuned by the client');
    const holder = `rigctld 127.0.0.1:${c.socket.localPort}`;
    const rt = (await f.s.get('/api/v1/radio/state')).body.runtime;
    assert.equal(rt.control_mode, 'external');
    assert.equal(rt.external_client, holder);

    // The header names the holder (before: only the word "external"), beside the connection, once.
    const header = page.locator('[data-control-holder="external"]');
    await header.waitFor();
    assert.equal(await header.innerText(), `external: ${holder}`);
    assert.equal(await page.evaluate((h) => document.body.innerText.split(h).length - 1, holder), 1, 'the holder is named once');
    await page.locator('[data-vfo="A"] strong', { hasText: '145.900 000' }).waitFor();
    for (const vp of VIEWPORTS) {
      await page.setViewportSize(vp);
      await page.evaluate(() => scrollTo(0, 0));
      await screenshot(page, `radio-external-${vp.name}`);
      // Prominent: the holder's name is on the first screen, whole, at every size.
      const box = await header.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= vp.width + 0.5 && box.y + box.height <= vp.height, `${vp.name}: header badge on screen: ${JSON.stringify(box)}`);
      assert.equal(await horizontalOverflow(page), 0, vp.name);
    }

    // The client goes: the rig is nobody's, the name with it.
    c.socket.destroy();
    client = null;
    await page.locator('[data-control-holder]').waitFor({ state: 'detached' });
    assert.doesNotMatch(await page.locator('main').innerText(), /external/);
    await screenshot(page, 'radio-external-released-1280x800');
    assert.deepEqual(problems.errors, []);
    await context.close();
  });
});
