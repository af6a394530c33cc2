import { PassTracker, planPass, type LookAngles, type RotatorLimits, type TrackingOptions } from '../src/rotator/planner.js';
import { skyPasses, STATIONS, type SkyPass } from '../test/rotator/planner-sky.js';
import { fullOnly, medianMs, profile, section, type Line, type Suite } from './harness.js';
import { readFileSync } from 'node:fs';
import { spawnDeployed, usePrebuiltServer } from '../test/helpers/deployed.js';
import { openPtyPair } from '../test/sims/pty-pair.js';
import { RotatorSim } from '../test/sims/rotator-sim.js';
import { describeRuntime } from './child-bundle.js';
import { needDir, needProc, serverBundle } from './env.js';

// Rotator planner budgets (issue 25): planning ≤ 2 ms per pass, one tracking tick ≤ 100 µs (both
// with real SGP4 look angles, as the service hands them over); and, against a pure slew model of a
// 6°/s azimuth, 3°/s elevation rotator over every pass below 80° from Greenwich in 48 h, the
// pointing error once caught up ≤ deadband + 1° and commands per minute ≤ 60000 / update_interval_ms.

const LIMITS: RotatorLimits = { az_min_deg: 0, az_max_deg: 450, el_min_deg: 0, el_max_deg: 90, az_stop: 'north', flip: 'never' };
const OPTS: TrackingOptions = { lead_s: 1, deadband_deg: 2, update_interval_ms: 1000, preposition_s: 120, park: null };
const AZ_RATE_DEG_S = 6;
const EL_RATE_DEG_S = 3;
const TICK_MS = 100;

/** Where a controller position points (over the top above 90°). */
const physical = (c: LookAngles): LookAngles => (c.el_deg > 90 ? { az_deg: c.az_deg + 180, el_deg: 180 - c.el_deg } : c);

function separationDeg(a: LookAngles, b: LookAngles): number {
  const r = Math.PI / 180;
  const c = Math.sin(a.el_deg * r) * Math.sin(b.el_deg * r) + Math.cos(a.el_deg * r) * Math.cos(b.el_deg * r) * Math.cos((a.az_deg - b.az_deg) * r);
  return Math.acos(Math.min(1, Math.max(-1, c))) / r;
}

const toward = (from: number, to: number, max: number) => from + Math.max(-max, Math.min(max, to - from));

/** One pass flown with the slew model from the preposition point: worst error once caught up, most commands in any minute. */
function fly(p: SkyPass): { errDeg: number; perMin: number } | null {
  const plan = planPass(p, LIMITS);
  // A pass no turn of the cable holds must unwind once (tested in test/rotator): not a tracking figure.
  if (plan.unwind) return null;
  const tr = new PassTracker(plan, LIMITS, p.look, OPTS);
  let pos: LookAngles = { az_deg: plan.preposition_az_deg, el_deg: plan.preposition_el_deg };
  let target: LookAngles = pos;
  let caughtUp = false;
  let worst = 0;
  const sends: number[] = [];
  for (let t = p.aos_ms - 10_000; t <= p.los_ms; t += TICK_MS) {
    const c = tr.tick(t, pos);
    if (c && c.phase !== 'done') {
      target = c;
      sends.push(t);
    }
    pos = { az_deg: toward(pos.az_deg, target.az_deg, (AZ_RATE_DEG_S * TICK_MS) / 1000), el_deg: toward(pos.el_deg, target.el_deg, (EL_RATE_DEG_S * TICK_MS) / 1000) };
    if (t < p.aos_ms) continue;
    const sat = p.look(t);
    const err = separationDeg(physical(pos), { az_deg: sat.az_deg, el_deg: Math.max(LIMITS.el_min_deg, sat.el_deg) });
    if (!caughtUp && err <= OPTS.deadband_deg) caughtUp = true;
    if (caughtUp) worst = Math.max(worst, err);
  }
  let perMin = 0;
  for (let i = 0, j = 0; i < sends.length; i++) {
    while (sends[i] - sends[j] >= 60_000) j++;
    perMin = Math.max(perMin, i - j + 1);
  }
  return { errDeg: worst, perMin };
}

const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The mean of the server's RSS over the last samples of a watch of `s` seconds. */
async function watchRss(pid: number, s: number, during: () => Promise<unknown> = async () => {}): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < s * 2; i++) {
    await during();
    await sleep(500);
    samples.push(rssMiB(pid));
  }
  const tail = samples.slice(-6);
  return tail.reduce((a, b) => a + b, 0) / tail.length;
}

