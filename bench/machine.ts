// The machine a run measured, printed at the top and written to --json, so figures from a dev
// machine and from the Pi can be told apart and compared.
import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface Machine {
  /** CPU model (os.cpus(), or the ARM core named from /proc/cpuinfo when the kernel gives no model name). */
  cpu: string;
  /** Board model from the device tree (a Pi names itself there), if any. */
  board: string | null;
  cores: number;
  /** Reported clock of the first core, MHz (0 when unknown). */
  mhz: number;
  ram_mib: number;
  node: string;
  arch: string;
  /** Kernel release. */
  kernel: string;
  /** PRETTY_NAME of /etc/os-release, else os.version(). */
  os: string;
  /** A fresh page's first write, µs over a second write of the same page (firstTouch()). */
  first_touch_us: number;
}

const read = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

// ARM Ltd. (implementer 0x41) part numbers of the cores a Pi or a similar board may have.
const ARM_PARTS: Record<string, string> = {
  '0xb76': 'ARM1176', '0xc07': 'Cortex-A7', '0xd03': 'Cortex-A53', '0xd04': 'Cortex-A35', '0xd05': 'Cortex-A55',
  '0xd07': 'Cortex-A57', '0xd08': 'Cortex-A72', '0xd09': 'Cortex-A73', '0xd0a': 'Cortex-A75', '0xd0b': 'Cortex-A76',
};

function cpuModel(): string {
  const model = os.cpus()[0]?.model?.trim();
  if (model && model !== 'unknown') return model;
  const info = read('/proc/cpuinfo') ?? '';
  const field = (k: string) => new RegExp(`^${k}\\s*:\\s*(.+)$`, 'mi').exec(info)?.[1].trim();
  const named = field('model name') ?? field('Processor') ?? field('cpu model');
  if (named) return named;
  const part = field('CPU part');
  if (field('CPU implementer') === '0x41' && part) return `ARM ${ARM_PARTS[part] ?? `part ${part}`}`;
  return 'unknown CPU';
}

const TOUCH_BYTES = 16 * 1024 * 1024;
const PAGE_BYTES = 4096;

/**
 * What a page written for the first time costs here: a 16 MiB buffer filled twice, the difference
 * per page. Fresh memory is what a boot, the collector's new pages and big buffers touch; it read
 * ~11 µs a page in a Firecracker guest whose host hands back freed pages (2026-12-02), several
 * times a bare machine's, so two hosts' memory-bound figures differ by this much.
 */
function firstTouch(): number {
  const b = Buffer.allocUnsafeSlow(TOUCH_BYTES);
  const t0 = process.hrtime.bigint();
  b.fill(1);
  const t1 = process.hrtime.bigint();
  b.fill(2);
  const t2 = process.hrtime.bigint();
  const us = (Number(t1 - t0) - Number(t2 - t1)) / 1000;
  return Math.max(0, us / (TOUCH_BYTES / PAGE_BYTES));
}

export function describeMachine(): Machine {
  const cpus = os.cpus();
  const pretty = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(read('/etc/os-release') ?? '')?.[1];
  return {
    cpu: cpuModel(),
    board: read('/proc/device-tree/model')?.replace(/\0/g, '').trim() || null,
    cores: typeof os.availableParallelism === 'function' ? os.availableParallelism() : cpus.length,
    mhz: cpus[0]?.speed ?? 0,
    ram_mib: Math.round(os.totalmem() / 1024 ** 2),
    node: process.version,
    arch: process.arch,
    kernel: `${os.type()} ${os.release()}`,
    os: pretty || os.version(),
    first_touch_us: firstTouch(),
  };
}

/** Two lines for the top of the output. */
export function machineLines(m: Machine): string[] {
  return [
    `machine: ${m.board ? `${m.board} · ` : ''}${m.cpu}, ${m.cores} core${m.cores === 1 ? '' : 's'}${m.mhz ? ` @ ${m.mhz} MHz` : ''} · RAM ${m.ram_mib} MiB`,
    `runtime: Node ${m.node} · ${m.arch} · ${m.kernel} · ${m.os}`,
    `memory: a page written for the first time costs ${m.first_touch_us.toFixed(2)} µs more than again (a 16 MiB buffer filled twice)`,
  ];
}
