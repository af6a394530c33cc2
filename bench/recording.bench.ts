// Pass recording (issue 37): what recording costs above idle (capture plus Opus encode at 16 kHz,
// at Pi speed: the station and its arecord and opusenc inside the tenth-of-a-core cage), the
// station's RSS while recording, audio lost over a 15-minute pass, and the journal's write a second.
// The audio comes from ALSA's file plugin (an asoundrc under a temporary XDG_CONFIG_HOME), the
// same device the tests use; the station runs in a child process, as the unit runs it.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { pointLine } from '../src/recording/journal-lines.js';
import { LineAppender } from '../src/store/line-appender.js';
import { setLogLevel } from '../src/util/logger.js';
import { runChildAsync } from './child-bundle.js';
import { unitText } from './env.js';
import { medianMs, profile, Skip, type Line, type Suite } from './harness.js';
import { PERIOD_US, piCage, QUOTA_US } from './pi-cage.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const RATE = 16000;
/** A 15-minute pass, and how much faster than real time the bench's capture runs it. */
const PASS_S = 15 * 60;
const PASS_SPEEDUP = 15;

/** An ALSA device `satfile` reading `seconds` of a 1 kHz tone (then the plugin's zeros). */
function alsaDevice(dir: string, seconds: number): string {
  const n = RATE * seconds;
  const b = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) b.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 1000 * i) / RATE)), i * 2);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'in.raw'), b);
  mkdirSync(join(dir, 'alsa'), { recursive: true });
  writeFileSync(join(dir, 'alsa', 'asoundrc'), `pcm.satfile {\n  type file\n  slave.pcm "null"\n  file "/dev/null"\n  infile "${join(dir, 'in.raw')}"\n  format "raw"\n}\n`);
  return dir;
}

/** CPU (ms) of this process's children (arecord, opusenc) so far, from /proc. */
function childrenCpuMs(): number {
  let ticks = 0;
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(f[1]) === process.pid) ticks += Number(f[11]) + Number(f[12]);
    } catch {
      // gone meanwhile
    }
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}
const pct = (ms: number, wallMs: number) => `${((ms / wallMs) * 100).toFixed(1)} %`;
const selfCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function station(xdg: string, paceClock?: () => number): Promise<{ app: App; dir: string }> {
  setLogLevel('silent');
  const dir = mkdtempSync(join(tmpdir(), 'bench-recording-'));
  const app = new App({ config: { ...loadConfig({}), port: 0, host: '127.0.0.1', dataDir: dir }, recording: { env: { ...process.env, XDG_CONFIG_HOME: xdg }, paceClock } });
  await app.start();
  await app.services.stores.recording.set({ ...app.services.stores.recording.get(), enabled: true, source: 'alsa', alsa_device: 'satfile', sample_rate: RATE });
  await app.services.recording.engine();
  return { app, dir };
}

interface CostResult {
  idleCpuMs: number;
  recCpuMs: number;
  /** Of recCpuMs: arecord's and opusenc's. */
  childCpuMs: number;
  wallMs: number;
  rssIdleMiB: number;
  rssRecMiB: number;
  format: string;
}

