// The IC-705's Wi-Fi (LAN) path: what its keep-alives cost while idle, and whether our transmit
// audio stays gapless while the server is busy. The emulated radio (test/sims/icom-lan-sim.ts)
// runs in this process; the product runs in a child process, as the unit runs it, so the radio's
// arrival times are not disturbed by the product's own work.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { IcomLanSession } from '../src/radio/lan/lan-session.js';
import { LAN_AUDIO_RATE_HZ } from '../src/radio/lan/lan-types.js';
import { resolveTncBinary } from '../src/aprs/tnc/tnc-binary.js';
import { setLogLevel } from '../src/util/logger.js';
import { FixedClock } from '../src/util/clock.js';
import { CivRigSim } from '../test/sims/civ-rig.js';
import { IcomLanSim } from '../test/sims/icom-lan-sim.js';
import { describeRuntime, runChildAsync } from './child-bundle.js';
import { profile, section, Skip, type Line, type Suite } from './harness.js';

const USER = 'bench';
const PASS = 'bench-pw';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const SETTLE_MS = 12_000;

async function radio(o: { rxIdleSilence: boolean }): Promise<IcomLanSim> {
  const sim = new IcomLanSim({ rig: new CivRigSim({ kind: 'IC-705' }), username: USER, password: PASS, rxIdleSilence: o.rxIdleSilence, staleMs: 10_000 });
  await sim.start();
  return sim;
}

interface IdleResult {
  cpuMs: number;
  wallMs: number;
  state: string;
}

/** Child: one LAN session (CI-V and audio streams open), idle; the CPU it took over the window. */
async function idleChild(args: string[]): Promise<void> {
  setLogLevel('silent');
  const [port, seconds] = args.map(Number);
  const session = new IcomLanSession({ host: '127.0.0.1', controlPort: port, username: USER, password: PASS, audio: { sampleRate: LAN_AUDIO_RATE_HZ } });
  const r = await session.open();
  if (r.kind !== 'open') throw new Error(`login failed: ${r.kind} ${'message' in r ? r.message : ''}`);
  session.onAudio(() => {});
  // Past the handshake and V8's start-up memory reducer (a few GCs about 8 s after the last
  // allocation burst, ~50 ms of CPU once): what is measured is what an idle session costs for hours.
  await sleep(SETTLE_MS);
  const u0 = process.cpuUsage();
  const t0 = performance.now();
  await sleep(seconds * 1000);
  const u = process.cpuUsage(u0);
  const out: IdleResult = { cpuMs: (u.user + u.system) / 1000, wallMs: performance.now() - t0, state: session.stats().state };
  await session.close();
  process.stdout.write(JSON.stringify(out) + '\n');
}

interface TxResult {
  sent: number;
  blocked: string;
  requests: number;
  errors: number;
  /** How late the event loop ran a timer while under load: the worst and the 99th percentile. */
  loopMaxMs: number;
  loopP99Ms: number;
}

/**
 * Child: a serving App with APRS over Wi-Fi to the emulated radio; 32 HTTP clients hammer it
 * (keep-alive fetch loops) while it transmits `packets` status packets one after another.
 */
async function txChild(args: string[]): Promise<void> {
  setLogLevel('silent');
  const [port, packets] = args.map(Number);
  const dir = mkdtempSync(join(tmpdir(), 'satstation-lan-bench-'));
  const home = join(dir, 'home');
  // A clock the bench moves past the flood guard (one transmission per 10 s) between packets;
  // the LAN session and the audio pacing run on real time regardless.
  const clock = new FixedClock(Date.now());
  const app = new App({
    clock,
    config: { ...loadConfig({}), port: 0, host: '127.0.0.1', dataDir: join(dir, 'data') },
    aprsTransport: { env: { HOME: home } },
  });
  await app.start();
  const base = `http://127.0.0.1:${app.port}`;
  const post = (path: string, body: unknown = {}) => fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json());
  await post('/api/v1/settings/aprs', { callsign: 'G4ABC', ssid: 7, listen_only: false, transport_mode: 'wifi', rig_model: 'rigA', wifi_host: '127.0.0.1', wifi_control_port: port, wifi_username: USER, wifi_password: PASS });
  const c = (await post('/api/v1/aprs/connect')) as { error?: { message: string } };
  if (c.error) throw new Error(`APRS connect: ${c.error.message}`);
  let stop = false;
  let requests = 0;
  let errors = 0;
  const paths = ['/api/v1/lite/snapshot', '/api/v1/passes', '/api/v1/aprs/state', '/api/v1/radio/state', '/api/v1/system/state'];
  const clients = Array.from({ length: 32 }, async (_, i) => {
    for (let k = i; !stop; k++) {
      try {
        await (await fetch(base + paths[k % paths.length])).arrayBuffer();
        requests++;
      } catch {
        errors++;
      }
    }
  });
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  loopDelay.enable();
  let sent = 0;
  let blocked = '';
  for (let i = 0; i < packets; i++) {
    clock.advance(11_000);
    const r = (await post('/api/v1/aprs/send/status', { text: `bench packet ${i} `.padEnd(62, '.') })) as { sent?: boolean; tx_block_reason?: string };
    if (r.sent) sent++;
    else blocked = r.tx_block_reason ?? JSON.stringify(r).slice(0, 300);
    // The next send waits for this one's audio to finish (about a second each).
    for (let t = 0; t < 100; t++) {
      await sleep(50);
      const st = (await (await fetch(base + '/api/v1/aprs/state')).json()) as { runtime: { audio_tx_active: boolean } };
      if (!st.runtime.audio_tx_active && t > 4) break;
    }
  }
  stop = true;
  loopDelay.disable();
  await Promise.all(clients);
  await post('/api/v1/aprs/disconnect');
  await app.stop();
  rmSync(dir, { recursive: true, force: true });
  process.stdout.write(JSON.stringify({ sent, requests, errors, blocked, loopMaxMs: loopDelay.max / 1e6, loopP99Ms: loopDelay.percentile(99) / 1e6 } satisfies TxResult) + '\n');
}

