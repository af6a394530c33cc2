import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rigFault } from '../../src/radio/rig-errors.js';
import { RigctldClosed, RigctldRejected, RigctldTimeout } from '../../src/radio/rigctld/rigctld-errors.js';
import { LegError, legDown } from '../../src/radio/leg-error.js';
import { TimeoutError } from '../../src/util/waitress.js';

// A rig fault reads the same in an HTTP answer whatever carries the rig's commands (CI-V, Yaesu
// CAT, rigctld) and whichever of two radios it came from: the status says what kind of fault,
// the words say which radio and which command.

describe('rigFault', () => {
  it('maps rigctld faults as the CI-V ones: no answer 504, refused 502, link down 503', () => {
    assert.equal(rigFault(new RigctldTimeout('set_freq', 2000), 'poll').status, 504);
    const rejected = rigFault(new RigctldRejected('set_split_freq', -9), 'pair');
    assert.equal(rejected.status, 502);
    assert.equal(rejected.code, 'rig_rejected');
    assert.match(rejected.message, /set_split_freq/);
    assert.equal(rigFault(new RigctldClosed('rigctld went away'), 'pair').code, 'rig_unavailable');
  });

  it("names the leg of two radios, keeping the cause's status", () => {
    const e = rigFault(new LegError('uplink', 'FT-818', new TimeoutError('read frequency', 500)), 'auto-track step');
    assert.equal(e.status, 504);
    assert.match(e.message, /uplink radio \(FT-818\)/);
    const down = rigFault(legDown('downlink', 'IC-705'), 'pair');
    assert.equal(down.status, 503);
    assert.match(down.message, /downlink radio \(IC-705\): not connected/);
  });
});

describe('rigFault on a driver refusal of one of two radios', () => {
  it('keeps the refusal status and code and names the leg', async () => {
    const { AppError } = await import('../../src/util/errors.js');
    const e = rigFault(new LegError('downlink', 'FT-818', new AppError(409, 'rig_transmitting', 'the FT-818 is transmitting')), 'auto-track step');
    assert.equal(e.status, 409);
    assert.equal(e.code, 'rig_transmitting');
    assert.match(e.message, /auto-track step: downlink radio \(FT-818\): the FT-818 is transmitting/);
  });
});
