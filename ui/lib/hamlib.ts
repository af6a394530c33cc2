import type { HamlibConnection, HamlibRuntime } from '../../src/hamlib/schemas';
import type { HamlibSettings } from '../../src/hamlib/settings';

// What /settings says about the Hamlib servers (issue 26), without I/O: whether the binding
// exposes them, and the one-line recipes that point each client at this station.

export type { HamlibConnection, HamlibRuntime, HamlibSettings };

/**
 * Loopback addresses, as src/hamlib/settings.ts isLoopback decides them (the page bundle takes
 * only types from src/, so the rule is restated here and both are tested against the server).
 */
export function isLoopback(host: string): boolean {
  return /^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost)$/i.test(host.trim());
}

/** Hamlib has no password: what anyone who can reach a non-loopback binding can do, or null. */
export function exposureWarning(s: Pick<HamlibSettings, 'bind_host' | 'allow_ptt'>): string | null {
  if (isLoopback(s.bind_host)) return null;
  const what = s.allow_ptt ? 'tune the rig, turn the rotator and key the transmitter' : 'tune the rig and turn the rotator';
  return `Hamlib has no password: anyone who can reach this address (${s.bind_host}) can ${what}.`;
}

/** Every-interface bindings: a client reaches them at whatever address this page was loaded from. */
const ANY = new Set(['0.0.0.0', '::', '[::]']);

/** The host a client should use: the page's own host for a wildcard binding, else the bound address (unbracketed). */
export function clientHost(bindHost: string, pageHost: string): string {
  return (ANY.has(bindHost) ? pageHost : bindHost).replace(/^\[(.*)\]$/, '$1');
}

/** "host:port", bracketing an IPv6 address as rigctl and WSJT-X expect ("[::1]:4532"). */
export function hostPort(host: string, port: number): string {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  return `${bare.includes(':') ? `[${bare}]` : bare}:${port}`;
}

export interface Recipe {
  /** Stable key for the page and its tests: 'gpredict-radio', 'wsjtx', … */
  id: string;
  client: string;
  /** Which server the recipe needs: it reads "off" while that server is disabled. */
  server: 'rigctld' | 'rotctld';
  text: string;
}

/** One line per client with this station's host and ports filled in. */
export function recipes(s: HamlibSettings, pageHost: string): Recipe[] {
  const h = clientHost(s.bind_host, pageHost);
  const rig = hostPort(h, s.rigctld_port);
  const rot = hostPort(h, s.rotctld_port);
  return [
    { id: 'gpredict-radio', client: 'gpredict (radio)', server: 'rigctld', text: `Edit › Preferences › Interfaces › Radios › Add: host ${h}, port ${s.rigctld_port}, radio type as needed (rigctld)` },
    { id: 'gpredict-rotator', client: 'gpredict (rotator)', server: 'rotctld', text: `Edit › Preferences › Interfaces › Rotators › Add: host ${h}, port ${s.rotctld_port}` },
    { id: 'wsjtx', client: 'WSJT-X', server: 'rigctld', text: `Settings › Radio: Rig "Hamlib NET rigctl", Network Server "${rig}"` },
    { id: 'rigctl', client: 'rigctl check', server: 'rigctld', text: `rigctl -m 2 -r ${rig} f` },
    { id: 'rotctl', client: 'rotctl check', server: 'rotctld', text: `rotctl -m 2 -r ${rot} p` },
  ];
}

/** "rigctld: listening on 127.0.0.1:4532" / "rigctld: off" / "rigctld: not listening". */
export function listenLine(server: 'rigctld' | 'rotctld', s: HamlibSettings, rt: HamlibRuntime): { text: string; tone: 'ok' | 'bad' | 'idle' } {
  const enabled = server === 'rigctld' ? s.rigctld_enabled : s.rotctld_enabled;
  const listening = server === 'rigctld' ? rt.rigctld_listening : rt.rotctld_listening;
  const port = server === 'rigctld' ? s.rigctld_port : s.rotctld_port;
  if (listening) return { text: `${server}: listening on ${hostPort(s.bind_host, port)}`, tone: 'ok' };
  return enabled ? { text: `${server}: not listening`, tone: 'bad' } : { text: `${server}: off`, tone: 'idle' };
}
