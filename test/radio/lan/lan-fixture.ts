import { resolve } from 'node:path';
import { CivRigSim } from '../../sims/civ-rig.js';
import { IcomLanSim, type IcomLanSimOptions } from '../../sims/icom-lan-sim.js';
import { startServer, type TestServer } from '../../helpers/server.js';
import { FixedClock, type Clock } from '../../../src/util/clock.js';
import type { LanTimings } from '../../../src/radio/lan/timings.js';

// The IC-705 over Wi-Fi for tests: the rig simulator behind the Icom LAN emulator on 127.0.0.1,
// and the real server talking to it over UDP with the product's own session code.

export const LAN_USER = 'satuser';
export const LAN_PASS = 'pa55word';

/** Quicker than the radio's own, so a lost session is noticed in a test's time. */
export const TEST_LAN_TIMINGS: Partial<LanTimings> = {};

export interface LanFixture {
  rig: CivRigSim;
  lan: IcomLanSim;
  s: TestServer;
  clock: FixedClock;
  stop(): Promise<void>;
}

/** `clock` replaces the fixed clock (a page test on real time); `clock` in the answer is then unused. */
export async function lanFixture(o: { now?: string; sim?: Partial<IcomLanSimOptions>; env?: NodeJS.ProcessEnv; clock?: Clock } = {}): Promise<LanFixture> {
  const rig = new CivRigSim({ kind: 'IC-705' });
  const lan = new IcomLanSim({ rig, username: LAN_USER, password: LAN_PASS, ...o.sim });
  await lan.start();
  const clock = new FixedClock(Date.parse(o.now ?? '2026-08-22T12:00:00Z'));
  const uiDir = process.env.UI_DIR ? resolve(process.env.UI_DIR) : null;
  const s = await startServer({
    clock: o.clock ?? clock,
    config: { uiDir },
    app: { lan: { preflightTimeoutMs: 600, timings: TEST_LAN_TIMINGS }, aprsTransport: o.env ? { env: o.env } : undefined },
  });
  return {
    rig,
    lan,
    s,
    clock,
    async stop() {
      await s.stop();
      await lan.stop();
    },
  };
}

/** Radio settings for this fixture's emulator (Wi-Fi transport). */
export const radioWifi = (f: LanFixture, extra: Record<string, unknown> = {}) => ({
  enabled: true,
  rig_model: 'rigA',
  civ_address: '0xA4',
  transport: 'wifi',
  wifi_host: '127.0.0.1',
  wifi_control_port: f.lan.controlPort,
  wifi_username: LAN_USER,
  wifi_password: LAN_PASS,
  ...extra,
});

/** A UDP port on 127.0.0.1 that nothing listens on (bound, read, closed). */
export async function closedUdpPort(): Promise<number> {
  const dgram = await import('node:dgram');
  const sock = dgram.createSocket('udp4');
  await new Promise<void>((r) => sock.bind(0, '127.0.0.1', () => r()));
  const port = sock.address().port;
  await new Promise<void>((r) => sock.close(() => r()));
  return port;
}