/**
 * The audio gap the radio would hear: from each key-up (PTT on) it plays the first packet on
 * arrival and then plays on, so a packet is late by how far its arrival is behind the audio
 * already played. Answers the worst lateness over all transmissions (same clock: performance.now).
 */
export function worstGapMs(packets: ReadonlyArray<{ at: number; samples: number }>, keyUps: readonly number[], rate: number): number {
  let worst = 0;
  let k = -1;
  let start = 0;
  let played = 0;
  for (const p of packets) {
    let t = k;
    while (t + 1 < keyUps.length && keyUps[t + 1] <= p.at) t++;
    if (t !== k || played === 0) {
      k = t;
      start = p.at;
      played = 0;
    }
    worst = Math.max(worst, p.at - (start + (played * 1000) / rate));
    played += p.samples;
  }
  return worst;
}

export const lanSuite: Suite = {
  name: 'lan: IC-705 Wi-Fi session and transmit audio',
  children: { idle: idleChild, tx: txChild },
  async run(): Promise<Line[]> {
    const lines: Line[] = [];
    lines.push(
      ...(await section('LAN session idle', async () => {
        const seconds = profile.quick ? 5 : 15;
        const sim = await radio({ rxIdleSilence: false });
        try {
          const r = await runChildAsync<IdleResult>('lan', 'idle', [String(sim.controlPort), String(seconds)]);
          const pct = (r.cpuMs / r.wallMs) * 100;
          return [
            {
              name: 'idle LAN session: keep-alives (pings, idles, token) as a share of one core',
              value: pct,
              unit: '%',
              budget: 1 * profile.timeScale,
              note: `${r.cpuMs.toFixed(0)} ms CPU over ${(r.wallMs / 1000).toFixed(1)} s from ${SETTLE_MS / 1000} s after login, three streams, no audio flowing; ${describeRuntime()}`,
            },
          ];
        } finally {
          await sim.stop();
        }
      })),
    );
    lines.push(
      ...(await section('transmit audio under HTTP load', async () => {
        if (!resolveTncBinary('direwolf').installed) throw new Skip('direwolf is not installed (the Wi-Fi receiver is a decode-only Dire Wolf)');
        const sim = await radio({ rxIdleSilence: true });
        try {
          const packets = profile.quick ? 2 : 6;
          const r = await runChildAsync<TxResult>('lan', 'tx', [String(sim.controlPort), String(packets)]);
          if (r.sent !== packets) throw new Error(`only ${r.sent} of ${packets} packets were sent: ${r.blocked}`);
          const gap = worstGapMs(sim.txAudioPackets, sim.ptt.filter((p) => p.on).map((p) => p.at), LAN_AUDIO_RATE_HZ);
          const audioS = sim.txAudioPackets.reduce((n, p) => n + p.samples, 0) / LAN_AUDIO_RATE_HZ;
          return [
            {
              name: 'worst gap in the transmitted audio stream, 32 concurrent HTTP clients',
              value: gap,
              // An audio gap is heard as such on any CPU: this budget is not scaled for the Pi.
              unit: 'ms of audio',
              budget: 20,
              note: `${packets} packets, ${audioS.toFixed(1)} s of audio in ${sim.txAudioPackets.length} UDP packets; ${r.requests} HTTP answers meanwhile (${r.errors} errors); event-loop delay max ${r.loopMaxMs.toFixed(0)} ms, p99 ${r.loopP99Ms.toFixed(0)} ms`,
            },
          ];
        } finally {
          await sim.stop();
        }
      })),
    );
    return lines;
  },
};
