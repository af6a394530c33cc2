import { errorMessage } from '../util/errors.js';

// A fault of one of two radios, named by its leg ("uplink radio (IC-705): no answer"): the
// operator sees which radio to look at, and the cause stays inside for the HTTP mapping (a
// timeout is still a 504, a refusal a 502).

export type LegName = 'downlink' | 'uplink';

export class LegError extends Error {
  constructor(
    readonly leg: LegName,
    readonly rig: string,
    /** What the radio's driver threw, or what went wrong in words. */
    readonly fault: unknown,
    /** The radio is not connected (a 503, not a fault of a command). */
    readonly down = false,
  ) {
    super(`${leg} radio (${rig}): ${typeof fault === 'string' ? fault : errorMessage(fault)}`);
    this.name = 'LegError';
  }
}

/** The leg's radio is not connected (unplugged, off, its line reconnecting). */
export const legDown = (leg: LegName, rig: string): LegError => new LegError(leg, rig, 'not connected (its link reconnects by itself)', true);
