import type { SerialDriver } from './serial-driver.js';
import { nodeStreams } from '../util/lazy-builtins.js';
import { nextTurn } from '../util/loop-slices.js';

// The real serial stack (serialport and its native binding) loaded on the first open or listing:
// a station that never opens a serial device never loads it.
//
// In turns of their own after the asking one's, a request waiting answered between them: Node's
// streams, then serialport's Linux binding (its native addon opened), then serialport's stream and
// our driver. In one turn the load was ~240 ms of loop block at a tenth of a core, the longest of
// the Pi-speed run's serving (docs/decisions/latency.md).
let loading: Promise<SerialDriver> | null = null;
const load = (): Promise<SerialDriver> =>
  (loading ??= (async () => {
    await nextTurn();
    nodeStreams();
    await nextTurn();
    await import('@serialport/bindings-cpp/dist/linux.js');
    await nextTurn();
    return (await import('./serial-driver.js')).nodeSerialDriver;
  })().catch((err: unknown) => {
    loading = null; // a failed load is tried again at the next open
    throw err;
  }));

export const lazySerialDriver: SerialDriver = {
  open: async (path, baudRate, line) => (await load()).open(path, baudRate, line),
  list: async () => (await load()).list(),
};
