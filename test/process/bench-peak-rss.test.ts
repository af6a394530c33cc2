// A bench child's peak RSS is its own: a child spawned by a parent holding a lot of memory must
// not report the parent's resident set (getrusage's maxRSS survives fork + exec on Linux).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { it } from 'node:test';

const root = join(import.meta.dirname, '..', '..');
const MIB = 1024 * 1024;

it('ownPeakRssMiB in a child spawned from a big parent reports the child, not the parent', { skip: process.platform !== 'linux' && 'VmHWM is Linux /proc' }, () => {
  // 256 MiB resident in this process when the child is forked (filled, so the pages are real).
  const ballast = Buffer.alloc(256 * MIB, 1);
  const parentRssMiB = process.memoryUsage().rss / MIB;
  assert.ok(parentRssMiB > 256, `parent holds its ballast (${parentRssMiB.toFixed(0)} MiB)`);
  const script = "import { ownPeakRssMiB } from './bench/peak-rss.ts'; process.stdout.write(JSON.stringify({ peak: ownPeakRssMiB(), rss: process.memoryUsage().rss / 1048576 }));";
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const child = JSON.parse(r.stdout) as { peak: number; rss: number };
  // A node + tsx process peaks well under 200 MiB; the parent's figure would be above 256.
  assert.ok(child.peak < parentRssMiB - 64, `child peak ${child.peak.toFixed(0)} MiB vs parent RSS ${parentRssMiB.toFixed(0)} MiB`);
  assert.ok(child.peak >= child.rss - 1, `the peak (${child.peak.toFixed(0)}) is at least the child's current RSS (${child.rss.toFixed(0)})`);
  assert.equal(ballast[ballast.length - 1], 1);
});
