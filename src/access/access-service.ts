import { nodeCrypto } from '../util/lazy-builtins.js';
import type { JsonStore } from '../store/json-store.js';
import type { Clock } from '../util/clock.js';
import { AppError } from '../util/errors.js';
import { logger } from '../util/logger.js';
import { AttemptLimiter, type AttemptLimiterOptions } from './attempt-limiter.js';
import { hashToken, verifyToken } from './token-hash.js';
import { makeSession, sessionClearCookie, sessionSetCookie, sessionValid, SESSION_MAX_AGE_S } from './session-cookie.js';
import type { AccessChange, AccessFileSchema, AccessState } from './schemas.js';

const log = logger('access');

/** What a request presents: a bearer token, the login cookie's value, and where it came from. */
export interface Credentials {
  bearer: string | null;
  cookie: string | null;
  ip: string;
}

type Verdict = { kind: 'open' } | { kind: 'authorized' } | { kind: 'missing' } | { kind: 'invalid'; attemptsLeft: number } | { kind: 'rate_limited'; retryAfterMs: number };

const OPEN: Verdict = { kind: 'open' };
const AUTHORIZED: Verdict = { kind: 'authorized' };
const MISSING: Verdict = { kind: 'missing' };
/** Tokens already proven against the current hash, by SHA-256: a scripted client pays scrypt once. */
const VERIFIED_MAX = 4;

export interface AccessServiceDeps {
  store: JsonStore<typeof AccessFileSchema>;
  /** OPERATOR_TOKEN: when set the station is locked with it and the API cannot change that. */
  envToken: string | null;
  clock: Clock;
  limiter?: AttemptLimiterOptions;
}

/** A change's outcome: the new state and the cookie header the answer should carry, if any. */
export interface AccessOutcome {
  state: AccessState;
  setCookie: string | null;
}

/**
 * The operator lock. Open by default (spec clients send no credentials); when locked, every
 * state-changing request needs the operator token or a login cookie, GETs and pages stay open.
 */
export class AccessService {
  readonly name = 'access';
  private envHash: string | null = null;
  private readonly verified = new Set<string>();
  private readonly limiter: AttemptLimiter;

  constructor(private readonly deps: AccessServiceDeps) {
    this.limiter = new AttemptLimiter(deps.limiter);
    deps.store.onChange(() => this.verified.clear());
  }

  async start(): Promise<void> {
    if (!this.deps.envToken) return;
    this.envHash = await hashToken(this.deps.envToken);
    if (this.deps.store.get().cookie_key === '') await this.deps.store.update({ cookie_key: newKey() }).catch((err) => log.error('cannot store the login cookie key', err));
    log.info('station locked by OPERATOR_TOKEN');
  }

  source(): AccessState['source'] {
    if (this.deps.envToken) return 'environment';
    return this.deps.store.get().token_hash ? 'setting' : 'off';
  }

  locked(): boolean {
    return this.source() !== 'off';
  }

  private tokenHash(): string | null {
    return this.deps.envToken ? this.envHash : this.deps.store.get().token_hash;
  }

  /** Resolves what the credentials are worth; synchronous (no promise) while the station is open. */
  authorize(c: Credentials): Verdict | Promise<Verdict> {
    if (!this.locked()) return OPEN;
    const now = this.deps.clock.now();
    if (c.cookie && sessionValid(this.deps.store.get().cookie_key, c.cookie, now)) return AUTHORIZED;
    if (c.bearer === null) return MISSING;
    return this.checkToken(c.bearer, c.ip);
  }

