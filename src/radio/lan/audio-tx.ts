// TX audio to the radio, paced in real time: packets of ~20 ms of samples, sent a small lead
// ahead of the play-out clock so an event-loop stall (a GC pause, a busy tick on the Pi) does
// not starve the radio's buffer, and never further ahead than that so abort() stops the radio
// within the lead. Real time comes through a small injectable pacer (the monotonic clock and
// setTimeout by default): protocol timers use the session's clock, but a pace is physical.
//
// The radio does not play a packet when it arrives: it holds the TX buffer the stream request
// asked for (txBufferMs) and plays from there, and PTT off discards what it still holds. So
// play() resolves only once the last sample has left that buffer (its play-out time plus the
// buffer plus a tail for the network); releasing PTT earlier cut the end of every frame (the
// FCS and closing flags), and no receiver could decode it.
import { monotonicMs } from '../../util/monotonic.js';

export type AudioTxResult = { kind: 'done' } | { kind: 'aborted' } | { kind: 'lost'; reason: string };

export interface LanAudioTx {
  /** Streams pcm to the radio paced in real time (packets of ~20 ms, kept a small lead ahead of real time so event-loop stalls do not underrun the radio); resolves when the radio has played the last sample out of its TX buffer: PTT may go off then. */
  play(pcm: Int16Array): Promise<AudioTxResult>;
  /** Stops at once (emergency stop). */
  abort(): void;
  readonly active: boolean;
}

export interface Pacer {
  /** Milliseconds, monotonic. */
  now(): number;
  setTimeout(fn: () => void, ms: number): { cancel(): void };
}

export const realTimePacer: Pacer = {
  now: () => monotonicMs(),
  setTimeout(fn, ms) {
    const h = setTimeout(fn, Math.max(0, ms));
    return { cancel: () => clearTimeout(h) };
  },
};

/** Where packets go: the session's audio stream. */
export interface AudioSink {
  /** Sends samples [from, to) as one packet; false when the stream is gone. */
  send(pcm: Int16Array, from: number, to: number): boolean;
}

export interface PacedAudioTxOptions {
  sampleRate: number;
  packetMs: number;
  leadMs: number;
  /**
   * After the last sample's own play-out time, how long the radio still transmits audio: the TX
   * buffer asked for in the stream request plus a tail for network delay. play() resolves then.
   */
  holdMs: number;
  pacer?: Pacer;
}

export class PacedAudioTx implements LanAudioTx {
  private sink: AudioSink | null = null;
  private unavailable: string | null;
  private current: {
    pcm: Int16Array;
    sent: number;
    start: number;
    timer: { cancel(): void } | null;
    resolve: (r: AudioTxResult) => void;
  } | null = null;
  private readonly pacer: Pacer;
  private readonly perPacket: number;
  /** Packets sent, for tests and stats. */
  packets = 0;

  constructor(
    private readonly o: PacedAudioTxOptions,
    /** Why play() cannot work yet (no session open); null once attach() was called. */
    unavailable = 'the session is not open',
  ) {
    this.pacer = o.pacer ?? realTimePacer;
    this.perPacket = Math.max(1, Math.round((o.sampleRate * o.packetMs) / 1000));
    this.unavailable = unavailable;
  }

  get active(): boolean {
    return this.current !== null;
  }

  /** The session opened its audio stream. */
  attach(sink: AudioSink): void {
    this.sink = sink;
    this.unavailable = null;
  }

  /** The session went away (lost, closed): a running play() ends with this, later ones too. */
  detach(reason: string, kind: 'lost' | 'aborted' = 'lost'): void {
    this.sink = null;
    this.unavailable = reason;
    this.finish(kind === 'lost' ? { kind: 'lost', reason } : { kind: 'aborted' });
  }

  play(pcm: Int16Array): Promise<AudioTxResult> {
    if (this.unavailable !== null || !this.sink) return Promise.resolve({ kind: 'lost', reason: this.unavailable ?? 'no audio stream' });
    this.abort(); // one transmission at a time: a new one replaces the old
    return new Promise<AudioTxResult>((resolve) => {
      this.current = { pcm, sent: 0, start: this.pacer.now(), timer: null, resolve };
      this.tick();
    });
  }

  abort(): void {
    this.finish({ kind: 'aborted' });
  }

  private finish(r: AudioTxResult): void {
    const c = this.current;
    if (!c) return;
    this.current = null;
    c.timer?.cancel();
    c.resolve(r);
  }

  private tick(): void {
    const c = this.current;
    if (!c) return;
    const rate = this.o.sampleRate;
    const total = c.pcm.length;
    const elapsed = this.pacer.now() - c.start;
    // Everything whose play-out time falls before now + lead goes out now.
    const target = Math.min(total, Math.ceil(((elapsed + this.o.leadMs) * rate) / 1000));
    while (c.sent < target) {
      const to = Math.min(total, c.sent + this.perPacket);
      if (!this.sink || !this.sink.send(c.pcm, c.sent, to)) {
        this.finish({ kind: 'lost', reason: this.unavailable ?? 'the audio stream closed' });
        return;
      }
      this.packets++;
      c.sent = to;
    }
    const durationMs = (total * 1000) / rate;
    if (c.sent >= total) {
      const playedOut = c.start + durationMs + this.o.holdMs;
      c.timer = this.pacer.setTimeout(() => this.finish({ kind: 'done' }), Math.max(0, playedOut - this.pacer.now()));
      return;
    }
    // Wake when the next packet comes within the lead.
    const nextDue = c.start + (c.sent * 1000) / rate - this.o.leadMs;
    c.timer = this.pacer.setTimeout(() => this.tick(), Math.max(1, nextDue - this.pacer.now()));
  }
}
