import { medianMs, settleHeap, type BudgetLine, type Suite } from './harness.js';
import { describeRuntime, runChild } from './child-bundle.js';

// APRS codec budgets: decode of one packet per format (js-aprs-fap behind our wrapper) and encode
// of what we transmit. The memory figure comes from a fresh child (the bench's `codec` child, run
// as the unit runs the server, child-bundle.ts): heap/RSS before the decoder module is loaded, then
// after loading it and decoding 10k packets, so the figure is what the decoder adds to the server.
// The codec is imported lazily everywhere so the child's baseline does not already include it.

const PER_SAMPLE = 1000;
const MiB = 1024 ** 2;

const PACKETS = {
  uncompressed: { source: 'N0CALL-9', destination: 'APRS', path: ['WIDE1-1', 'WIDE2-1'], info: '!4903.50N/07201.75W-Test 001234' },
  compressed: { source: 'N0CALL', destination: 'APRS', path: ['WIDE1-1'], info: '=/5L!!<*e7>7P[Compressed' },
  micE: { source: 'N0CALL', destination: 'T2SP0W', path: ['WIDE1-1'], info: '`c_Vm6hk/`"49}_%' },
  message: { source: 'N0CALL', destination: 'APRS', path: ['WIDE1-1'], info: ':WU2Z     :Testing{003' },
};

async function child(): Promise<void> {
  // A running server has long since grown V8's pages; without this warm-up any first 10k
  // operations (even JSON round trips) add ~5 MiB RSS, which is not the decoder's.
  let sink = 0;
  for (let i = 0; i < 20_000; i++) sink += JSON.parse(JSON.stringify({ i, s: `N0CALL-${i}>APRS:!${i}` })).s.replace(/\d+/g, '#').length;
  await settleHeap();
  const before = process.memoryUsage();
  const { decodeAprs } = await import('../src/aprs/codec/aprs-decode.js');
  const all = Object.values(PACKETS);
  let positions = 0;
  for (let i = 0; i < 10_000; i++) if (decodeAprs(all[i % all.length]).kind === 'position') positions++;
  await settleHeap();
  const after = process.memoryUsage();
  process.stdout.write(JSON.stringify({ sink, positions, heap: after.heapUsed - before.heapUsed, rss: after.rss - before.rss, rssBefore: before.rss }) + '\n');
}

export const aprsSuite: Suite = {
  name: 'APRS codec',
  children: { codec: child },
  async run(): Promise<BudgetLine[]> {
    const { decodeAprs } = await import('../src/aprs/codec/aprs-decode.js');
    const { encodeMessage, encodePosition } = await import('../src/aprs/codec/aprs-encode.js');
    const lines: BudgetLine[] = [];
    const decodeLine = async (label: string, p: (typeof PACKETS)[keyof typeof PACKETS], kind: string, budget: number, note: string) => {
      if (decodeAprs(p).kind !== kind) throw new Error(`APRS bench: ${label} did not decode as ${kind}`);
      const ms = await medianMs(`APRS decode ${label} x${PER_SAMPLE}`, () => {
        for (let i = 0; i < PER_SAMPLE; i++) decodeAprs(p);
      });
      lines.push({ name: `decode ${label}`, value: (ms * 1000) / PER_SAMPLE, unit: 'µs', budget, note });
    };
    await decodeLine('uncompressed position', PACKETS.uncompressed, 'position', 50, PACKETS.uncompressed.info);
    await decodeLine('compressed position', PACKETS.compressed, 'position', 50, PACKETS.compressed.info);
    await decodeLine('Mic-E position', PACKETS.micE, 'position', 50, `${PACKETS.micE.destination}:${PACKETS.micE.info}`);
    await decodeLine('message', PACKETS.message, 'message', 50, PACKETS.message.info);

    const position = { lat: 49.0583, lon: -72.0292, symbolTable: '/', symbolCode: '-', comment: 'satstation', messaging: true };
    if (!encodePosition(position).ok) throw new Error('APRS bench: position did not encode');
    const posMs = await medianMs(`APRS encode position x${PER_SAMPLE}`, () => {
      for (let i = 0; i < PER_SAMPLE; i++) encodePosition(position);
    });
    lines.push({ name: 'encode position', value: (posMs * 1000) / PER_SAMPLE, unit: 'µs', budget: 20 });
    const msg = { addressee: 'N0CALL-7', text: 'Meet on the next ISS pass', msgId: '42' };
    if (!encodeMessage(msg).ok) throw new Error('APRS bench: message did not encode');
    const msgMs = await medianMs(`APRS encode message x${PER_SAMPLE}`, () => {
      for (let i = 0; i < PER_SAMPLE; i++) encodeMessage(msg);
    });
    lines.push({ name: 'encode message', value: (msgMs * 1000) / PER_SAMPLE, unit: 'µs', budget: 20 });

    const m = await runChild<{ positions: number; heap: number; rss: number; rssBefore: number }>('aprs', 'codec');
    if (m.positions === 0) throw new Error('APRS bench: the child decoded no positions');
    const note = `load js-aprs-fap + decode 10k packets, after a V8 warm-up and GC; RSS before ${(m.rssBefore / MiB).toFixed(1)} MiB; ${describeRuntime()}, bundled`;
    lines.push({ name: 'decoder load + 10k decodes: heap added', value: m.heap / MiB, unit: 'MiB', budget: 2, note });
    lines.push({ name: 'decoder load + 10k decodes: RSS added', value: m.rss / MiB, unit: 'MiB', budget: 8, note });
    return lines;
  },
};
