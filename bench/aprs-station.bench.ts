import { readFileSync, rmSync } from 'node:fs';
import { App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { FixedClock } from '../src/util/clock.js';
import { tmpDataDir } from '../test/helpers/server.js';
import { spawnDeployed, usePrebuiltServer } from '../test/helpers/deployed.js';
import { FakeKissTnc, ax25 } from '../test/aprs/aprs-fixture.js';
import { fullOnly, profile, section, settleHeap, type Suite } from './harness.js';
import { describeRuntime } from './child-bundle.js';
import { needDir, needProc, serverBundle } from './env.js';
import { openPtyPair } from '../test/sims/pty-pair.js';
import { CivRigSim } from '../test/sims/civ-rig.js';
import { RotatorSim } from '../test/sims/rotator-sim.js';

// APRS receive budgets (issue 12): a 10-minute soak at 50 packets/s through the whole receive
// path (KISS over TCP from a fake TNC, AX.25 + APRS decode, recent/heard, the stored log,
// digipeater dedupe) on a fixed clock advanced 20 ms a packet, heap and RSS printed before and
// after; then the deployed bundle's RSS with the station connected and receiving. The quick
// profile soaks one simulated minute with a 1,000-record log (warm-up past its first compaction).

const RATE = 50;
const MiB = 1024 ** 2;
const plan = () => (profile.quick ? { soakS: 60, warmup: 2000, logCap: 1000 } : { soakS: 600, warmup: 20_000, logCap: 5000 });

/** A realistic mix: positions (several formats), messages, status; many stations so the heard list fills. */
function packet(i: number): Uint8Array {
  const call = `N${i % 10}A${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + ((i >> 5) % 26))}`;
  const kinds = [
    `${call}>APRS,WIDE1-1,WIDE2-1:!4903.${String(i % 100).padStart(2, '0')}N/07201.75W-PHG2360 soak ${i}`,
    `${call}>APRS,DIGI1*,WIDE2-1::N0CALL   :msg ${i}{${i % 1000}`,
    `${call}>APRS,WIDE2-2:>status ${i}`,
    `${call}>T2SP0W,WIDE1-1:\`c_Vm6hk/\`"49}_%`,
    `${call}>APRS:=/5L!!<*e7>7P[ compressed ${i}`,
  ];
  return ax25(kinds[i % kinds.length]);
}

async function soak(): Promise<{ before: NodeJS.MemoryUsage; after: NodeJS.MemoryUsage; received: number }> {
  const { soakS, warmup, logCap } = plan();
  const dataDir = tmpDataDir('bench-aprs-');
  const tnc = new FakeKissTnc();
  await tnc.listen();
  const clock = new FixedClock(Date.parse('2026-11-23T12:00:00Z'));
  const app = new App({ config: { ...loadConfig({}, 4 * 1024 ** 3), port: 0, host: '127.0.0.1', dataDir }, clock });
  try {
    await app.start();
    const s = app.services;
    await s.stores.aprs.update({ callsign: 'G4ABC', listen_only: false, kiss_host: '127.0.0.1', kiss_port: tnc.port, log_enabled: true, log_max_records: logCap, digipeater: { enabled: true, aliases: ['WIDE1-1'], max_hops: 2, dedupe_window_s: 30, callsign_allowlist: [], path_blocklist: [] } });
    await s.aprs.connect();
    const run = async (n: number, from: number) => {
      for (let i = 0; i < n; i++) {
        tnc.push(packet(from + i));
        clock.advance(1000 / RATE);
        if (i % RATE === RATE - 1) {
          // One second of traffic, then let the event loop take it in (as the real 1 s would).
          await new Promise((r) => setTimeout(r, 1));
          tnc.frames.length = 0; // the fake TNC's record of digipeated frames is not the station's memory
                  }
      }
      const want = from + n;
      for (let k = 0; k < 500 && s.aprs.runtime().packets_rx < want; k++) await new Promise((r) => setTimeout(r, 5));
    };
    // Warm-up: past the log's first compaction (1.25 × its cap) and every packet format, so the
    // bounded structures are full and the code is compiled before the measured soak.
    await run(warmup, 0);
    await s.aprs.flushLog();
    await settleHeap();
    const before = process.memoryUsage();
    await run(RATE * soakS, warmup);
    await s.aprs.flushLog();
    await settleHeap();
    const after = process.memoryUsage();
    return { before, after, received: s.aprs.runtime().packets_rx };
  } finally {
    await app.stop();
    await tnc.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The deployed bundle with every area it has loaded and running: radio control connected to the
 * IC-705 simulator over a socat pty (polled as usual), the APRS station connected to a KISS TNC
 * receiving 50 packets/s, and the rotator tracking the ISS on the GS-232B simulator.
 */
async function deployedRss(): Promise<number> {
  usePrebuiltServer(serverBundle());
  const tnc = new FakeKissTnc();
  await tnc.listen();
  const pty = await openPtyPair();
  const sim = new CivRigSim({ kind: 'IC-705' });
  await sim.open(pty.rigPath);
  const rotPty = await openPtyPair();
  const rot = new RotatorSim({ protocol: 'gs232b' });
  await rot.open(rotPty.rigPath, 9600);
  const srv = await spawnDeployed();
  const post = (path: string, body: unknown = {}) => fetch(srv.base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  try {
    await post('/api/v1/settings/radio', { enabled: true, serial_device: pty.ctlPath, baud_rate: 115200 });
    if ((await post('/api/v1/radio/connect')).status !== 200) throw new Error('bench: radio connect failed');
    await post('/api/v1/settings/aprs', { callsign: 'G4ABC', kiss_host: '127.0.0.1', kiss_port: tnc.port });
    if ((await post('/api/v1/aprs/connect')).status !== 200) throw new Error('bench: APRS connect failed');
    await post('/api/v1/settings/rotator', { enabled: true, protocol: 'gs232b', serial_device: rotPty.ctlPath, baud_rate: 9600 });
    if ((await post('/api/v1/rotator/connect')).status !== 200) throw new Error('bench: rotator connect failed');
    if ((await post('/api/v1/rotator/track/start', { sat_id: 'iss' })).status !== 200) throw new Error('bench: rotator track failed');
    const samples: number[] = [];
    for (let t = 0, i = 0; t < 12_000; t += 200) {
      for (let k = 0; k < RATE / 5; k++) tnc.push(packet(i++));
      await fetch(srv.base + '/api/v1/aprs/state').then((r) => r.text());
      await sleep(200);
      samples.push(rssMiB(srv.child.pid!));
    }
    return samples.slice(-10).reduce((a, b) => a + b, 0) / 10;
  } finally {
    await srv.stop();
    await tnc.close();
    await sim.close();
    await pty.close();
    await rot.close();
    await rotPty.close();
  }
}

export const aprsStationSuite: Suite = {
  name: 'APRS station: receive soak, RSS',
  async run() {
    const { before, after, received } = await soak();
    const { soakS, logCap } = plan();
    const note = (k: 'heapUsed' | 'rss') =>
      `before ${(before[k] / MiB).toFixed(1)} MiB, after ${(after[k] / MiB).toFixed(1)} MiB (${received} packets, ${soakS / 60} simulated minute${soakS === 60 ? '' : 's'} at ${RATE}/s, log of ${logCap})`;
    const name = 'server RSS, radio + APRS + rotator active (rig polled over CI-V, APRS receiving 50 packets/s, rotator tracking)';
    const rss = await section(name, async () => {
      fullOnly('12 s of server RSS sampling');
      needProc();
      needDir('/dev/shm', 'the pty links live there');
      return [{ name, value: await deployedRss(), unit: 'MiB', budget: 64, note: `${describeRuntime()}; issue 24's budget with radio, APRS and rotator active` }];
    });
    return [
      { name: 'receive soak: heap growth', value: (after.heapUsed - before.heapUsed) / MiB, unit: 'MiB', budget: 2, note: note('heapUsed') },
      { name: 'receive soak: RSS growth', value: (after.rss - before.rss) / MiB, unit: 'MiB', budget: 4, note: note('rss') },
      ...rss,
    ];
  },
};
