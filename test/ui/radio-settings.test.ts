import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { browserSkipReason, horizontalOverflow, launch, openPage, screenshot, startUiServer, VIEWPORTS } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';
import { UPLINK_RIG_START } from '../../ui/components/settings/rig-fields.js';

// /settings → Radio with the radios of issue 34, in Chromium against the real server: one radio
// or two (uplink_rig null, or a second radio's whole link sent with the first save), each link
// showing only the fields its model and transport use, and the API's 400 for an uplink field
// shown beside that field in the uplink block. settings.test.ts lists the models' names.

const skip = browserSkipReason() ?? false;
/** A 400 the test provokes on purpose is not a page problem. */
const unexpected = (errors: string[]) => errors.filter((e) => !/HTTP 400: POST .*\/api\/v1\/settings\/radio|status of 400/.test(e));

describe('/settings → Radio: one radio or two, each with its own link', { skip }, () => {
  let s: TestServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const form = () => page.locator('[data-form="/api/v1/settings/radio"]');
  const block = () => form().locator('[data-group="uplink_rig"]');
  /** How many fields labelled so are shown in `where` (the main rig's: the form outside the uplink block). */
  const shown = (where: Locator, label: string) => where.getByLabel(label, { exact: true }).count();
  const mainShown = async (label: string) => (await shown(form(), label)) - (await block().count() ? await shown(block(), label) : 0);
  const saveAndWait = async () => {
    await form().getByRole('button', { name: 'Save' }).click();
  };
  const state = async () => (await s.get('/api/v1/settings/radio')).body.state;
  /** Screenshots at the three sizes with `at` in view, none wider than the screen. */
  const shoot = async (at: Locator, name: string) => {
    for (const vp of VIEWPORTS) {
      await page.setViewportSize(vp);
      await at.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await screenshot(page, `${name}-${vp.name}`);
      assert.ok((await horizontalOverflow(page)) <= 0, `${name} fits ${vp.name}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  };

  before(async () => {
    s = await startUiServer();
    browser = await launch();
    const o = await openPage(browser, { width: 1280, height: 800 });
    page = o.page;
    errors = o.problems.errors;
    await page.goto(s.base + '/settings#radio', { waitUntil: 'networkidle' });
    await form().locator('.field').first().waitFor();
  });
  after(async () => {
    await browser?.close();
    await s?.stop();
  });

  it('an FT-818 hides the CI-V address and the transport; Hamlib asks for its model, and a rigctld address stands for model and port', async () => {
    const rig = form().getByLabel('Rig', { exact: true });
    assert.deepEqual([await mainShown('CI-V address'), await mainShown('Transport'), await mainShown('Serial device')], [1, 1, 1], 'IC-705 on USB');
    // Wi-Fi first: a model without Wi-Fi then puts the link back on USB (the API would refuse wifi).
    await form().getByLabel('Transport').selectOption('wifi');
    assert.equal(await mainShown('Rig address'), 1);
    await rig.selectOption('ft818');
    assert.deepEqual([await mainShown('CI-V address'), await mainShown('Transport'), await mainShown('Rig address'), await mainShown('Password')], [0, 0, 0, 0], 'FT-818: no CI-V, no Wi-Fi');
    assert.deepEqual([await mainShown('Serial device'), await mainShown('Baud rate')], [1, 1], 'FT-818: its CAT port');
    assert.deepEqual([await mainShown('Hamlib model'), await mainShown('rigctld address')], [0, 0]);
    await form().getByLabel('Baud rate').selectOption('9600');
    await form().getByLabel('Serial device').fill('/dev/ttyUSB0');
    await shoot(form().getByLabel('Rig', { exact: true }), 'settings-radio-ft818');
    await saveAndWait();
    await form().locator('.saved', { hasText: 'Yaesu FT-818' }).waitFor();
    const st = await state();
    assert.deepEqual([st.rig_model, st.transport, st.baud_rate, st.serial_device], ['ft818', 'usb', 9600, '/dev/ttyUSB0']);

    await rig.selectOption('hamlib');
    assert.deepEqual([await mainShown('Hamlib model'), await mainShown('rigctld address'), await mainShown('Serial device'), await mainShown('CI-V address')], [1, 1, 1, 0], 'Hamlib: rigctld run here, on the serial port');
    assert.match((await form().locator('.field', { has: page.getByLabel('Hamlib model') }).innerText()), /rigctl -l/, 'the model number as rigctl -l lists it');
    await form().getByLabel('rigctld address').fill('127.0.0.1:4532');
    assert.deepEqual([await mainShown('Hamlib model'), await mainShown('Serial device'), await mainShown('Baud rate')], [0, 0, 0], 'a rigctld you run: its own model and port');
    await form().getByLabel('rigctld address').fill('');
    await form().getByLabel('Hamlib model').fill('1035');
    // Where Hamlib is installed the page offers rigctl -l's models beside the number, satellite radios first.
    const models = (await s.get('/api/v1/radio/hamlib-models')).body;
    if (models.available) {
      const offered = await form().getByLabel('Hamlib model').evaluate((el) =>
        Array.from((el as HTMLInputElement).list?.options ?? []).map((o) => ({ value: o.value, label: o.label })),
      );
      assert.equal(offered.length, models.items.length, 'every model offered');
      assert.ok(offered.some((o) => o.value === '1035' && /FT-991/.test(o.label)), 'the FT-991 by its number and name');
      assert.match(offered[0].label, /\(satellite\)/, 'satellite radios first');
    } else {
      assert.match(await page.locator('[data-hamlib-models-note]').innerText(), /libhamlib-utils|rigctl/);
    }
    await shoot(form().getByLabel('Hamlib model'), 'settings-radio-hamlib');
    await rig.selectOption('rigA');
    await saveAndWait();
    await form().locator('.saved', { hasText: 'Icom IC-705' }).waitFor();
    assert.equal((await state()).rig_model, 'rigA');
    assert.deepEqual(unexpected(errors), []);
  });

  it('one radio → two radios → save: the uplink radio’s whole link goes with the first save, in a block with the same rules', async () => {
    const radios = form().getByLabel('Radios');
    assert.equal(await radios.inputValue(), '', 'one radio to start with');
    assert.equal(await block().count(), 0, 'no uplink radio block');
    await shoot(radios, 'settings-radio-one');
    await radios.selectOption({ label: 'Two radios' });
    await block().waitFor();
    assert.equal(await block().locator('legend').innerText(), 'Uplink radio (transmits)');
    // The uplink radio starts as an IC-705 on USB; its rules are the main rig's.
    assert.equal(await block().getByLabel('Rig', { exact: true }).inputValue(), 'rigA');
    assert.deepEqual([await shown(block(), 'CI-V address'), await shown(block(), 'Transport'), await shown(block(), 'Serial device'), await shown(block(), 'Rig address')], [1, 1, 1, 0]);
    await block().getByLabel('Transport').selectOption('wifi');
    assert.deepEqual([await shown(block(), 'Rig address'), await shown(block(), 'Password'), await shown(block(), 'Serial device')], [1, 1, 0], 'the uplink IC-705 on Wi-Fi');
    await block().getByLabel('Rig', { exact: true }).selectOption('ft818');
    assert.deepEqual([await shown(block(), 'CI-V address'), await shown(block(), 'Transport'), await shown(block(), 'Rig address'), await shown(block(), 'Serial device')], [0, 0, 0, 1], 'an FT-818 uplink: its CAT port only');
    await block().getByLabel('Serial device').fill('/dev/ttyUSB1');
    await block().getByLabel('Baud rate').selectOption('9600');
    assert.equal(await mainShown('CI-V address'), 1, 'the main IC-705 keeps its own fields');
    await shoot(form().getByLabel('Radios'), 'settings-radio-two');

    await saveAndWait();
    const saved = form().locator('.saved');
    await saved.waitFor();
    assert.match(await saved.innerText(), /Radios: Two radios · Uplink radio \(transmits\) \(Rig: Yaesu FT-818 \(not validated\), Serial device: \/dev\/ttyUSB1, Baud rate: 9600\)/);
    assert.deepEqual((await state()).uplink_rig, { ...UPLINK_RIG_START, rig_model: 'ft818', serial_device: '/dev/ttyUSB1', baud_rate: 9600 }, 'the whole link, as the page started it and the operator changed it');
    await shoot(saved, 'settings-radio-two-saved');
    // A reload reads both radios back.
    await page.reload({ waitUntil: 'networkidle' });
    await block().waitFor();
    assert.equal(await form().getByLabel('Radios').inputValue(), 'set');
    assert.equal(await block().getByLabel('Serial device').inputValue(), '/dev/ttyUSB1');
    assert.deepEqual(unexpected(errors), []);
  });

  it('a 400 naming uplink_rig.serial_device stands beside the uplink radio’s port, and nothing is saved', async () => {
    assert.equal((await s.post('/api/v1/settings/radio', { serial_device: '/dev/ttyACM0' })).status, 200);
    await page.reload({ waitUntil: 'networkidle' });
    await block().waitFor();
    const port = block().getByLabel('Serial device');
    await port.fill('/dev/ttyACM0');
    await saveAndWait();
    const err = block().locator('[data-field-error="uplink_rig.serial_device"]');
    await err.waitFor();
    assert.match(await err.innerText(), /each radio needs its own serial device/);
    assert.equal(await port.getAttribute('aria-invalid'), 'true');
    assert.match((await port.getAttribute('aria-describedby')) ?? '', /uplink_rig\.serial_device-err/);
    assert.equal(await form().locator('[data-field-error="serial_device"]').count(), 0, 'not beside the main rig’s port');
    assert.equal(await form().locator('[data-field-error="uplink_rig"]').count(), 0, 'nor beside the Radios choice');
    await shoot(err, 'settings-radio-uplink-error');
    // A port the schema refuses: the same place.
    await port.fill('ttyUSB1');
    await saveAndWait();
    await block().locator('[data-field-error="uplink_rig.serial_device"]', { hasText: /\/dev/ }).waitFor();
    assert.equal((await state()).uplink_rig.serial_device, '/dev/ttyUSB1', 'nothing saved');
  });

  it('two radios → one radio: uplink_rig is null again, and two radios again starts from what was saved', async () => {
    await form().getByLabel('Radios').selectOption({ label: 'One radio' });
    await block().waitFor({ state: 'detached' });
    await form().getByLabel('Radios').selectOption({ label: 'Two radios' });
    assert.equal(await block().getByLabel('Serial device').inputValue(), '/dev/ttyUSB1', 'the saved uplink radio, not the starting one');
    await form().getByLabel('Radios').selectOption({ label: 'One radio' });
    await saveAndWait();
    await form().locator('.saved', { hasText: 'Radios: One radio' }).waitFor();
    assert.equal((await state()).uplink_rig, null);
    assert.deepEqual(unexpected(errors), []);
  });
});
