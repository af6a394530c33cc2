// What ran in each long loop gap of a Pi-speed run: `PI_PROF=DIR npm run bench -- pi-speed`, then
// `node --import tsx bench/pi-gaps.ts DIR [minMs]`. Each caged server wrote a V8 CPU profile and
// its gaps (bench/pi-speed.bench.ts); for every gap of the serving this prints the functions the
// profile sampled inside it, by self time and by the path from the event loop. At a tenth of a
// core a gap with few or no samples is the process's quota spent by other threads (V8's helpers).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVING_PARTS } from './pi-speed.bench.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const label = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber + 1}`;
const top = (m: Map<string, number>, k: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k);
const add = (m: Map<string, number>, key: string, v: number) => m.set(key, (m.get(key) ?? 0) + v);

function report(profile: Profile, gaps: Array<[number, number, number]>, minMs: number): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  let t = profile.startTime;
  const times = profile.timeDeltas.map((d) => (t += d));
  for (const [start, end, window] of gaps) {
    const ms = (end - start) / 1000;
    if (window < 1 || ms < minMs) continue; // window 0 is the boot, before /health
    const self = new Map<string, number>();
    const paths = new Map<string, number>();
    let samples = 0;
    for (let i = 1; i < times.length; i++) {
      if (times[i] < start || times[i] > end) continue;
      const node = byId.get(profile.samples[i])!;
      if (node.callFrame.functionName === '(idle)') continue;
      samples++;
      const dt = (times[i] - times[i - 1]) / 1000;
      add(self, label(node), dt);
      const chain: ProfileNode[] = [];
      for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) chain.push(byId.get(id)!);
      add(paths, chain.reverse().slice(1, 7).map(label).join(' > '), dt);
    }
    console.log(`\n${ms.toFixed(0)} ms gap in ${SERVING_PARTS[window - 1] ?? `window ${window}`}, ${samples} samples`);
    for (const [k, v] of top(self, 8)) console.log(`  self ${v.toFixed(1).padStart(7)} ms  ${k}`);
    for (const [k, v] of top(paths, 5)) console.log(`  path ${v.toFixed(1).padStart(7)} ms  ${k}`);
  }
}

const [dir, min] = process.argv.slice(2);
if (!dir) throw new Error('usage: node --import tsx bench/pi-gaps.ts DIR [minMs]');
const files = readdirSync(dir);
for (const g of files.filter((f) => f.endsWith('.gaps.json'))) {
  const pid = g.split('.')[0];
  const prof = files.find((f) => f.endsWith('.cpuprofile') && f.split('.').includes(pid));
  if (!prof) continue;
  console.log(`# server ${pid} (${prof})`);
  report(JSON.parse(readFileSync(join(dir, prof), 'utf8')) as Profile, JSON.parse(readFileSync(join(dir, g), 'utf8')), Number(min ?? 60));
}
