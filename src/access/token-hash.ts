import { nodeCrypto } from '../util/lazy-builtins.js';

// The operator token is kept only as a scrypt hash. N=2^14, r=8 (16 MiB, ~40 ms here, ~0.5 s on a
// Pi Zero) makes guessing slow even for a short token; it runs on libuv's pool, off the event loop,
// and only on a login or a token not seen before (AccessService caches verified tokens).
const N = 1 << 14;
const R = 8;
const P = 1;
const KEY_BYTES = 32;
const MAXMEM = 64 * 1024 * 1024;

function derive(token: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    nodeCrypto().scrypt(token.normalize('NFC'), salt, KEY_BYTES, { N: n, r, p, maxmem: MAXMEM }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** `scrypt$N$r$p$<salt b64>$<hash b64>`: the parameters travel with the hash so they can change later. */
export async function hashToken(token: string): Promise<string> {
  const salt = nodeCrypto().randomBytes(16);
  const key = await derive(token, salt, N, R, P);
  return ['scrypt', N, R, P, salt.toString('base64'), key.toString('base64')].join('$');
}

const FORMAT = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/;

export const isTokenHash = (s: string): boolean => FORMAT.test(s);

/** True when `token` hashes to `stored`; false for a malformed hash too (never throws). */
export async function verifyToken(token: string, stored: string): Promise<boolean> {
  const m = FORMAT.exec(stored);
  if (!m) return false;
  const expected = Buffer.from(m[5], 'base64');
  try {
    const key = await derive(token, Buffer.from(m[4], 'base64'), Number(m[1]), Number(m[2]), Number(m[3]));
    return key.length === expected.length && nodeCrypto().timingSafeEqual(key, expected);
  } catch {
    return false;
  }
}
