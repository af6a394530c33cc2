import type { SerialDriver } from './serial-driver.js';

// The real serial stack (serialport and its native binding) loaded on the first open or listing:
// a station that never opens a serial device never loads it.

const load = () => import('./serial-driver.js').then((m) => m.nodeSerialDriver);

export const lazySerialDriver: SerialDriver = {
  open: async (path, baudRate, line) => (await load()).open(path, baudRate, line),
  list: async () => (await load()).list(),
};
