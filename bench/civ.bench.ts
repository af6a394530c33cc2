import { cmd, matchReply, type CivRequest } from '../src/radio/civ/commands.js';
import { CIV, encodeFrame, writeFrame, type CivFrame } from '../src/radio/civ/frame.js';
import { CivParser } from '../src/radio/civ/parser.js';
import { medianMs, type BudgetLine, type Suite } from './harness.js';

// One tracking step writes a frequency pair: split off, A freq, A mode, B freq, B mode, split on.
// Per pair we build the six requests, encode each into one reused buffer, and parse what comes
// back on a USB link with CI-V echo on: our own frame, then the rig's OK, matched to the request.

const RIG = 0xa4;
const PAIRS = 1000;

export const civSuite: Suite = {
  name: 'CI-V codec',
  async run(): Promise<BudgetLine[]> {
    const out = new Uint8Array(64);
    const ok = encodeFrame(CIV.CONTROLLER, RIG, CIV.OK);
    let current: CivRequest | null = null;
    let matched = 0;
    const parser = new CivParser((f: CivFrame) => {
      if (current && matchReply(current, f, RIG) === 'ok') matched++;
    });
    let rx = 145_800_000;
    let tx = 435_795_000;
    const pair = () => {
      rx += 10;
      tx -= 10;
      const reqs = [cmd.setSplit(false), cmd.setVfoFreq(0, rx), cmd.setVfoMode(0, 'FM'), cmd.setVfoFreq(1, tx), cmd.setVfoMode(1, 'FM'), cmd.setSplit(true)];
      for (const r of reqs) {
        current = r;
        const end = writeFrame(out, 0, RIG, CIV.CONTROLLER, r.cmd, r.data);
        parser.push(out.subarray(0, end)); // the echo
        parser.push(ok);
      }
    };
    const ms = await medianMs(`CI-V pair frames x${PAIRS}`, () => {
      for (let i = 0; i < PAIRS; i++) pair();
    });
    if (matched === 0 || parser.stats.discardedBytes !== 0) throw new Error('CI-V bench: replies were not matched');
    return [{ name: 'CI-V pair frames encode+decode', value: (ms * 1000) / PAIRS, unit: 'µs', budget: 20, note: '6 requests built and encoded, 6 echoes + 6 OKs parsed and matched' }];
  },
};
