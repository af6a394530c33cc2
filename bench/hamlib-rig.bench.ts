import type { ByteConnection } from '../src/links/byte-connection.js';
import { HamlibDriver } from '../src/radio/rigctld/hamlib-driver.js';
import { RigctldClient } from '../src/radio/rigctld/rigctld-client.js';
import { hamlibCapabilities } from '../src/radio/rig-capabilities.js';
import { systemClock } from '../src/util/clock.js';
import { medianMs, type BudgetLine, type Suite } from './harness.js';

// Issue 34's budget for the Hamlib client: a tracking tick (the receive leg's F and the transmit
// leg's I, each encoded, queued, written, its RPRT read and matched) without the wire. The daemon
// is an in-process stand-in that answers every line at once, so the figure is the station's own
// work per tick: the driver, the client's queue and reply timer, the line codec and reader.

const DUMP =
  '1\n1020\n0\n100000.000000 470000000.000000 0x18bf -1 -1 0x3 0x3\n0 0 0 0 0 0 0\n100000.000000 470000000.000000 0x18bf 500 5000 0x3 0x3\n0 0 0 0 0 0 0\n' +
  '0x9e 10\n0 0\n0x9e 2200\n0 0\n9990\n0\n0\n0\n\n\n0x0\n0x0\n0x0\n0x0\n0x0\n0x0\nptt_type=0x1\ndone\n';

/** A rigctld that answers each line as soon as it is written: the opening's reads, RPRT 0 to every set. */
function instantRigctld(): ByteConnection {
  let data: (chunk: Uint8Array) => void = () => {};
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  const answer = (line: string) => (line === '\\chk_vfo\n' ? '0\n' : line === '\\dump_state\n' ? DUMP : 'RPRT 0\n');
  return {
    write: async (bytes) => {
      const reply = enc.encode(answer(dec.decode(bytes)));
      queueMicrotask(() => data(reply));
    },
    close: async () => {},
    onData: (fn) => {
      data = fn;
    },
    onClose: () => {},
  };
}

const TICKS = 200;

export const hamlibRigSuite: Suite = {
  name: 'Hamlib rig driver',
  async run(): Promise<BudgetLine[]> {
    const client = new RigctldClient(instantRigctld(), { clock: systemClock, replyMs: 10_000 });
    await client.hello();
    const rig = new HamlibDriver(client, { clock: systemClock, capabilities: hamlibCapabilities(1020, 'FT-817') });
    let rx = 145_900_000;
    let tx = 435_300_000;
    const ms = await medianMs(`Hamlib tick x${TICKS}`, async () => {
      for (let i = 0; i < TICKS; i++) {
        await rig.writeLeg('rx', (rx += 10));
        await rig.writeLeg('tx', (tx -= 10));
      }
    });
    if (client.stats.sent < TICKS * 2) throw new Error('Hamlib rig bench: the ticks sent no lines');
    await client.close();
    return [{ name: 'Hamlib client tick (F and I, excluding the wire)', value: (ms * 1000) / TICKS, unit: 'µs', budget: 200, note: 'driver, queue, reply timer, codec and reader; rigctld answers at once in-process' }];
  },
};
