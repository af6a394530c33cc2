import { ArrayJson, jsonArrayOfEach } from '../util/json-bytes.js';
import { drainSliced } from '../util/loop-slices.js';
import { runWorkerJob, type JobOutcome, type WorkerScript } from '../util/worker-job.js';
import { ObserverFrame, TimeFrame } from './frames.js';
import { LiveSampler } from './live-sampler.js';
import { decodeOrbits, encodeOrbitsSteps, plainObserver, type OrbitJobInput } from './orbits-transfer.js';
import type { Propagator } from './propagator.js';
import type { Observer } from './types.js';

// /live over a whole catalogue beyond the satrec cap (the 16k active one) as a worker job
// (src/util/worker-job.ts): 16k samples and their 3 MiB of JSON are made on a worker thread, and
// the loop gets the bytes of the items array in a transferred buffer. Made here, even in slices,
// the samples and a satrec per satellite were promoted into the old generation and the
// collector's pauses over them blocked the loop for 20–40 ms at full speed.

const JOB = 'live-all';
/** The propagator's satrecs (up to its cap) and the items' JSON, a sample at a time: ~15 MiB of heap for 16k. */
const LIMITS = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 4 };

export interface LiveAllInput extends OrbitJobInput {
  second_ms: number;
}

export interface LiveAllAnswer {
  buffer: ArrayBuffer;
  offset: number;
  length: number;
  count: number;
}

/** Every satellite of `prop` at second_ms on a worker thread; never throws. */
export async function liveAllOffThread(prop: Propagator, obs: Observer, second_ms: number, signal: AbortSignal, script?: WorkerScript): Promise<JobOutcome<ArrayJson>> {
  const orbits = await drainSliced(encodeOrbitsSteps(prop, true));
  if (!orbits) return { kind: 'failed', message: 'a satellite has a satrec but no elements' };
  const input: LiveAllInput = { orbits, obs: plainObserver(obs), second_ms };
  const r = await runWorkerJob<LiveAllAnswer>(JOB, input, { signal, limits: LIMITS, transfer: [orbits.fields.buffer as ArrayBuffer], script });
  return r.kind === 'done' ? { kind: 'done', value: ArrayJson.roomy(r.value.buffer, r.value.offset, r.value.length, r.value.count) } : r;
}

/** The worker side (src/worker.ts). */
export function liveAllJob(j: LiveAllInput): { value: LiveAllAnswer; transfer: ArrayBuffer[] } {
  const prop = decodeOrbits(j.orbits);
  const sampler = new LiveSampler(prop);
  const frame = new ObserverFrame(j.obs);
  const tf = new TimeFrame();
  tf.set(j.second_ms, true);
  // Each sample is written as it is made: 16k of them never exist at once. The room around them
  // takes the route's head and brace on the loop without a copy (ArrayJson).
  const { json, count } = jsonArrayOfEach(prop.size, (i) => sampler.sample(i, frame, tf), true);
  const own = json.buffer as ArrayBuffer;
  return { value: { buffer: own, offset: json.byteOffset, length: json.length, count }, transfer: [own] };
}
