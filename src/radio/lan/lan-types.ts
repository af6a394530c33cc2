import type { CivBus, CivTimeouts } from '../civ-bus.js';
import type { IcomLanSession } from './lan-session.js';
import { AppError } from '../../util/errors.js';

// What the radio and the APRS station need to know of the IC-705's LAN sessions, without the
// sessions themselves: the hub (lan-hub.ts, UDP and the session code) is loaded on the first lease.

export interface LanEndpoint {
  host: string;
  port: number;
  username: string;
  password: string;
}

/** The rig's receive and transmit audio on the LAN stream: 16-bit PCM mono at this rate. */
export const LAN_AUDIO_RATE_HZ = 24_000;

/** CI-V over Wi-Fi: a reply may wait on a retransmit, so give it longer than on a cable. */
export const LAN_CIV_TIMEOUTS: CivTimeouts = { reply_ms: 1000, read_retries: 1, jam_retries: 2 };

export const endpointKey = (e: Pick<LanEndpoint, 'host' | 'port'>): string => `lan://${e.host}:${e.port}`;

export interface LanLease {
  readonly key: string;
  readonly session: IcomLanSession;
  readonly bus: CivBus;
  readonly radioName: string;
  /** Once, if the session drops while this lease holds it (radio off, out of range). */
  onLost(fn: (reason: string) => void): void;
  /** Lets go; the session closes cleanly when nobody else holds it. Idempotent. */
  release(): Promise<void>;
}

/** Who hands out leases: the hub, or its lazy front (lazy-lan-hub.ts). */
export interface LanLeaser {
  lease(owner: string, e: LanEndpoint, rigAddr: number): Promise<LanLease>;
}

/** A failure that no retry will fix until the operator acts (wrong password, radio in use). */
export class LanOpenError extends AppError {
  constructor(status: number, code: string, message: string, readonly retry: boolean) {
    super(status, code, message);
  }
}
