import type { SerialDriver } from '../../links/serial-driver.js';
import type { Clock } from '../../util/clock.js';
import { Gs232Driver } from './gs232-driver.js';
import { Easycomm2Driver } from './easycomm2-driver.js';
import { Rot2ProgDriver } from './rot2prog-driver.js';
import { RotctldDriver } from './rotctld-driver.js';
import { openTcpConnection, type TcpConnect } from '../../links/tcp-driver.js';
import { ROTATOR_TIMEOUTS, type RotatorDriver, type RotatorProtocol, type RotatorTimeouts } from './rotator-driver.js';

// Opens the controller the settings name and proves it is there: a position read (or, for
// rotctld, its \dump_state) must answer before the driver is handed out, so "connected" means
// a controller answered, not just that a port opened. On failure the link is closed again.

export interface OpenRotatorOptions {
  protocol: RotatorProtocol;
  serial: SerialDriver;
  serial_device: string;
  baud_rate: number;
  rotctld_host: string;
  rotctld_port: number;
  clock: Clock;
  timeouts?: Partial<RotatorTimeouts>;
  /** How to open rotctld's TCP connection (the ground TCP driver by default). */
  tcp?: TcpConnect;
}

export async function openRotator(o: OpenRotatorOptions): Promise<RotatorDriver> {
  const t: RotatorTimeouts = { ...ROTATOR_TIMEOUTS, ...o.timeouts };
  if (o.protocol === 'rotctld') {
    const conn = await openTcpConnection({ host: o.rotctld_host, port: o.rotctld_port, timeoutMs: t.connect_ms, clock: o.clock, connect: o.tcp });
    const driver = new RotctldDriver(conn, o.clock, t.reply_ms);
    return proven(driver, () => driver.hello());
  }
  const conn = await o.serial.open(o.serial_device, o.baud_rate);
  const driver =
    o.protocol === 'easycomm2'
      ? new Easycomm2Driver(conn, o.clock, t.reply_ms)
      : o.protocol === 'rot2prog'
        ? new Rot2ProgDriver(conn, o.clock, t.reply_ms)
        : new Gs232Driver(o.protocol, conn, o.clock, t.reply_ms);
  return proven(driver, () => driver.position());
}

async function proven(driver: RotatorDriver, probe: () => Promise<unknown>): Promise<RotatorDriver> {
  try {
    await probe();
    return driver;
  } catch (err) {
    await driver.close().catch(() => {});
    throw err;
  }
}
