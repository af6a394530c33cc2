import * as v from 'valibot';
import { SESSION_MAX_AGE_S } from './session-cookie.js';

// One valibot schema per access resource: the file on disk, the state the API answers, the lock
// change and the login, reused for validation, types and /docs.

export const ACCESS_SOURCES = ['off', 'setting', 'environment'] as const;

export const OperatorTokenSchema = v.pipe(
  v.string(),
  v.minLength(8, 'must be at least 8 characters'),
  v.maxLength(256, 'must be at most 256 characters'),
  v.regex(/^[^\x00-\x1f\x7f]+$/, 'must not contain control characters'),
  v.description('the operator token: 8–256 characters, sent later as `Authorization: Bearer <token>` or through /login'),
);

/** `access.json` (mode 0600): the token's scrypt hash and the key that signs login cookies. */
export const AccessFileSchema = v.object({
  token_hash: v.nullable(v.pipe(v.string(), v.regex(/^scrypt\$/))),
  cookie_key: v.pipe(v.string(), v.regex(/^([0-9a-f]{64})?$/)),
  changed_at: v.nullable(v.string()),
});
export type AccessFile = v.InferOutput<typeof AccessFileSchema>;
export const defaultAccessFile = (): AccessFile => ({ token_hash: null, cookie_key: '', changed_at: null });

export const AccessStateSchema = v.object({
  locked: v.pipe(v.boolean(), v.description('true: every POST except emergency stop and login needs the operator token')),
  source: v.pipe(v.picklist(ACCESS_SOURCES), v.description('off, setting (POST /api/v1/access) or environment (OPERATOR_TOKEN, not changeable here)')),
  authorized: v.pipe(v.boolean(), v.description('this request carried a valid token or login cookie (always true when unlocked)')),
  changed_at: v.pipe(v.nullable(v.string()), v.description('UTC ISO 8601 of the last lock change made through the API')),
  session_max_age_s: v.pipe(v.number(), v.description(`login cookie lifetime (${SESSION_MAX_AGE_S} s)`)),
});
export type AccessState = v.InferOutput<typeof AccessStateSchema>;

export const AccessChangeSchema = v.object({
  locked: v.pipe(v.boolean(), v.description('true locks (or changes the token when already locked); false unlocks')),
  token: v.optional(OperatorTokenSchema),
});
export type AccessChange = v.InferOutput<typeof AccessChangeSchema>;

export const LoginSchema = v.object({
  token: v.pipe(v.string(), v.maxLength(256), v.description('the operator token')),
});
