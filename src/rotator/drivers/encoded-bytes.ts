import type { Encoded } from '../protocol/encoded.js';
import { RotatorTargetInvalid } from './rotator-driver.js';

/** The bytes of an encoded command, or the target error the caller reports (nothing is sent). */
export function bytesOf(e: Encoded): Uint8Array {
  if (e.kind === 'unencodable') throw new RotatorTargetInvalid(e.field, e.message);
  return e.bytes;
}
