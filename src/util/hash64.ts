// A 64-bit hash of text without node:crypto (issue 36: crypto stays unread at boot), for names
// that must change whenever their input does, such as the catalogue's version that keys the pass
// tables. Not for secrets: an operator's own catalogue sources are not an adversary. Two 32-bit
// lanes of different families (FNV-1a and a multiply-rotate lane), each finished with an avalanche,
// so a collision needs both at once (~2^-64 for two given catalogues).

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const LANE2_SEED = 0x9747b28c;

function avalanche(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export class Hash64 {
  private a = FNV_OFFSET;
  private b = LANE2_SEED;
  private n = 0;

  /** Adds `text`'s UTF-16 code units. */
  update(text: string): this {
    let a = this.a;
    let b = this.b;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      a = Math.imul(a ^ c, FNV_PRIME);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b = (b << 13) | (b >>> 19);
    }
    this.a = a;
    this.b = b;
    this.n += text.length;
    return this;
  }

  /** 16 hex digits. */
  hex(): string {
    const a = avalanche(this.a ^ this.n);
    const b = avalanche(this.b ^ Math.imul(this.n, 0x27d4eb2d));
    return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
  }
}

/**
 * A random identifier shaped as a version-4 UUID, from Math.random: unique enough to tell one boot
 * of the station from the next (the live events' boot_id), not a secret.
 */
export function randomUuidShape(): string {
  const hex = (n: number) => Array.from({ length: n }, () => ((Math.random() * 16) | 0).toString(16)).join('');
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[(Math.random() * 4) | 0]}${hex(3)}-${hex(12)}`;
}