/**
 * The deployed server idle (rotator disabled, nothing of it loaded), then with the rotator
 * enabled, connected to the GS-232B simulator on a pty and tracking the ISS: RSS added.
 */
async function trackingRss(): Promise<{ idle: number; tracking: number }> {
  usePrebuiltServer(serverBundle());
  const pty = await openPtyPair();
  const sim = new RotatorSim({ protocol: 'gs232b' });
  await sim.open(pty.rigPath, 9600);
  const srv = await spawnDeployed();
  const post = (path: string, body: unknown = {}) => fetch(srv.base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const poll = () => fetch(srv.base + '/api/v1/rotator/state').then((r) => r.text());
  try {
    const idle = await watchRss(srv.child.pid!, 10, poll);
    await post('/api/v1/settings/rotator', { enabled: true, protocol: 'gs232b', serial_device: pty.ctlPath, baud_rate: 9600 });
    if ((await post('/api/v1/rotator/connect')).status !== 200) throw new Error('bench: rotator connect failed');
    if ((await post('/api/v1/rotator/track/start', { sat_id: 'iss' })).status !== 200) throw new Error('bench: rotator track failed');
    const tracking = await watchRss(srv.child.pid!, 12, poll);
    return { idle, tracking };
  } finally {
    await srv.stop();
    await sim.close();
    await pty.close();
  }
}

export const rotatorSuite: Suite = {
  name: 'rotator: pass planner and tracker',
  async run(): Promise<Line[]> {
    const passes = skyPasses(STATIONS.greenwich, undefined, profile.quick ? 12 : 48);
    const leo = passes.filter((p) => p.los_ms - p.aos_ms < 30 * 60_000);
    let sink = 0;
    let k = 0;
    const N = Math.min(50, leo.length);
    const planMs = await medianMs(`planPass x${N}`, () => {
      for (let i = 0; i < N; i++) sink += planPass(leo[k++ % leo.length], LIMITS).path_az_deg.length;
    });
    const p = leo.reduce((a, b) => (b.max_el_deg > a.max_el_deg && b.max_el_deg < 80 ? b : a));
    const plan = planPass(p, LIMITS);
    const T = 1000;
    let tick = 0;
    const tickMs = await medianMs(`tick x${T}`, () => {
      // A fresh tracker each round, ticked through the pass at 100 ms: what the service pays per tick.
      const tr = new PassTracker(plan, LIMITS, p.look, OPTS);
      const pos = { az_deg: plan.preposition_az_deg, el_deg: 0 };
      for (let i = 0; i < T; i++) sink += tr.tick(p.aos_ms + ((tick++ * TICK_MS) % (p.los_ms - p.aos_ms)), pos) ? 1 : 0;
    });
    const low = leo.filter((x) => x.max_el_deg < 80 && x.max_el_deg > 5);
    let errDeg = 0;
    let perMin = 0;
    let flown = 0;
    for (const x of low) {
      const f = fly(x);
      if (!f) continue;
      flown++;
      errDeg = Math.max(errDeg, f.errDeg);
      perMin = Math.max(perMin, f.perMin);
    }
    void sink;
    const rss: Line[] = await section('server RSS with the rotator tracking, above idle', async () => {
      fullOnly('22 s of server RSS sampling');
      needProc();
      needDir('/dev/shm', 'the pty links live there');
      const r = await trackingRss();
      return [
        {
          name: 'server RSS with the rotator tracking (GS-232B simulator, ISS), above idle with it disabled',
          value: r.tracking - r.idle,
          unit: 'MiB',
          budget: 2,
          note: `idle ${r.idle.toFixed(1)} MiB, tracking ${r.tracking.toFixed(1)} MiB; ${describeRuntime()}`,
        },
      ];
    });
    return [
      ...rss,
      { name: `planPass, one LEO pass (${leo.length} from Greenwich, real SGP4 looks)`, value: planMs / N, unit: 'ms', budget: 2 },
      { name: 'one tracking tick (lead look, pointFor, deadband)', value: (tickMs * 1000) / T, unit: 'µs', budget: 100 },
      { name: `pointing error once caught up, worst of ${flown} passes < 80°, 6°/s az 3°/s el`, value: errDeg, unit: '°', budget: OPTS.deadband_deg + 1, note: `deadband ${OPTS.deadband_deg}° + 1°; ${low.length - flown} passes needing an unwind left out` },
      { name: 'commands in any minute, worst pass', value: perMin, unit: '/min', budget: 60_000 / OPTS.update_interval_ms, note: `60000 / ${OPTS.update_interval_ms} ms` },
    ];
  },
};
