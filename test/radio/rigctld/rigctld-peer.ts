import { spawnSync, type ChildProcess } from 'node:child_process';
import { startHamlibDaemon } from '../../rotator/rotctld-peer.js';

// Hamlib's real rigctld with its dummy rig (-m 1) on a loopback port, CAT PTT on (-P RIG: the
// dummy refuses T without it), and extra flags such as --vfo.

export const haveRigctld = spawnSync('rigctld', ['--version']).status === 0;

/** The skip reason of a test that needs rigctld, or false; REQUIRE_HAMLIB=1 turns a missing rigctld into a failure. */
export const rigctldSkip =
  !haveRigctld && process.env.REQUIRE_HAMLIB !== '1' ? 'rigctld (apt-get install libhamlib-utils) is not installed; set REQUIRE_HAMLIB=1 to make this a failure' : false;

export function startRigctld(port: number, extra: string[] = []): Promise<ChildProcess> {
  return startHamlibDaemon('rigctld', ['-m', '1', '-P', 'RIG', '-T', '127.0.0.1', '-t', String(port), ...extra], port);
}
