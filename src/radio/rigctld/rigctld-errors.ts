import { hamlibErrorText } from '../../ham/hamlib/errors.js';

// What a request to rigctld can end in besides its value. Every one names the command, so the
// radio's last_error says which step failed ("set_split_freq: rigctld answered RPRT -9 …").

/** The daemon answered "RPRT n" with n < 0: Hamlib's error code, kept for callers that branch on it. */
export class RigctldRejected extends Error {
  constructor(readonly cmd: string, readonly code: number) {
    super(`${cmd}: rigctld answered RPRT ${code} (${hamlibErrorText(code)})`);
    this.name = 'RigctldRejected';
  }
}

/** No complete reply within the reply timeout; the connection is closed with it (a late reply would answer the next command). */
export class RigctldTimeout extends Error {
  constructor(readonly cmd: string, readonly ms: number) {
    super(`${cmd}: rigctld did not answer within ${ms} ms`);
    this.name = 'RigctldTimeout';
  }
}

/** A reply line that belongs to no reply of the command: not rigctld, or out of step; the connection is closed with it. */
export class RigctldGarbled extends Error {
  constructor(readonly cmd: string, detail: string) {
    super(`${cmd}: garbled reply from rigctld (${detail})`);
    this.name = 'RigctldGarbled';
  }
}

/** The connection is gone: every waiting and later request fails with this. */
export class RigctldClosed extends Error {
  constructor(why: string) {
    super(why);
    this.name = 'RigctldClosed';
  }
}
