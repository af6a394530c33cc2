// IP address literals as node:net's isIPv4/isIPv6 read them (pure). The HTTP layer checks every
// Host header with them, and node:net (with the streams under it) was the one reason that module
// was loaded at boot: ~10 ms of CPU here, a tenth of a second of a Pi's boot.

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]\\d|\\d)';
const IPV4 = new RegExp(`^(?:${OCTET}\\.){3}${OCTET}$`);
const HEX16 = /^[0-9a-fA-F]{1,4}$/;
const ZONE = /^[0-9a-zA-Z.:-]+$/;

/** Dotted decimal, four parts 0–255, no leading zeros. */
export function isIPv4Literal(s: string): boolean {
  return IPV4.test(s);
}

/**
 * Eight groups of 1–4 hex digits, or fewer with one `::` standing for the missing zeros; the
 * last two groups may be written as an IPv4 address; a zone (`%eth0`) may follow.
 */
export function isIPv6Literal(s: string): boolean {
  const zone = s.indexOf('%');
  const addr = zone >= 0 ? s.slice(0, zone) : s;
  if (zone >= 0 && !ZONE.test(s.slice(zone + 1))) return false;
  const halves = addr.split('::');
  if (halves.length > 2) return false;
  const groups = (part: string): string[] | null => (part === '' ? [] : part.split(':'));
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  if (!head || !tail) return false;
  const all = [...head, ...tail];
  let count = 0;
  for (let k = 0; k < all.length; k++) {
    const g = all[k];
    // An IPv4 tail ends the address: not before a `::` with nothing after it.
    if (k === all.length - 1 && g.includes('.') && (halves.length === 1 || tail.length > 0)) {
      if (!isIPv4Literal(g)) return false;
      count += 2;
    } else if (HEX16.test(g)) count++;
    else return false;
  }
  return halves.length === 2 ? count <= 7 : count === 8;
}
