import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AttemptLimiter } from '../../src/access/attempt-limiter.js';
import { cookieValue, makeSession, sessionValid, SESSION_MAX_AGE_S } from '../../src/access/session-cookie.js';
import { hashToken, isTokenHash, verifyToken } from '../../src/access/token-hash.js';

// The operator lock's pure parts, without I/O.

describe('token hash', () => {
  it('verifies the token it hashed and nothing else; salts differ; a malformed hash never throws', async () => {
    const a = await hashToken('sesame-open-now');
    const b = await hashToken('sesame-open-now');
    assert.ok(isTokenHash(a));
    assert.notEqual(a, b, 'a fresh salt each time');
    assert.equal(await verifyToken('sesame-open-now', a), true);
    assert.equal(await verifyToken('sesame-open-no', a), false);
    assert.equal(await verifyToken('', a), false);
    assert.equal(await verifyToken('x', 'scrypt$16384$8$1$AA==$AA=='), false);
    assert.equal(await verifyToken('x', 'plain'), false);
    assert.equal(await verifyToken('x', 'scrypt$99999999999$8$1$AA==$AA=='), false, 'absurd parameters fail, not throw');
  });
});

describe('session cookie', () => {
  const key = 'ab'.repeat(32);
  it('is valid until it expires, under its own key only', () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    const c = makeSession(key, now);
    assert.equal(sessionValid(key, c, now), true);
    assert.equal(sessionValid(key, c, now + SESSION_MAX_AGE_S * 1000 - 1), true);
    assert.equal(sessionValid(key, c, now + SESSION_MAX_AGE_S * 1000), false);
    assert.equal(sessionValid('cd'.repeat(32), c, now), false);
    assert.equal(sessionValid('', c, now), false, 'no key (unlocked): no session');
    const [exp, sig] = c.split('.');
    assert.equal(sessionValid(key, `${Number(exp) + 1000}.${sig}`, now), false, 'a stretched expiry breaks the signature');
    for (const bad of ['', '.', 'x.y', `${exp}`, `${exp}.`, '-1.abc']) assert.equal(sessionValid(key, bad, now), false, bad);
  });
  it('is read from a Cookie header among others', () => {
    assert.equal(cookieValue('a=1; satstation_operator=v.1; b=2', 'satstation_operator'), 'v.1');
    assert.equal(cookieValue('satstation_operator_x=1', 'satstation_operator'), null);
    assert.equal(cookieValue('', 'satstation_operator'), null);
  });
});

describe('attempt limiter', () => {
  it('refuses an address after five failures until its window passes; success clears it', () => {
    const l = new AttemptLimiter({ maxFailures: 5, windowMs: 60_000 });
    for (let i = 4; i >= 0; i--) assert.equal(l.fail('10.0.0.9', 1000), i);
    assert.ok(l.blockedFor('10.0.0.9', 1000) > 0);
    assert.equal(l.blockedFor('10.0.0.8', 1000), 0, 'other addresses are not affected');
    assert.equal(l.blockedFor('10.0.0.9', 61_000), 0);
    l.fail('10.0.0.7', 0);
    l.succeed('10.0.0.7');
    assert.equal(l.fail('10.0.0.7', 1), 4);
  });
  it('stays bounded under a flood of addresses', () => {
    const l = new AttemptLimiter({ maxKeys: 64 });
    for (let i = 0; i < 10_000; i++) l.fail(`10.1.${i >> 8}.${i & 255}`, i);
    assert.equal(l.size, 64);
  });
});
