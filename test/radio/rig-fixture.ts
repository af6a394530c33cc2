import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { openPtyPair, type PtyPair } from '../sims/pty-pair.js';
import { CivRigSim, type RigKind } from '../sims/civ-rig.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { FixedClock, type Clock } from '../../src/util/clock.js';
import type { CivTimeouts } from '../../src/radio/civ-bus.js';

// A simulated rig on a pseudo-terminal, the real server talking to it through serialport:
// everything from the HTTP route to the CI-V bytes on the wire is the product's own code.

/** Short enough that a fault test is quick, long enough for a loaded CI machine. */
export const TEST_CIV_TIMEOUTS: CivTimeouts = { reply_ms: 250, read_retries: 1, jam_retries: 2 };

export interface RigFixture {
  pty: PtyPair;
  sim: CivRigSim;
  s: TestServer;
  clock: Clock;
  stop(): Promise<void>;
}

export async function rigFixture(o: { kind?: RigKind; echo?: boolean; transceive?: boolean; now?: string; clock?: Clock; connect?: boolean; settings?: Record<string, unknown> } = {}): Promise<RigFixture> {
  const kind = o.kind ?? 'IC-705';
  const pty = await openPtyPair();
  const sim = new CivRigSim({ kind, echo: o.echo ?? false, transceive: o.transceive ?? true });
  await sim.open(pty.rigPath);
  const clock = o.clock ?? new FixedClock(Date.parse(o.now ?? '2026-08-22T12:00:00Z'));
  // UI_DIR: page tests may serve a UI build of their own (startUiServer does the same).
  const uiDir = process.env.UI_DIR ? resolve(process.env.UI_DIR) : null;
  const s = await startServer({ clock, config: { uiDir }, app: { civTimeouts: TEST_CIV_TIMEOUTS } });
  const set = await s.post('/api/v1/settings/radio', {
    enabled: true,
    serial_device: pty.ctlPath,
    baud_rate: 115200,
    rig_model: kind === 'IC-705' ? 'rigA' : 'rigB',
    civ_address: kind === 'IC-705' ? '0xA4' : '0xA2',
    ...o.settings,
  });
  if (set.status !== 200) throw new Error(`radio settings refused: ${JSON.stringify(set.body)}`);
  if (o.connect !== false) {
    const c = await s.post('/api/v1/radio/connect');
    if (c.status !== 200) throw new Error(`connect failed: ${JSON.stringify(c.body)}`);
  }
  return {
    pty,
    sim,
    s,
    clock,
    async stop() {
      await s.stop();
      await sim.close().catch(() => {});
      await pty.close();
    },
  };
}

/** Waits (real time) until cond holds; the serial exchange runs on real I/O. */
export async function until(cond: () => boolean | Promise<boolean>, what: string, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * Moves a fixed clock, then waits (real time) until the timers that were armed are armed again:
 * the poll loop and auto-track each arm their next timer only when their serial exchange is done,
 * so they are back exactly when the rig has answered, however slow the machine.
 */
export async function loopTick(clock: FixedClock, ms: number): Promise<void> {
  const armed = clock.pendingTimers;
  clock.advance(ms);
  await until(() => clock.pendingTimers >= armed, `the loops re-armed after ${ms} ms`);
}

/** The command bytes of every frame the rig received since the log was cleared, as "07 00" strings. */
export const wire = (sim: CivRigSim): string[] =>
  sim.log.map((e) => [e.cmd, ...e.data].map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join(' '));

/** The operator's own rig state before the appliance touches it: none of it survives a satellite apply. */
export function setOperatorState(sim: CivRigSim): void {
  sim.state.vfoA.freq = 14_074_000;
  sim.state.vfoA.mode = 'USB';
  sim.state.vfoB.freq = 7_074_000;
  sim.state.vfoB.mode = 'LSB';
  sim.state.split = false;
  sim.state.squelch = 96;
  sim.state.scope.on = false;
  sim.state.scope.mode = 'fixed';
  sim.state.scope.spanHalfHz = 25_000;
}

/** The rig is back exactly as setOperatorState left it, VFO A selected. */
export function assertOperatorState(sim: CivRigSim): void {
  assert.equal(sim.state.squelch, 96, 'squelch back');
  assert.equal(sim.state.scope.on, false, 'scope back off');
  assert.equal(sim.state.scope.mode, 'fixed', 'scope mode back');
  assert.equal(sim.state.scope.spanHalfHz, 25_000, 'scope span back');
  assert.equal(sim.state.split, false, 'split back off');
  assert.equal(sim.state.vfoA.freq, 14_074_000);
  assert.equal(sim.state.vfoA.mode, 'USB');
  assert.equal(sim.state.vfoB.freq, 7_074_000);
  assert.equal(sim.state.vfoB.mode, 'LSB');
  assert.equal(sim.state.selected, 'A');
}