/** Child: the station idle, then recording by hand; CPU of both windows (children included) and RSS. */
async function costChild(args: string[]): Promise<void> {
  const [xdg, secondsArg, settleArg] = args;
  const seconds = Number(secondsArg);
  const { app, dir } = await station(xdg);
  try {
    // Past the boot's own work (the pass table, the first collections): idle is idle.
    await sleep(Number(settleArg) * 1000);
    let c0 = selfCpuMs();
    let t0 = performance.now();
    await sleep(seconds * 1000);
    const idle = (selfCpuMs() - c0) / (performance.now() - t0);
    const rssIdle = process.memoryUsage().rss;
    await app.services.recording.startByHand(undefined);
    await sleep(2000);
    c0 = selfCpuMs();
    const k0 = childrenCpuMs();
    t0 = performance.now();
    await sleep(seconds * 1000);
    const wall = performance.now() - t0;
    const kids = childrenCpuMs() - k0;
    const rec = selfCpuMs() - c0 + kids;
    const rssRec = process.memoryUsage().rss;
    const rt = app.services.recording.runtime();
    await app.services.recording.stopByHand();
    const item = (await app.services.recording.engine()).list()[0];
    if (!rt.recording) throw new Error(`the recording did not run: ${rt.last_error}`);
    const out: CostResult = { idleCpuMs: idle * wall, recCpuMs: rec, childCpuMs: kids, wallMs: wall, rssIdleMiB: rssIdle / 2 ** 20, rssRecMiB: rssRec / 2 ** 20, format: item.format };
    process.stdout.write(JSON.stringify(out) + '\n');
  } finally {
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

interface LostResult {
  captured_s: number;
  saved_s: number;
  encoder_lost_ms: number;
  pass_s: number;
}

/** Child: a pass of `seconds` recorded with the capture paced PASS_SPEEDUP times faster than real time. */
async function lostChild(args: string[]): Promise<void> {
  const [xdg, secondsArg] = args;
  const seconds = Number(secondsArg);
  const { app, dir } = await station(xdg, () => performance.now() * PASS_SPEEDUP);
  try {
    await app.services.recording.startByHand(undefined);
    await sleep((seconds * 1000) / PASS_SPEEDUP);
    await app.services.recording.stopByHand();
    const st = (await app.services.recording.engine()).stats();
    if (!st) throw new Error(`no recording: ${app.services.recording.runtime().last_error}`);
    const out: LostResult = { captured_s: st.captured_s, saved_s: st.saved_s, encoder_lost_ms: st.encoder_lost_ms, pass_s: seconds };
    process.stdout.write(JSON.stringify(out) + '\n');
  } finally {
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The journal's work a second: one timeline line made, queued and written (O_APPEND) to its file; median ms. */
async function journalWriteMs(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-journal-'));
  const j = new LineAppender(join(dir, 'x.jsonl'));
  try {
    let t = Date.now();
    return await medianMs('journal point', async () => {
      t += 1000;
      j.queue(pointLine(t, 123.45678, 45.12345, -6.54321, 437_810_123, 145_990_456, 123.4, 45.1));
      await j.writeBatch();
    }, { iterations: 500 });
  } finally {
    await j.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function run(): Promise<Line[]> {
  if (!readdirSync('/usr/bin').includes('arecord')) throw new Skip('arecord (alsa-utils) is not installed');
  const root = mkdtempSync(join(tmpdir(), 'bench-recording-alsa-'));
  const lines: Line[] = [];
  try {
    const window = profile.quick ? 5 : 15;
    const settle = profile.quick ? 10 : 20;
    const xdg = alsaDevice(root, window + 30);
    const cage = piCage(unitText());
    try {
      const c = await runChildAsync<CostResult>('recording', 'cost', [xdg, String(window), String(settle)], {}, (cmd, args) => cage.wrap(cmd, args));
      // The cage gives a tenth of a core: CPU time there is a Pi core's share ×10 (what it costs on the Pi).
      const share = QUOTA_US / PERIOD_US;
      lines.push({
        name: 'recording CPU above idle at 16 kHz, capture + Opus encode, at Pi speed (share of a Pi core)',
        value: Math.round(((c.recCpuMs - c.idleCpuMs) / c.wallMs / share) * 1000) / 10,
        unit: '% of a core',
        budget: 10,
        scaled: false,
        note: `${c.format}; of this machine's core: idle ${pct(c.idleCpuMs, c.wallMs)}, recording ${pct(c.recCpuMs, c.wallMs)} of which arecord + opusenc ${pct(c.childCpuMs, c.wallMs)}; all inside the cage (${cage.how}); ${window} s windows`,
      });
    } finally {
      cage.dispose();
    }
    const m = await runChildAsync<CostResult>('recording', 'cost', [xdg, String(window), '5']);
    lines.push({ name: 'RSS while recording, above idle (the station process)', value: Math.round((m.rssRecMiB - m.rssIdleMiB) * 10) / 10, unit: 'MiB', budget: 4, note: `idle ${m.rssIdleMiB.toFixed(1)} MiB; arecord and opusenc are processes of their own` });
    const passS = profile.quick ? 180 : PASS_S;
    const lost = await runChildAsync<LostResult>('recording', 'lost', [alsaDevice(join(root, 'pass'), passS + 60), String(passS)]);
    lines.push({
      name: `audio lost over a ${passS / 60}-minute pass (capture run ${PASS_SPEEDUP}× real time)`,
      value: Math.max(0, Math.round((lost.captured_s - lost.saved_s) * 1000)) + lost.encoder_lost_ms,
      unit: 'ms',
      budget: 0,
      note: `captured ${lost.captured_s.toFixed(2)} s, saved ${lost.saved_s.toFixed(2)} s, encoder dropped ${lost.encoder_lost_ms} ms`,
    });
    const j = await journalWriteMs();
    lines.push({ name: 'journal write a second (one timeline line made and appended), median', value: Math.round(j * 1000) / 1000, unit: 'ms', budget: 1 });
    return lines;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export const recordingSuite: Suite = { name: 'recording', run, children: { cost: costChild, lost: lostChild } };
