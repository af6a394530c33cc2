import { encodeAx25, type Ax25Frame } from '../src/aprs/codec/ax25.js';
import { parseTnc2 } from '../src/aprs/codec/tnc2.js';
import { AfskModulator, RADIO_STREAM_RATE } from '../src/aprs/modem/afsk.js';
import { hdlcMaxBits, writeHdlcTones } from '../src/aprs/modem/hdlc.js';
import { medianMs, type BudgetLine, type Suite } from './harness.js';

// The transmit modem (no TNC in the IC-705's LAN path): one 100-byte AX.25 frame (2 digipeaters,
// 70 info bytes) to PCM with the default TXDELAY (300 ms = 45 flags) and tail (30 ms = 5 flags),
// through one reused modulator as the service holds it. The audio must be ready well before the
// radio has keyed up, so the budget is 2 ms per transmission; framing alone is the HDLC part of it.

const PER_SAMPLE = 100;

function frame100(): Uint8Array {
  // 4 addresses × 7 + control + PID = 30 bytes of header, 70 of info.
  const r = parseTnc2(`N0CALL-7>APZ001,WIDE1-1,WIDE2-1:${'!4903.50N/07201.75W-satstation AFSK bench '.padEnd(70, '.')}`);
  if (!r.ok) throw new Error(`AFSK bench: ${r.error}`);
  const f: Ax25Frame = r.frame;
  const bytes = encodeAx25(f);
  if (bytes.length !== 100) throw new Error(`AFSK bench: frame is ${bytes.length} bytes, not 100`);
  return bytes;
}

export const afskSuite: Suite = {
  name: 'AFSK modem',
  async run(): Promise<BudgetLine[]> {
    const frames = [frame100()];
    const lines: BudgetLine[] = [];
    for (const rate of [RADIO_STREAM_RATE, 48000]) {
      const mod = new AfskModulator({ sampleRate: rate });
      const samples = mod.modulate(frames).length;
      if (samples !== mod.samplesFor(frames)) throw new Error('AFSK bench: sample count mismatch');
      let sink = 0;
      const ms = await medianMs(`AFSK 100-byte frame at ${rate} Hz x${PER_SAMPLE}`, () => {
        for (let i = 0; i < PER_SAMPLE; i++) sink += mod.modulate(frames)[i];
      });
      if (Number.isNaN(sink)) throw new Error('AFSK bench: no samples');
      lines.push({
        name: `AFSK audio, 100-byte frame, ${rate} Hz`,
        value: ms / PER_SAMPLE,
        unit: 'ms',
        budget: 2,
        note: `${samples} samples = ${mod.durationMs(frames).toFixed(1)} ms of audio (TXDELAY ${mod.layout.leadFlags} flags, tail ${mod.layout.tailFlags}); reused buffers`,
      });
    }
    const layout = new AfskModulator().layout;
    const tones = new Uint8Array(hdlcMaxBits(frames, layout));
    let bits = 0;
    const hdlcMs = await medianMs(`HDLC framing 100-byte frame x${PER_SAMPLE * 10}`, () => {
      for (let i = 0; i < PER_SAMPLE * 10; i++) bits = writeHdlcTones(tones, frames, layout);
    });
    lines.push({
      name: 'HDLC framing, 100-byte frame',
      value: (hdlcMs * 1000) / (PER_SAMPLE * 10),
      unit: 'µs',
      budget: 50,
      note: `FCS, stuffing, NRZI, 45 + 5 flags: ${bits} bits`,
    });
    return lines;
  },
};
