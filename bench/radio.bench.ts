import { existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { FixedClock } from '../src/util/clock.js';
import { tmpDataDir } from '../test/helpers/server.js';
import { spawnDeployed, usePrebuiltServer } from '../test/helpers/deployed.js';
import { openPtyPair } from '../test/sims/pty-pair.js';
import { CivRigSim } from '../test/sims/civ-rig.js';
import { fullOnly, medianMs, section, type Suite } from './harness.js';
import { describeRuntime } from './child-bundle.js';
import { needProc, needPty, serverBundle, serverMain } from './env.js';

// Rig control budgets (issue 11): one auto-track tick's arithmetic (recommendation plus diff, no
// write), a full pair apply end to end against the rig simulator at 115200 baud over a pty, and
// the server's RSS with the rig connected and auto-tracking against the same server idle; issue
// 34: the same with two radios, and the Yaesu and Hamlib drivers kept out of the entry.

const N = 1000;

async function tickAndApply(): Promise<{ tickUs: number; applyMs: number }> {
  const dataDir = tmpDataDir('bench-radio-');
  const pty = await openPtyPair();
  const sim = new CivRigSim({ kind: 'IC-705' });
  await sim.open(pty.rigPath);
  const clock = new FixedClock(Date.parse('2026-08-22T12:00:00Z'));
  const app = new App({ config: { ...loadConfig({}, 4 * 1024 ** 3), port: 0, host: '127.0.0.1', dataDir }, clock });
  try {
    await app.start();
    const s = app.services;
    await s.orbit.table.ready();
    await s.stores.radio.update({ enabled: true, serial_device: pty.ctlPath, baud_rate: 115200 });
    await s.radio.connect();
    const [p] = await s.orbit.passesWhenReady({ from_ms: clock.now(), hours: 48, min_max_el_deg: 20, sat_ids: ['rs-44'], include_ongoing: false });
    clock.set(p.tca_ms);
    await s.radio.startAutoTrack('rs-44', 60_000);
    const { tracker } = await s.radio.engine();
    const t0 = clock.now();
    let k = 0;
    let sink = 0;
    const tickMs = await medianMs(`auto-track tick x${N}`, () => {
      for (let i = 0; i < N; i++) sink += tracker.compute(t0 + (k++ % 600) * 1000)!.targets.rx_hz > 0 ? 1 : 0;
    });
    tracker.stop();
    const pair = { uplink_hz: 145_965_000, downlink_hz: 435_640_000, uplink_mode: 'LSB', downlink_mode: 'USB' };
    let flip = 0;
    const applyMs = await medianMs('pair apply end to end', async () => {
      await s.radio.writePair({ ...pair, downlink_hz: pair.downlink_hz + (flip++ % 2) * 1000 });
    }, { time: 1000, iterations: 20, quickIterations: 10 });
    if (sink < 0) console.log(sink);
    return { tickUs: (tickMs / N) * 1000, applyMs };
  } finally {
    await app.stop();
    await sim.close();
    await pty.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The deployed bundle under the unit's flags: RSS idle (radio control on, not connected), then
 * connected and auto-tracking, with one radio or two (the second transmitting the uplink).
 */
async function rssDelta(radios: 1 | 2): Promise<{ idle: number; tracking: number }> {
  usePrebuiltServer(serverBundle());
  const rigs = await Promise.all(
    Array.from({ length: radios }, async () => {
      const pty = await openPtyPair();
      const sim = new CivRigSim({ kind: 'IC-705' });
      await sim.open(pty.rigPath);
      return { pty, sim };
    }),
  );
  const srv = await spawnDeployed();
  const pid = srv.child.pid!;
  const post = (path: string, body: unknown = {}) => fetch(srv.base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  try {
    const link = (ctlPath: string) => ({ rig_model: 'rigA', transport: 'usb', serial_device: ctlPath, baud_rate: 115200, civ_address: '0xA4', hamlib_model: 0, hamlib_address: '', wifi_host: '', wifi_username: '', wifi_password: '', wifi_control_port: 50001 });
    const uplink_rig = radios === 2 ? link(rigs[1].pty.ctlPath) : null;
    const set = await post('/api/v1/settings/radio', { enabled: true, ...link(rigs[0].pty.ctlPath), uplink_rig, poll_interval_ms: 500 });
    if (set.status !== 200) throw new Error(`bench: radio settings refused: ${await set.text()}`);
    // Same traffic in both phases: a UI polling radio state twice a second.
    const phase = async (ms: number) => {
      const samples: number[] = [];
      for (let t = 0; t < ms; t += 500) {
        await fetch(srv.base + '/api/v1/radio/state').then((r) => r.text());
        await sleep(500);
        samples.push(rssMiB(pid));
      }
      return samples.slice(-6).reduce((a, b) => a + b, 0) / 6;
    };
    const idle = await phase(8000);
    if ((await post('/api/v1/radio/connect')).status !== 200) throw new Error('bench: connect failed');
    if ((await post('/api/v1/radio/auto-track/start', { sat_id: 'iss', interval_ms: 250 })).status !== 200) throw new Error('bench: auto-track failed');
    const tracking = await phase(12_000);
    return { idle, tracking };
  } finally {
    await srv.stop();
    for (const r of rigs) {
      await r.sim.close();
      await r.pty.close();
    }
  }
}

/**
 * Nothing of a driver is loaded until its model is chosen: esbuild puts what only the lazily
 * imported Yaesu and Hamlib line openers reach into dist/chunks; the entry must not hold their code.
 */
function driverSplit(bundle: string): Array<{ name: string; chunk: string | null; inEntry: boolean }> {
  const dir = join(dirname(bundle), 'chunks');
  const files = existsSync(dir) ? readdirSync(dir) : [];
  const entry = readFileSync(serverMain(bundle), 'utf8');
  // A string only each driver's own code carries: the Yaesu opcodes table's name, rigctld's opening.
  return [
    { name: 'Yaesu 5-byte CAT', chunk: files.find((f) => /^yaesu-line-.*\.cjs$/.test(f)) ?? null, inEntry: entry.includes('READ_TX_STATUS') },
    { name: 'Hamlib rigctld', chunk: files.find((f) => /^hamlib-line-.*\.cjs$/.test(f)) ?? null, inEntry: entry.includes('chk_vfo') },
  ];
}

export const radioSuite: Suite = {
  name: 'radio: auto-track tick, pair apply, RSS',
  async run() {
    const tick = await section('auto-track tick and pair apply (rig simulator over a socat pty)', async () => {
      needPty();
      const { tickUs, applyMs } = await tickAndApply();
      return [
        { name: 'auto-track tick (recommendation + diff, no write)', value: tickUs, unit: 'µs', budget: 200 },
        { name: 'full pair apply, simulator at 115200 baud', value: applyMs, unit: 'ms', budget: 150, note: '7 commands and their OKs over a pty (a pty does not pace bytes: on a real 115200 baud wire add ~17 ms for ~200 bytes with echo)' },
      ];
    });
    const rss = await section('RSS connected + auto-tracking minus idle', async () => {
      fullOnly('20 s of server RSS sampling');
      needPty();
      needProc();
      const one = await rssDelta(1);
      const two = await rssDelta(2);
      return [
        {
          name: 'RSS connected + auto-tracking minus idle',
          value: one.tracking - one.idle,
          unit: 'MiB',
          budget: 4,
          note: `idle ${one.idle.toFixed(1)} MiB, tracking ${one.tracking.toFixed(1)} MiB (poll 500 ms, tick 250 ms; ${describeRuntime()})`,
        },
        {
          name: 'RSS two radios connected + auto-tracking minus idle',
          value: two.tracking - two.idle,
          unit: 'MiB',
          budget: 3,
          note: `idle ${two.idle.toFixed(1)} MiB (radio control on, not connected), tracking ${two.tracking.toFixed(1)} MiB: two IC-705 simulators, downlink and uplink`,
        },
      ];
    });
    const split = await section('rig drivers loaded only when their model is chosen (the deployed bundle)', async () => {
      const bundle = serverBundle();
      return driverSplit(bundle).map((d) => ({
        name: `${d.name} code in the entry (0: only in its chunk)`,
        value: d.inEntry || !d.chunk ? 1 : 0,
        unit: '',
        budget: 0,
        note: d.chunk ? `chunks/${d.chunk} (${(statSync(join(dirname(bundle), 'chunks', d.chunk)).size / 1024).toFixed(0)} KiB) read when the model is chosen` : 'no chunk of its own in dist/chunks',
      }));
    });
    return [...tick, ...rss, ...split];
  },
};
