// What the rotator service sees of a controller, whatever its protocol: read the position, go
// somewhere, stop, maybe park, and hear when the controller went away.

export type RotatorProtocol = 'gs232a' | 'gs232b' | 'easycomm2' | 'rot2prog' | 'rotctld';

export interface RotatorPosition {
  az_deg: number;
  el_deg: number;
}

export interface RotatorDriver {
  readonly protocol: RotatorProtocol;
  position(): Promise<RotatorPosition>;
  goto(p: RotatorPosition): Promise<void>;
  /** Jumps ahead of every queued command: a stop never waits behind a slow poll. */
  stop(): Promise<void>;
  /** Only where the controller has a park of its own (rotctld's K); otherwise the caller goes to its park position. */
  park?(): Promise<void>;
  close(): Promise<void>;
  /** Once, when the link closes: err set when it went away (unplugged, daemon gone), null on our close(). */
  onClose(fn: (err: Error | null) => void): () => void;
}

/** Every rotator timing in one place. */
export interface RotatorTimeouts {
  /** Wait for one reply (a Rot2Prog at 600 baud needs ~220 ms just to send 13 bytes). */
  reply_ms: number;
  /** Wait for a TCP connection to rotctld. */
  connect_ms: number;
}

export const ROTATOR_TIMEOUTS: RotatorTimeouts = { reply_ms: 1000, connect_ms: 3000 };

/** The controller said nothing within the reply timeout. */
export class RotatorSilent extends Error {
  constructor(readonly what: string, readonly ms: number) {
    super(`${what}: the rotator controller did not answer within ${ms} ms`);
    this.name = 'RotatorSilent';
  }
}

/** The controller answered with bytes that are not a reply of its protocol. */
export class RotatorGarbled extends Error {
  constructor(readonly what: string, detail: string) {
    super(`${what}: garbled reply from the rotator controller (${detail})`);
    this.name = 'RotatorGarbled';
  }
}

/** The controller understood and refused (GS-232 "?>", rotctld "RPRT -n"). */
export class RotatorRejected extends Error {
  constructor(readonly what: string, detail: string) {
    super(`${what}: ${detail}`);
    this.name = 'RotatorRejected';
  }
}

/** The link is closed: every waiting and later command fails with this. */
export class RotatorClosed extends Error {
  constructor(why: string) {
    super(why);
    this.name = 'RotatorClosed';
  }
}

/** A target no byte of the protocol can express (NaN, or beyond what it carries). */
export class RotatorTargetInvalid extends Error {
  constructor(readonly field: 'az_deg' | 'el_deg', message: string) {
    super(message);
    this.name = 'RotatorTargetInvalid';
  }
}
