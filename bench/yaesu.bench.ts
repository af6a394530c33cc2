import type { ByteConnection } from '../src/links/byte-connection.js';
import { nodeSerialDriver } from '../src/links/serial-driver.js';
import { systemClock } from '../src/util/clock.js';
import { defaultRadioSettings, mainLink } from '../src/radio/settings.js';
import { CatPort } from '../src/radio/yaesu/cat-port.js';
import { YaesuDriver } from '../src/radio/yaesu/yaesu-driver.js';
import { openYaesuLine } from '../src/radio/yaesu/yaesu-line.js';
import { openPtyPair } from '../test/sims/pty-pair.js';
import { YaesuCatSim } from '../test/sims/yaesu-cat-rig.js';
import { needCommand, needDir } from './env.js';
import { medianMs, section, type Line, type Suite } from './harness.js';

// The native FT-817 family driver (issue 34's budgets):
//  1. an auto-track tick of the driver without the serial line: both legs written, the transmit
//     one by toggling (F7 BB 01, F7 BB 81 01 81), through the CAT port and codec, the simulator's
//     logic answering each command in-process the moment it is written;
//  2. the FT-817's full pair apply as the controller runs it (writePair, prepareSatellite,
//     setTone) against the simulator over a pty at 9600 baud. A pty moves bytes at once, so the
//     simulator paces its answers as a 9600 baud 8N2 line would (sim.pace: 11 bits a byte, both
//     ways): the figure is wall time with the wire's time in it.

const TICKS = 200;
const BAUD = 9600;

/** The simulator's logic behind a ByteConnection: every write answered at once, in this process. */
function inProcess(sim: YaesuCatSim): ByteConnection {
  let deliver: (chunk: Uint8Array) => void = () => {};
  return {
    async write(bytes) {
      const reply = sim.feed(bytes);
      if (sim.log.length > 256) sim.clearLog(); // its log is for tests; here it would only grow
      if (reply.length) deliver(Uint8Array.from(reply));
    },
    async close() {},
    onData(fn) {
      deliver = fn;
    },
    onClose() {},
  };
}

async function tick(): Promise<Line[]> {
  const sim = new YaesuCatSim({ model: 'FT-817' });
  const port = new CatPort(inProcess(sim), { name: 'FT-817' });
  const rig = new YaesuDriver(port, 'ft817');
  await rig.init();
  await rig.writePair({ rx_hz: 435_800_000, rx_mode: 'FM', tx_hz: 145_850_000, tx_mode: 'FM' });
  let k = 0;
  const sent = port.stats.sent;
  const ms = await medianMs(`Yaesu driver tick x${TICKS}`, async () => {
    for (let i = 0; i < TICKS; i++) {
      k++;
      await rig.writeLeg('rx', 435_800_000 + (k % 50) * 300);
      await rig.writeLeg('tx', 145_850_000 + (k % 2) * 1000); // past TX_RETUNE_HZ every time: the toggles every tick (the worst case)
    }
  });
  const perTick = (port.stats.sent - sent) / k;
  if (port.stats.timeouts || sim.state.current !== 'A' || sim.state.vfoA.freq !== 435_800_000 + (k % 50) * 300) throw new Error('Yaesu bench: the ticks did not land');
  return [{ name: 'Yaesu driver tick, both legs (no serial time)', value: (ms * 1000) / TICKS, unit: 'µs', budget: 200, note: `${perTick} commands a tick through the CAT port and codec, the simulator answering in-process` }];
}

async function pairApply(): Promise<Line[]> {
  needCommand('socat');
  needDir('/dev/shm', 'the pty links live there');
  const pty = await openPtyPair();
  const sim = new YaesuCatSim({ model: 'FT-817' });
  await sim.open(pty.rigPath, BAUD);
  sim.pace = true;
  const link = { ...mainLink({ ...defaultRadioSettings(), rig_model: 'ft817', serial_device: pty.ctlPath, baud_rate: BAUD }), rig_model: 'ft817' as const };
  const line = await openYaesuLine({ serial: nodeSerialDriver, clock: systemClock }, link);
  try {
    await line.rig.init();
    let flip = 0;
    let commands = 0;
    let bytesOut = 0;
    let bytesIn = 0;
    const ms = await medianMs(
      'FT-817 pair apply at 9600 baud',
      async () => {
        const f = flip++ % 2;
        sim.clearLog();
        await line.rig.writePair({ rx_hz: 435_795_000 + f * 1000, rx_mode: f ? 'USB' : 'FM', tx_hz: 145_965_000 - f * 1000, tx_mode: f ? 'LSB' : 'FM' });
        await line.rig.prepareSatellite();
        await line.rig.setTone(f ? 67 : 88.5);
        commands = sim.log.length;
        bytesOut = sim.received.length;
        bytesIn = sim.log.reduce((n, e) => n + (e.reply ? e.reply.split(' ').length : 0), 0);
      },
      { time: 1000, iterations: 8, quickIterations: 3 },
    );
    const wireMs = ((bytesOut + bytesIn) * 11 * 1000) / BAUD;
    return [
      {
        name: 'FT-817 full pair apply + tone, simulator at 9600 baud',
        value: ms,
        unit: 'ms',
        budget: 400,
        note: `${commands} commands, ${bytesOut} bytes out and ${bytesIn} in: ${wireMs.toFixed(0)} ms of it the 8N2 wire, paced by the simulator over a pty`,
      },
    ];
  } finally {
    await line.close();
    await sim.close();
    await pty.close();
  }
}

export const yaesuSuite: Suite = {
  name: 'Yaesu FT-817 family: driver tick, pair apply at 9600 baud',
  async run() {
    const t = await section('Yaesu driver tick (in-process simulator)', tick);
    const p = await section('FT-817 pair apply at 9600 baud (simulator over a socat pty)', pairApply);
    return [...t, ...p];
  },
};
