// The audio stream's meaning: 16-bit LE mono PCM in 0x18-header packets both ways. Receive goes
// to onAudio listeners; transmit is paced in real time by PacedAudioTx, which sends through
// here. The stream itself is a LanStream the session owns and attaches (only when audio was
// asked for: the spare audio socket bound without audio never handshakes, so it delivers nothing).
import type { Logger } from '../../util/logger.js';
import { Listeners } from '../../util/listeners.js';
import { PacedAudioTx, type Pacer } from './audio-tx.js';
import type { LanStream } from './lan-stream.js';
import { audioPacketLength, pcmFromBytes, writeAudioPacket, type LanPacket } from './packets.js';
import type { LanTimings } from './timings.js';
import type { LanSessionState } from './session-types.js';

export interface AudioChannelOptions {
  /** null: the session was opened without audio. */
  audio: { sampleRate: number } | null;
  timings: LanTimings;
  pacer?: Pacer;
  log: Logger;
  /** The session's state: audio flows only while it is open. */
  state: () => LanSessionState;
}

export class AudioChannel {
  readonly tx: PacedAudioTx;
  private stream: LanStream | null = null;
  private seq = 0;
  private readonly rxFns: Listeners<Int16Array>;

  constructor(private readonly o: AudioChannelOptions) {
    const t = o.timings;
    const rate = o.audio?.sampleRate ?? 0;
    this.tx = new PacedAudioTx({ sampleRate: rate || 8000, packetMs: t.audio_packet_ms, leadMs: t.audio_lead_ms, holdMs: t.tx_buffer_ms + t.tx_tail_ms, pacer: o.pacer }, o.audio ? 'the session is not open' : 'the session was opened without audio');
    this.rxFns = new Listeners<Int16Array>(o.log, 'audio');
  }

  attach(stream: LanStream): void {
    this.stream = stream;
    stream.onPacket = (p) => this.onPacket(p);
  }

  /** Receive audio, one packet at a time; pcm may be a view of the datagram. Returns the unsubscribe. */
  onAudio(fn: (pcm: Int16Array) => void): () => void {
    return this.rxFns.add(fn);
  }

  /** Once the session is open: TX audio goes out, or play() answers why it cannot. */
  startTx(txOk: boolean, radioName: string): void {
    if (txOk) this.tx.attach({ send: (pcm, from, to) => this.send(pcm, from, to) });
    else this.tx.detach(`${radioName} offers no TX audio`);
  }

  private onPacket(p: LanPacket): void {
    if (p.kind !== 'audio' || this.o.state() !== 'open' || this.rxFns.size === 0) return;
    this.rxFns.emit(pcmFromBytes(p.data));
  }

  private send(pcm: Int16Array, from: number, to: number): boolean {
    const s = this.stream;
    if (!s || this.o.state() !== 'open' || !s.isRunning) return false;
    const seq = this.seq;
    this.seq = (this.seq + 1) & 0xffff;
    return s.sendTracked(audioPacketLength(to - from), (b) => writeAudioPacket(b, s.wireIds, seq, pcm, from, to));
  }
}
