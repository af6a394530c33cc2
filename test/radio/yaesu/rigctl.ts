import { execFile, spawnSync } from 'node:child_process';

// Hamlib's rigctl for the crosschecks: whether it is here (and socat for the pty), and one run.

const have = spawnSync('rigctl', ['--version']).status === 0 && spawnSync('socat', ['-V']).status === 0;

/** Why a crosscheck is skipped here, or false when it runs (REQUIRE_HAMLIB=1 makes a missing Hamlib a failure). */
export const hamlibSkip: string | false =
  !have && process.env.REQUIRE_HAMLIB !== '1' ? 'rigctl (apt-get install libhamlib-utils) or socat is not installed; set REQUIRE_HAMLIB=1 to make this a failure' : false;

/** Runs rigctl on device at baud and resolves with its output lines; a failure carries stdout too, where rigctl prints the command's error. */
export function rigctl(model: number, device: string, baud: number, ...cmd: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile('rigctl', ['-m', String(model), '-r', device, '-s', String(baud), ...cmd], { timeout: 20000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`rigctl ${cmd.join(' ')}: ${err.message} ${stderr.trim()} ${stdout.trim()}`));
      else resolve(stdout.trim().split('\n'));
    });
  });
}
