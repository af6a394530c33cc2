import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { openPtyPair, type PtyPair } from '../sims/pty-pair.js';
import { nodeSerialDriver, type SerialConnection } from '../../src/links/serial-driver.js';

// A pulled cable is a hangup of the tty: the kernel reports it to a reader as EIO, as a poll
// error, or (once the hangup has swapped the file's operations) as a read of 0 bytes, end of
// file, depending on where the read was when it came. The last one must count as the device
// gone too; serialport itself retries a 0-byte read at once, for ever.

const closed = (c: SerialConnection) => new Promise<Error | null>((resolve) => c.onClose(resolve));
const within = <T>(p: Promise<T>, ms: number, what: string) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms).unref())]);

describe('serial driver: the device hangs up', () => {
  const pairs: PtyPair[] = [];
  after(async () => {
    for (const p of pairs) await p.close();
  });

  it('a hangup met by the first read (end of file) closes the connection with an error', async () => {
    const pty = await openPtyPair();
    pairs.push(pty);
    const c = await nodeSerialDriver.open(pty.ctlPath, 115200);
    const gone = closed(c);
    // Unplug before anything reads: the hangup is complete when the first read starts.
    await pty.unplug();
    c.onData(() => {});
    const err = await within(gone, 2000, 'close after the hangup').finally(() => c.close());
    assert.ok(err instanceof Error, 'closed with the reason, not as our own close()');
  });

  it('a hangup while a read waits (poll error) closes it too', async () => {
    const pty = await openPtyPair();
    pairs.push(pty);
    const c = await nodeSerialDriver.open(pty.ctlPath, 115200);
    const gone = closed(c);
    c.onData(() => {});
    await new Promise((r) => setTimeout(r, 50)); // the read is parked on the poller
    await pty.unplug();
    const err = await within(gone, 2000, 'close after the hangup').finally(() => c.close());
    assert.ok(err instanceof Error);
  });
});
