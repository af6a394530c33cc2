import { systemClock } from '../../src/util/clock.js';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, horizontalOverflow, launch, openPage, screenshot, VIEWPORTS } from '../helpers/browser.js';
import { aprsFixture, ax25, tnc2Of, until, type AprsFixture } from '../aprs/aprs-fixture.js';

// /aprs and the APRS settings section in Chromium against the real server, whose APRS transport
// talks KISS over TCP to a fake TNC on 127.0.0.1 (the fixture's "external TNC"). The station
// starts with no callsign and listen-only; the page sets the identity, lifts listen-only, picks
// a satellite channel (blocked until AOS) and back, connects, sends a status that reaches the
// TNC, shows packets the TNC delivers (a message to us highlighted), clears the log and stops
// transmit with the emergency stop. The server's clock is fixed; the browser's starts there.

const NOW = '2026-11-23T12:00:00Z';
const skip = browserSkipReason() ?? false;

const text = (page: Page, sel: string) => page.locator(sel).first().innerText();
/** Failures this test provokes on purpose (a placeholder callsign) are not page problems. */
const unexpected = (errors: string[]) => errors.filter((e) => !/HTTP 400: POST .*\/api\/v1\/aprs\/session\/identity|status of 400/.test(e));

/** The emergency stop lies fully inside the viewport. */
async function estopInView(page: Page): Promise<boolean> {
  const box = await page.locator('[data-estop]').boundingBox();
  const vp = page.viewportSize()!;
  return !!box && box.y >= 0 && box.y + box.height <= vp.height && box.x >= 0 && box.x + box.width <= vp.width;
}

