import { networkInterfaces } from 'node:os';
import * as v from 'valibot';
import type { JsonStore } from '../store/json-store.js';
import type { Clock } from '../util/clock.js';

// Network state (spec part 4 /network, fields not shown). `offline` is the operator's switch:
// when true the station makes no outside connection (dataset refresh, status enrichment,
// iGate). `online` is what the station believes it has: the switch is off and an interface
// other than loopback/link-local carries an address. No outside host is probed: the
// appliance is often in a field with no internet, and a probe would wake the radio link.

export const NetworkSchema = v.object({
  offline: v.boolean(),
});
export type NetworkSetting = v.InferOutput<typeof NetworkSchema>;
export const defaultNetwork = (): NetworkSetting => ({ offline: false });

export interface NetworkState {
  offline: boolean;
  online: boolean;
  /** Interfaces with a routable address (names only). */
  interfaces: string[];
  reason: string;
}

type InterfaceLister = () => ReturnType<typeof networkInterfaces>;

/** Interfaces are re-read at most this often (one syscall, but the snapshot asks a lot). */
export const INTERFACE_CHECK_MS = 10_000;

export function usableInterfaces(list: ReturnType<typeof networkInterfaces>): string[] {
  const out: string[] = [];
  for (const [name, addrs] of Object.entries(list)) {
    const ok = addrs?.some((a) => !a.internal && !(a.family === 'IPv6' && a.address.toLowerCase().startsWith('fe80')) && !a.address.startsWith('169.254.'));
    if (ok) out.push(name);
  }
  return out.sort();
}

export class NetworkService {
  private checkedAt = -Infinity;
  private ifaces: string[] = [];

  constructor(
    private readonly store: JsonStore<typeof NetworkSchema>,
    private readonly clock: Clock,
    private readonly lister: InterfaceLister = networkInterfaces,
  ) {}

  /** The offline switch: dataset refresh, status enrichment and the iGate check this first. */
  isOffline(): boolean {
    return this.store.get().offline;
  }

  isOnline(): boolean {
    return this.state().online;
  }

  state(): NetworkState {
    const now = this.clock.now();
    if (now - this.checkedAt >= INTERFACE_CHECK_MS || now < this.checkedAt) {
      this.ifaces = usableInterfaces(this.lister());
      this.checkedAt = now;
    }
    const offline = this.isOffline();
    const online = !offline && this.ifaces.length > 0;
    const reason = offline ? 'offline switch is on' : online ? `connected via ${this.ifaces.join(', ')}` : 'no network interface with a routable address';
    return { offline, online, interfaces: this.ifaces, reason };
  }
}
