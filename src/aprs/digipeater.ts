// Terrestrial APRS digipeater decision, New-N paradigm as Dire Wolf implements it: look only at
// the first unused path element; an exact call/alias match is replaced by our call, a WIDEn-N
// gets our call inserted before it (trace) and N decremented. Pure: the caller owns policy by
// mode, duplicate suppression (DedupeWindow/dupeKey, before this) and transmission.

import { AX25_MAX_DIGIS, formatAddress, sameStation, type Ax25Address, type Ax25Frame } from './codec/ax25.js';

export interface DigiPolicy {
  myCall: Ax25Address;
  /** Exact-match aliases as addresses, e.g. ['WIDE1-1']; a bare call means SSID 0. */
  aliases: string[];
  /** 1-7: the largest n of WIDEn-N we service; a larger n (or N > n) is refused. */
  maxHops: number;
  /** Source callsigns allowed: "CALL" = every SSID of CALL, "CALL-N" = that one; empty = everyone. */
  allowlist: string[];
  /** Path elements that make us refuse, e.g. 'TCPIP', 'NOGATE', 'RFONLY' or any call; bare = every SSID. */
  blocklist: string[];
}

export type DropReason = 'not_allowlisted' | 'blocked_path' | 'too_many_hops' | 'loop';

export type DigiDecision =
  /** The rewritten frame to transmit; `via` is the path element we serviced, e.g. 'WIDE2-2'. */
  | { action: 'repeat'; frame: Ax25Frame; via: string }
  /** Not ours to repeat (no unused hop, path exhausted, our own packet, next hop someone else). */
  | { action: 'ignore'; reason: string }
  /** Ours by path but refused by policy (counted as a policy drop). */
  | { action: 'drop'; reason: DropReason };

/**
 * Does `entry` ("CALL" or "CALL-N", case-insensitive) name `a`? A bare entry matches every
 * SSID when `bareAnySsid`, else only SSID 0. Allocation-free: it runs for every list entry.
 */
function entryMatches(a: Ax25Address, entry: string, bareAnySsid: boolean): boolean {
  const call = a.call;
  const n = call.length;
  if (entry.length < n) return false;
  for (let i = 0; i < n; i++) {
    let c = entry.charCodeAt(i);
    if (c >= 0x61 && c <= 0x7a) c -= 0x20;
    if (c !== call.charCodeAt(i)) return false;
  }
  if (entry.length === n) return bareAnySsid || a.ssid === 0;
  if (entry.charCodeAt(n) !== 0x2d /* - */ || entry.length === n + 1 || entry.length > n + 3) return false;
  let ssid = 0;
  for (let i = n + 1; i < entry.length; i++) {
    const d = entry.charCodeAt(i) - 0x30;
    if (d < 0 || d > 9) return false;
    ssid = ssid * 10 + d;
  }
  return ssid === a.ssid;
}

function anyMatches(a: Ax25Address, list: readonly string[], bareAnySsid: boolean): boolean {
  for (let i = 0; i < list.length; i++) if (entryMatches(a, list[i], bareAnySsid)) return true;
  return false;
}

/** n of a WIDEn call (1..7), else 0. Only WIDEn is generic: TRACEn/state aliases are deprecated. */
function wideN(call: string): number {
  if (call.length !== 5 || !call.startsWith('WIDE')) return 0;
  const n = call.charCodeAt(4) - 0x30;
  return n >= 1 && n <= 7 ? n : 0;
}

export function decideDigipeat(f: Ax25Frame, p: DigiPolicy): DigiDecision {
  const me = p.myCall;
  if (sameStation(f.source, me)) return { action: 'ignore', reason: 'own packet' };
  const path = f.path;
  if (path.length === 0) return { action: 'ignore', reason: 'no digipeater path' };
  let i = 0;
  while (i < path.length && path[i].repeated) i++;
  if (i === path.length) return { action: 'ignore', reason: 'path exhausted' };
  const next = path[i];

  const explicit = sameStation(next, me);
  const alias = !explicit && anyMatches(next, p.aliases, false);
  const n = explicit || alias ? 0 : wideN(next.call);
  if (!explicit && !alias && (n === 0 || next.ssid === 0)) {
    return { action: 'ignore', reason: `next hop is ${formatAddress(next)}` };
  }

  // Loop: we already repeated this packet. A packet routed to us by name is honoured anyway:
  // the sender asked for that route explicitly.
  if (!explicit) {
    for (let k = 0; k < i; k++) if (sameStation(path[k], me)) return { action: 'drop', reason: 'loop' };
  }
  for (let k = 0; k < path.length; k++) if (anyMatches(path[k], p.blocklist, true)) return { action: 'drop', reason: 'blocked_path' };
  if (p.allowlist.length > 0 && !anyMatches(f.source, p.allowlist, true)) return { action: 'drop', reason: 'not_allowlisted' };
  if (n > 0 && (n > p.maxHops || next.ssid > n)) return { action: 'drop', reason: 'too_many_hops' };

  const via = formatAddress(next);
  const mine: Ax25Address = { call: me.call, ssid: me.ssid, repeated: true };
  let out: Ax25Address[];
  if (n === 0) {
    out = path.slice();
    out[i] = mine;
  } else {
    const left = next.ssid - 1;
    // WIDEn-0 is marked used so nobody services it again.
    const wide: Ax25Address = { call: next.call, ssid: left, repeated: left === 0 };
    if (path.length < AX25_MAX_DIGIS) {
      out = new Array<Ax25Address>(path.length + 1);
      for (let k = 0; k < i; k++) out[k] = path[k];
      out[i] = mine;
      out[i + 1] = wide;
      for (let k = i + 1; k < path.length; k++) out[k + 1] = path[k];
    } else {
      // No room for our call (AX.25 caps the path at 8): decrement only, losing the trace,
      // as Dire Wolf does, rather than refusing a packet the path still asks us to repeat.
      out = path.slice();
      out[i] = wide;
    }
  }
  // destination, source and info are shared, not copied: frames are treated as immutable.
  return { action: 'repeat', frame: { destination: f.destination, source: f.source, path: out, control: f.control, pid: f.pid, info: f.info }, via };
}
