import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { aprsFixture, ax25, until, type AprsFixture } from '../aprs/aprs-fixture.js';
import { subscribed } from '../events/fixture.js';
import type { WsClient } from '../helpers/ws-client.js';
import { alsaFileDevice, type AlsaFileDevice } from './recording-fixture.js';

// What a recording hears besides audio: the APRS packets that come in while it runs are events of
// its journal (through a KISS TNC), and the recording topic on the socket carries the dot and the
// level once a second, then the end.

describe('a recording\'s APRS events and its topic', () => {
  let f: AprsFixture;
  let dev: AlsaFileDevice;
  let c: WsClient;
  const saved = process.env.XDG_CONFIG_HOME;
  before(async () => {
    dev = alsaFileDevice({ seconds: 4 });
    // arecord inherits this process's environment: the station's ALSA configuration for the test.
    process.env.XDG_CONFIG_HOME = dev.env.XDG_CONFIG_HOME;
    f = await aprsFixture();
    c = await subscribed(f.s, ['recording'], 100);
  });
  after(async () => {
    c?.destroy();
    await f?.stop();
    dev?.remove();
    if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
    else process.env.XDG_CONFIG_HOME = saved;
  });

  const pushed = async (pick: (m: any) => boolean) => {
    for (let i = 0; i < 20; i++) {
      const found = await c.next(pick, 250).catch(() => null);
      if (found) return found;
      f.clock.advance(100);
    }
    return c.next(pick, 2000);
  };

  it('an APRS packet heard while recording is in its journal with its offset; the topic shows REC and the level, then the end', async () => {
    assert.equal((await f.s.post('/api/v1/settings/recording', { enabled: true, source: 'alsa', alsa_device: dev.device })).status, 200);
    const start = await f.s.post('/api/v1/recordings/start', {});
    assert.equal(start.status, 200, JSON.stringify(start.body));
    const id = start.body.runtime.id;
    // The topic's min_period runs on the station's fixed clock: a change inside it goes out once the clock moves on.
    await pushed((m) => m.topic === 'recording' && m.data.runtime.recording === true && m.data.runtime.id === id);
    // The level comes with the next journal tick (the station's clock: moved a second on).
    for (let i = 0; i < 20 && !c.events('recording').some((e) => e.data.runtime.level_dbfs !== null); i++) {
      f.clock.advance(1000);
      await new Promise((r) => setTimeout(r, 100));
    }
    const level = c.events('recording').find((e) => e.data.runtime.level_dbfs !== null);
    assert.ok(level && level.data.runtime.level_dbfs > -30, `a level on the topic: ${JSON.stringify(level?.data)}`);
    f.clock.advance(3000);
    const heardAt = f.clock.now();
    f.tnc.push(ax25('N0CALL-9>APRS,WIDE1-1:>heard during the pass'));
    await until(async () => (await f.s.get(`/api/v1/recordings/${id}`)).body.events.some((e: any) => e.kind === 'aprs'), 'the packet in the journal');
    assert.equal((await f.s.post('/api/v1/recordings/stop')).status, 200);
    await pushed((m) => m.topic === 'recording' && m.data.runtime.recording === false);
    const d = (await f.s.get(`/api/v1/recordings/${id}`)).body;
    const e = d.events.find((x: any) => x.kind === 'aprs');
    assert.equal(e.source, 'N0CALL-9');
    assert.match(e.packet, /^N0CALL-9>APRS.*:>heard during the pass$/);
    // Its offset is the station's clock at the packet, from the recording's start.
    assert.equal(e.recording_offset_s, Math.round((heardAt - Date.parse(d.started_at)) / 100) / 10);
    assert.ok(e.recording_offset_s >= 3);
  });
});