describe('/aprs page with a fake KISS TNC', { skip }, () => {
  let f: AprsFixture;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;
  before(async () => {
    [f, browser] = await Promise.all([aprsFixture({ now: NOW, settings: { callsign: '', ssid: 0, listen_only: true }, connect: false, eventsPacing: systemClock }), launch()]);
    const o = await openPage(browser, VIEWPORTS[0]);
    page = o.page;
    errors = o.problems.errors;
    close = () => o.context.close();
    await page.clock.install({ time: Date.parse(NOW) });
  });
  after(async () => {
    await close?.();
    await browser?.close();
    await f?.stop();
  });

  it('shows why it cannot transmit, sets the identity, lifts listen-only and shows a satellite target closed until AOS', async () => {
    await page.goto(f.s.base + '/aprs', { waitUntil: 'networkidle' });
    await page.locator('[data-block-reason]', { hasText: 'no callsign set' }).waitFor();
    assert.match(await text(page, '[data-identity]'), /no callsign/);
    assert.match(await text(page, '[data-connection]'), /not connected/);
    assert.equal(await page.locator('[data-estop]').count(), 0, 'no emergency stop while nothing runs');
    assert.match(await text(page, '[data-transport]'), /external KISS TNC at 127\.0\.0\.1/);
    await screenshot(page, 'aprs-no-callsign-480x320');

    // A placeholder: the API's reason under the field, nothing saved.
    await page.fill('#aprs-call', 'N0CALL');
    await page.getByRole('button', { name: 'Set identity' }).click();
    await page.locator('[data-field-error="callsign"]', { hasText: 'placeholder' }).waitFor();
    assert.equal((await f.s.get('/api/v1/settings/aprs')).body.state.callsign, '');

    await page.fill('#aprs-call', 'dl1abc');
    await page.selectOption('#aprs-ssid', '9');
    await page.getByRole('button', { name: 'Set identity' }).click();
    await page.locator('[data-outcome="identity"].ok', { hasText: 'DL1ABC-9' }).waitFor();
    await page.locator('[data-identity]', { hasText: 'DL1ABC-9' }).waitFor();
    const saved = (await f.s.get('/api/v1/settings/aprs')).body.state;
    assert.deepEqual([saved.callsign, saved.ssid], ['DL1ABC', 9]);
    // The next reason in the gate's order.
    await page.locator('[data-block-reason]', { hasText: 'listen-only is on' }).waitFor();

    // Allowing transmit takes two presses.
    await page.getByRole('button', { name: 'Allow transmit' }).click();
    assert.equal((await f.s.get('/api/v1/settings/aprs')).body.state.listen_only, true, 'one press changes nothing');
    await page.locator('.aprs-station button[data-armed]').click();
    await page.locator('[data-listen-only="false"]').waitFor();
    await page.locator('[data-gate="open"]').waitFor();
    assert.match(await text(page, '[data-send-hint]'), /Connect to send/);
    assert.equal(await page.getByRole('button', { name: 'Send status' }).isDisabled(), true);

    // The ISS channel: closed until AOS, which shows as a local time with a countdown.
    const iss = (await f.s.get('/api/v1/aprs/targets')).body.items.find((t: { sat_id: string | null }) => t.sat_id === 'iss');
    assert.ok(iss, 'the ISS APRS channel is a target');
    await page.locator(`[data-target="iss/${iss.channel_id}"]`).click();
    await page.locator('[data-target-label]', { hasText: 'ISS' }).waitFor();
    await page.locator('[data-block-reason]', { hasText: 'outside the pass' }).waitFor();
    const aos = page.locator('[data-pass-line][data-aos]');
    await aos.waitFor();
    assert.equal(await aos.getAttribute('data-aos'), iss.pass_aos);
    assert.match(await aos.innerText(), /AOS .*\d\d:\d\d UTC · in \d+:\d\d/);
    assert.equal((await f.s.get('/api/v1/aprs/state')).body.settings.selected_satellite_id, 'iss');
    await page.locator(`[data-target="iss/${iss.channel_id}"][aria-pressed="true"]`).waitFor();
    await page.locator('[data-block-reason]').scrollIntoViewIfNeeded();
    await screenshot(page, 'aprs-satellite-aos-480x320');

    await page.locator('[data-target="terrestrial"]').click();
    await page.locator('[data-gate="open"]').waitFor();
    assert.equal((await f.s.get('/api/v1/aprs/state')).body.settings.operating_mode, 'terrestrial');
    assert.deepEqual(unexpected(errors), []);
  });

  it('connects to the TNC, sends a status, and shows received packets (a message to us highlighted) and the log', async () => {
    await page.evaluate(() => scrollTo(0, 0));
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.locator('[data-connection]', { hasText: /^connected$/ }).waitFor();
    await until(() => f.tnc.connections === 1, 'the station on the fake TNC');
    await page.locator('[data-estop]').waitFor();
    assert.ok(await estopInView(page), 'emergency stop on screen at the top');

    await page.fill('#aprs-text', 'portable test');
    await page.getByRole('button', { name: 'Send status' }).click();
    await page.locator('[data-outcome="send"].ok', { hasText: 'status sent' }).waitFor();
    await until(() => f.tnc.frames.length === 1, 'the status at the TNC');
    assert.match(tnc2Of(f.tnc.frames[0]), /^DL1ABC-9>AP[A-Z0-9]+,WIDE1-1,WIDE2-1:>portable test$/);
    await page.locator('[data-last-tx]', { hasText: 'portable test' }).waitFor();
    // The flood guard holds the next send (the server's clock stands still; the browser's runs).
    await page.locator('[data-next-tx]').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Send status' }).isDisabled(), true);
    // Past it in the browser only: the server still refuses, and the page says why.
    await page.clock.fastForward(15_000);
    await page.locator('[data-next-tx]').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Send status' }).click();
    await page.locator('[data-outcome="send"].bad', { hasText: 'not sent: flood guard' }).waitFor();
    assert.equal(f.tnc.frames.length, 1, 'nothing more on the air');

    f.tnc.push(ax25('G4XYZ>APRS,WIDE1-1*:>on the air'));
    f.tnc.push(ax25('G4XYZ-1>APRS,WIDE1-1::DL1ABC-9 :meet on 145.500{12'));
    // A full run once waited 30 s here in vain (passing alone and under load since): a repeat says
    // where the packets stopped, at the TNC link, in the station or on the page's way to them.
    await page
      .locator('[data-packet="rx"]', { hasText: 'on the air' })
      .waitFor()
      .catch(async (err: Error) => {
        const rt = (await f.s.get('/api/v1/aprs/state')).body.runtime;
        const seen = { tnc_connections: f.tnc.connections, packets_rx: rt.packets_rx, recent: rt.recent_packets.length, kiss_connected: rt.kiss_connected, last_error: rt.last_error };
        const socket = await page.evaluate(() => document.documentElement.dataset.socket);
        const shown = await page.locator('[data-counters]').innerText().catch(() => '(no counters)');
        throw new Error(`${err.message}\nstation: ${JSON.stringify(seen)}; page socket: ${socket}; page counters: ${shown}`);
      });
    const forUs = page.locator('li.to-us[data-to-us]');
    await forUs.waitFor();
    assert.match(await forUs.innerText(), /G4XYZ-1[\s\S]*for you[\s\S]*meet on 145\.500/);
    await page.locator('[data-for-us-count]', { hasText: '1 for you' }).waitFor();
    await page.locator('[data-heard-call="G4XYZ-1"]').waitFor();
    await page.locator('[data-log] li').nth(1).waitFor();
    assert.equal(await page.locator('[data-log] li').count(), 2);
    assert.match(await text(page, '[data-log]'), /meet on 145\.500/);

    // Scrolled to the very end, the emergency stop is still on the small screen.
    await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
    assert.ok(await estopInView(page), 'emergency stop on screen when scrolled down');
    await screenshot(page, 'aprs-connected-scrolled-480x320');
    assert.deepEqual(unexpected(errors), []);
  });

  for (const vp of VIEWPORTS) {
    it(`fits ${vp.name} while connected`, async () => {
      const o = await openPage(browser, vp);
      await o.page.clock.install({ time: Date.parse(NOW) + 20_000 });
      await o.page.goto(f.s.base + '/aprs', { waitUntil: 'networkidle' });
      await o.page.locator('li.to-us').waitFor();
      await o.page.locator('[data-log] li').first().waitFor();
      await screenshot(o.page, `aprs-connected-${vp.name}`);
      assert.ok((await horizontalOverflow(o.page)) <= 0, `wider than ${vp.name}`);
      assert.ok(await estopInView(o.page), 'emergency stop on screen');
      const small = await o.page.evaluate(() =>
        Array.from(document.querySelectorAll<HTMLElement>('main button, main select, main input:not([type=checkbox]):not([type=radio]), main summary, main .btn, .aprs-kinds label'))
          .filter((el) => el.offsetParent !== null && el.getBoundingClientRect().height < 43.5)
          .map((el) => el.outerHTML.slice(0, 60)),
      );
      assert.deepEqual(small, [], 'touch targets under 44 px');
      const px = await o.page.evaluate(() => parseFloat(getComputedStyle(document.querySelector('[data-gate]')!).fontSize));
      assert.ok(px >= 18, `transmit gate ${px} px`);
      // The TNC output stays folded.
      assert.equal(await o.page.locator('[data-output-tail]').getAttribute('open'), null);
      assert.deepEqual(o.problems.errors, []);
      await o.context.close();
    });
  }

  it('clears the log after a second press, and the emergency stop drops the link at one tap', async () => {
    await page.selectOption('#aprs-bucket', 'all');
    const clear = page.getByRole('button', { name: 'Clear log' });
    await clear.click();
    assert.equal((await f.s.get('/api/v1/aprs/log')).body.items.length, 2, 'one press removes nothing');
    await page.getByRole('button', { name: 'Confirm: clear the whole log' }).click();
    await page.locator('[data-log-cleared]', { hasText: 'removed 2, kept 0' }).waitFor();
    await page.locator('[data-log-empty]').waitFor();
    assert.equal((await f.s.get('/api/v1/aprs/log')).body.items.length, 0);

    await page.locator('[data-estop]').click();
    await page.locator('[data-estopped]').waitFor();
    await page.locator('[data-outcome="estop"].ok', { hasText: 'transmit stopped' }).waitFor();
    await until(() => f.tnc.connections === 0, 'the TNC link dropped');
    await page.locator('[data-block-reason]', { hasText: 'emergency stop' }).waitFor();
    await page.getByRole('button', { name: 'Connect' }).waitFor();
    assert.equal(await page.locator('[data-estop]').count(), 0);
    const rt = (await f.s.get('/api/v1/aprs/state')).body.runtime;
    assert.deepEqual([rt.connected, rt.emergency_stopped], [false, true]);
    await page.evaluate(() => scrollTo(0, 0));
    await screenshot(page, 'aprs-emergency-stopped-480x320');
    assert.deepEqual(unexpected(errors), []);
  });

  it('has an APRS section in the settings: digipeater and iGate save on their own, the passcode never shown', async () => {
    const o = await openPage(browser, VIEWPORTS[2]);
    await o.page.goto(f.s.base + '/settings#aprs', { waitUntil: 'networkidle' });
    const section = o.page.locator('#aprs');
    await section.locator('[data-aprs-status]').waitFor();
    const digi = section.locator('form', { has: o.page.locator('h3', { hasText: /^Digipeater$/ }) });
    await digi.locator('.field').first().waitFor();
    await digi.getByLabel('Max hops').fill('3');
    await digi.getByRole('button', { name: 'Save' }).click();
    await digi.locator('.saved', { hasText: 'Max hops: 3' }).waitFor();
    assert.equal((await f.s.get('/api/v1/settings/aprs')).body.state.digipeater.max_hops, 3);

    const igate = section.locator('form', { has: o.page.locator('h3', { hasText: /^iGate$/ }) });
    await igate.getByLabel('Passcode').fill('12345');
    await igate.getByRole('button', { name: 'Save' }).click();
    const done = igate.locator('.saved');
    await done.waitFor();
    assert.doesNotMatch(await done.innerText(), /12345/);
    assert.equal((await f.s.get('/api/v1/settings/aprs')).body.state.igate.passcode, 12345);
    await section.locator('h2').evaluate((el) => el.scrollIntoView());
    await screenshot(o.page, 'settings-aprs-1280x800');
    assert.deepEqual(o.problems.errors, []);
    await o.context.close();
  });
});
