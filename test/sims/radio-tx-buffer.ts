// The IC-705's transmit audio buffer over the LAN, as the radio behaves: TX audio that arrives
// while PTT is off is not transmitted; while keyed, packets are held in a buffer of the size the
// client asked for in its stream request (txBufferMs) and played out at the sample rate, so a
// sample goes on air about txBufferMs after it arrived. When the buffer runs dry the radio
// buffers again before playing on. PTT off ends the transmission at once: whatever the buffer
// still holds is lost. Time is performance.now() (the emulator's wire runs on real time).

const MAX_ON_AIR_SAMPLES = 48_000 * 120;

interface Queued {
  key: number;
  pcm: Int16Array;
  pos: number;
}

export class RadioTxBuffer {
  private keyed = false;
  private queue: Queued[] = [];
  /** When play-out (re)started, and samples played since then; null while buffering or unkeyed. */
  private startAt: number | null = null;
  private played = 0;
  private rateHz = 8000;
  private onAir: Int16Array[] = [];
  private onAirSamples = 0;
  /** Samples still buffered when PTT went off (never transmitted). */
  lostSamples = 0;
  /** Samples that arrived while PTT was off (the radio ignores them). */
  unkeyedSamples = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** A PTT change the rig made (CI-V 1C 00, or the radio dropping a lost client's PTT). */
  ptt(on: boolean): void {
    if (on === this.keyed) return;
    this.drain();
    if (!on) {
      for (const q of this.queue) this.lostSamples += q.pcm.length - q.pos;
      this.queue = [];
    }
    this.startAt = null;
    this.keyed = on;
  }

  /** One TX audio packet in stream order `key`, at the stream's rate and requested buffer. */
  push(key: number, pcm: Int16Array, rateHz: number, bufferMs: number): void {
    if (!this.keyed) {
      this.unkeyedSamples += pcm.length;
      return;
    }
    this.drain();
    if (this.queue.length === 0) this.startAt = null; // ran dry (or first packet): buffer again
    if (this.startAt === null) {
      this.rateHz = rateHz;
      this.startAt = this.now() + bufferMs;
      this.played = 0;
    }
    // In sequence order among what has not started playing (the head may be half played).
    const floor = this.queue.length > 0 && this.queue[0].pos > 0 ? 1 : 0;
    let i = this.queue.length;
    while (i > floor && this.queue[i - 1].key > key) i--;
    this.queue.splice(i, 0, { key, pcm, pos: 0 });
  }

  /** Everything transmitted so far, in play-out order. */
  transmitted(): Int16Array {
    this.drain();
    const out = new Int16Array(this.onAirSamples);
    let at = 0;
    for (const part of this.onAir) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }

  /** Samples waiting in the buffer now. */
  get buffered(): number {
    this.drain();
    return this.queue.reduce((n, q) => n + q.pcm.length - q.pos, 0);
  }

  clear(): void {
    this.onAir = [];
    this.onAirSamples = 0;
    this.lostSamples = 0;
    this.unkeyedSamples = 0;
  }

  /** Moves what the play-out clock has reached from the buffer to the air. */
  private drain(): void {
    if (this.startAt === null || !this.keyed) return;
    const due = Math.floor(((this.now() - this.startAt) * this.rateHz) / 1000) - this.played;
    let left = due;
    while (left > 0 && this.queue.length > 0) {
      const q = this.queue[0];
      const take = Math.min(left, q.pcm.length - q.pos);
      this.record(q.pcm.subarray(q.pos, q.pos + take));
      q.pos += take;
      left -= take;
      this.played += take;
      if (q.pos >= q.pcm.length) this.queue.shift();
    }
  }

  private record(pcm: Int16Array): void {
    this.onAir.push(pcm.slice());
    this.onAirSamples += pcm.length;
    while (this.onAirSamples > MAX_ON_AIR_SAMPLES && this.onAir.length > 1) this.onAirSamples -= this.onAir.shift()!.length;
  }
}