  private async checkToken(token: string, ip: string): Promise<Verdict> {
    const wait = this.limiter.blockedFor(ip, this.deps.clock.now());
    if (wait > 0) return { kind: 'rate_limited', retryAfterMs: wait };
    const digest = nodeCrypto().createHash('sha256').update(token).digest('base64');
    if (this.verified.has(digest)) return AUTHORIZED;
    const hash = this.tokenHash();
    if (hash && (await verifyToken(token, hash)) && hash === this.tokenHash()) {
      if (this.verified.size >= VERIFIED_MAX) this.verified.clear();
      this.verified.add(digest);
      this.limiter.succeed(ip);
      return AUTHORIZED;
    }
    const attemptsLeft = this.limiter.fail(ip, this.deps.clock.now());
    log.warn(`wrong operator token from ${ip}`);
    return { kind: 'invalid', attemptsLeft };
  }

  /** The HTTP layer's check before any state-changing route: returns when allowed, throws 401/429. */
  gate(c: Credentials): void | Promise<void> {
    const v = this.authorize(c);
    if (!(v instanceof Promise)) return refuseUnless(v);
    return v.then(refuseUnless);
  }

  async state(c: Credentials): Promise<AccessState> {
    const v = await this.authorize(c);
    return this.stateWith(v.kind === 'open' || v.kind === 'authorized');
  }

  private stateWith(authorized: boolean): AccessState {
    return { locked: this.locked(), source: this.source(), authorized, changed_at: this.deps.store.get().changed_at, session_max_age_s: SESSION_MAX_AGE_S };
  }

  /** The login page: the token in, a session cookie out (rate-limited like the header). */
  async login(token: string, c: Credentials): Promise<AccessOutcome> {
    if (!this.locked()) return { state: this.stateWith(true), setCookie: null };
    refuseUnless(await this.checkToken(token, c.ip));
    return { state: this.stateWith(true), setCookie: sessionSetCookie(makeSession(this.deps.store.get().cookie_key, this.deps.clock.now())) };
  }

  logout(): AccessOutcome {
    return { state: this.stateWith(!this.locked()), setCookie: sessionClearCookie() };
  }

  /** Lock (or change the token) and unlock; the HTTP gate has already checked the caller when locked. */
  async change(body: AccessChange): Promise<AccessOutcome> {
    if (this.deps.envToken) {
      throw new AppError(409, 'locked_by_environment', 'the lock is set by OPERATOR_TOKEN in the service environment; change or remove it there and restart', { source: 'environment' });
    }
    const changed_at = new Date(this.deps.clock.now()).toISOString();
    if (!body.locked) {
      await this.deps.store.set({ token_hash: null, cookie_key: '', changed_at });
      log.info('station unlocked');
      return { state: this.stateWith(true), setCookie: sessionClearCookie() };
    }
    if (body.token === undefined) {
      throw new AppError(400, 'validation_failed', 'invalid body: token: required to lock the station', { fields: [{ field: 'token', message: 'required to lock the station' }] });
    }
    const key = newKey();
    await this.deps.store.set({ token_hash: await hashToken(body.token), cookie_key: key, changed_at });
    log.info('station locked (operator token set)');
    return { state: this.stateWith(true), setCookie: sessionSetCookie(makeSession(key, this.deps.clock.now())) };
  }
}

const newKey = () => nodeCrypto().randomBytes(32).toString('hex');

function refuseUnless(v: Verdict): void {
  switch (v.kind) {
    case 'open':
    case 'authorized':
      return;
    case 'missing':
      throw new AppError(401, 'operator_token_required', 'the station is locked: send the operator token (Authorization: Bearer <token>) or sign in at /login', { login: '/login' }, { 'WWW-Authenticate': 'Bearer realm="satstation"' });
    case 'invalid':
      throw new AppError(401, 'operator_token_invalid', 'wrong operator token', { attempts_left: v.attemptsLeft, login: '/login' }, { 'WWW-Authenticate': 'Bearer realm="satstation", error="invalid_token"' });
    case 'rate_limited': {
      const s = Math.ceil(v.retryAfterMs / 1000);
      throw new AppError(429, 'too_many_attempts', `too many wrong operator tokens from this address; try again in ${s} s`, { retry_after_s: s }, { 'Retry-After': String(s) });
    }
  }
}
