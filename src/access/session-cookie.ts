import { nodeCrypto } from '../util/lazy-builtins.js';

// The login page's cookie is not the token: it is `<expiry ms>.<HMAC-SHA256(key, expiry)>` with a
// random key kept in the access file. Checking it is one HMAC (no scrypt per request), and a new
// token or an unlock rotates the key, which signs every browser out.

export const SESSION_COOKIE = 'satstation_operator';
/** A month: a field station is often left for weeks; sign out or change the token to end it sooner. */
export const SESSION_MAX_AGE_S = 30 * 24 * 3600;

const sign = (keyHex: string, expiresMs: number) => nodeCrypto().createHmac('sha256', Buffer.from(keyHex, 'hex')).update(String(expiresMs)).digest('base64url');

export function makeSession(keyHex: string, nowMs: number): string {
  const exp = nowMs + SESSION_MAX_AGE_S * 1000;
  return `${exp}.${sign(keyHex, exp)}`;
}

export function sessionValid(keyHex: string, value: string, nowMs: number): boolean {
  const dot = value.indexOf('.');
  if (dot <= 0 || keyHex === '') return false;
  const exp = Number(value.slice(0, dot));
  if (!Number.isSafeInteger(exp) || exp <= nowMs) return false;
  const got = Buffer.from(value.slice(dot + 1));
  const want = Buffer.from(sign(keyHex, exp));
  return got.length === want.length && nodeCrypto().timingSafeEqual(got, want);
}

/** One cookie's value from a Cookie header, or null. */
export function cookieValue(header: string, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** Set-Cookie for a session (HttpOnly; SameSite=Strict keeps other sites' forms from using it). */
export const sessionSetCookie = (value: string) => `${SESSION_COOKIE}=${value}; Path=/; Max-Age=${SESSION_MAX_AGE_S}; HttpOnly; SameSite=Strict`;
export const sessionClearCookie = () => `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict`;
