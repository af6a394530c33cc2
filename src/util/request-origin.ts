import { isIPv4Literal as isIPv4, isIPv6Literal as isIPv6 } from './ip-literal.js';

// Which requests the station serves, decided from headers alone (pure: no I/O).
//
// The station is open by default, so two browser attacks matter, and both are closed here the way
// dev servers closed them after their DNS-rebinding advisories (Vite `server.allowedHosts`,
// webpack-dev-server `allowedHosts`):
// - DNS rebinding: a page on attacker.example re-points its own name at the station and then
//   reads and posts "same-origin". The browser still sends `Host: attacker.example`, so only
//   names the station knows itself by are served.
// - Cross-site requests: any page the operator visits can fire a no-cors POST at the station.
//   Browsers send `Origin` (and `Sec-Fetch-Site`) on those, so a state-changing request from
//   another origin is refused; tools that send no Origin (curl, scripts, Hamlib-style) go on.

/** The names the station answers to besides IP literals and localhost. */
export interface HostPolicy {
  /** This machine's host name (os.hostname()); it and `<name>.local` are served. */
  hostname: string;
  /**
   * ALLOWED_HOSTS entries, lower case: an exact name, `.example.org` for that domain and every
   * name under it, or `*` for any name (turns the DNS-rebinding protection off).
   */
  extra: readonly string[];
}

/** A Host header split into name (lower case, no trailing dot, IPv6 without brackets) and port. */
export interface HostHeader {
  name: string;
  /** Digits as sent, or null when the header has no port. */
  port: string | null;
  ipv6: boolean;
}

const HOST_NAME = /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/;

/** Parses `name[:port]` or `[v6][:port]`; null for anything a browser would not send. */
export function parseHostHeader(raw: string): HostHeader | null {
  const host = raw.trim().toLowerCase();
  const m = /^(?:\[([0-9a-f:.]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/.exec(host);
  if (!m) return null;
  if (m[1] !== undefined) return isIPv6(m[1]) ? { name: m[1], port: m[3] ?? null, ipv6: true } : null;
  const name = m[2].endsWith('.') ? m[2].slice(0, -1) : m[2];
  if (!isIPv4(name) && !HOST_NAME.test(name)) return null;
  return { name, port: m[3] ?? null, ipv6: false };
}

/** The host name as it would be written in ALLOWED_HOSTS: lower case, no trailing dot. */
export function normalizeHostName(name: string): string {
  const n = name.trim().toLowerCase();
  return n.endsWith('.') ? n.slice(0, -1) : n;
}

/** Checks one ALLOWED_HOSTS entry; returns why it is unusable, or null. */
export function allowedHostEntryProblem(entry: string): string | null {
  const e = normalizeHostName(entry);
  if (e === '*') return null;
  const name = e.startsWith('.') ? e.slice(1) : e;
  return HOST_NAME.test(name) ? null : `"${entry}" is not a host name (use names like station.lan, .example.org, or *)`;
}

function nameAllowed(name: string, policy: HostPolicy): boolean {
  // A rebinding page cannot make the browser send an IP literal or a localhost name as Host:
  // those are the page's own names only when the page is really on this machine or address.
  if (isIPv4(name) || isIPv6(name)) return true;
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  const own = normalizeHostName(policy.hostname);
  if (own) {
    const short = own.split('.')[0];
    if (name === own || name === `${own}.local` || name === `${short}.local` || name === short) return true;
  }
  for (const e of policy.extra) {
    if (e === '*' || e === name) return true;
    if (e.startsWith('.') && (name === e.slice(1) || name.endsWith(e))) return true;
  }
  return false;
}

/**
 * Whether a request with this Host header is served. No Host at all is served: every browser
 * sends one, so a request without it cannot come from a rebinding page (uWS 20.30 drops those
 * requests before our code anyway: test/http/uws-limits.test.ts).
 */
export function hostAllowed(rawHost: string, policy: HostPolicy): boolean {
  if (rawHost === '') return true;
  const h = parseHostHeader(rawHost);
  return h !== null && nameAllowed(h.name, policy);
}

/** Methods that only read; everything else changes state and passes the origin check. */
export function isSafeMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}

/**
 * Why a state-changing request must be refused as cross-site, or null when it may go on.
 * Its Origin must be the station's own: the Host the request was sent to, over http or https
 * (https when a TLS proxy is in front). No Origin (curl, scripts) goes on; `Origin: null`
 * (sandboxed frames, data: pages, some redirects) cannot be told apart from an attack.
 */
export function crossSiteRefusal(req: { host: string; origin: string; secFetchSite: string }): string | null {
  if (req.secFetchSite.trim().toLowerCase() === 'cross-site') return 'the browser marked it Sec-Fetch-Site: cross-site';
  const origin = req.origin.trim();
  if (origin === '') return null;
  if (origin.toLowerCase() === 'null') return 'its Origin is "null" (a sandboxed or opaque page)';
  let o: URL;
  try {
    o = new URL(origin);
  } catch {
    return `its Origin "${origin}" is not a URL`;
  }
  if (o.protocol !== 'http:' && o.protocol !== 'https:') return `its Origin "${origin}" is not a web page`;
  if (req.host === '') return `its Origin "${origin}" cannot be compared: the request has no Host`;
  let own: URL;
  try {
    // The Host read with the Origin's scheme, so default ports compare equal (`x:80` is `x`).
    own = new URL(`${o.protocol}//${req.host.trim()}`);
  } catch {
    return `its Host "${req.host}" is not a host name`;
  }
  return own.host === o.host ? null : `its Origin ${o.origin} is not this station (${req.host})`;
}
