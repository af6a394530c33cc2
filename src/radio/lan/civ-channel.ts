// The CI-V stream's meaning: CI-V bytes in 0x15-header packets both ways, opened with an 0x16
// open packet (CIV_OPEN, resent every civ_open_retry_ms until data comes, as wfview does) and
// closed with CIV_CLOSE.
// Offered to the radio area as a SerialConnection, so CivBus runs on Wi-Fi as on a cable.
// The stream itself (handshake, seqs, retransmits) is a LanStream the session owns and attaches.
import type { Clock, Timer } from '../../util/clock.js';
import type { Logger } from '../../util/logger.js';
import { Listeners } from '../../util/listeners.js';
import type { SerialConnection } from '../../links/serial-driver.js';
import { every, type LanStream } from './lan-stream.js';
import { CIV_CLOSE, CIV_OPEN, SIZE, civPacketLength, encodeOpenClose, writeCivPacket, type LanPacket } from './packets.js';
import { LAN_LIMITS, type LanTimings } from './timings.js';
import type { LanSessionState } from './session-types.js';

export interface CivChannelOptions {
  /** The pipe's name, lan://host:port. */
  path: string;
  clock: Clock;
  timings: LanTimings;
  log: Logger;
  /** The session's state: bytes flow only while it is open. */
  state: () => LanSessionState;
  /** The pipe's close(): closes the whole session. */
  close: () => Promise<void>;
}

export class CivChannel {
  readonly pipe: SerialConnection;
  private stream: LanStream | null = null;
  private seq = 0; // the CI-V stream's inner send seq (CI-V data and open/close share it)
  private dataSeen = false;
  private openRetry: Timer | null = null;
  private readonly dataFns: Listeners<Uint8Array>;
  private readonly closeFns: Listeners<Error | null>;

  constructor(private readonly o: CivChannelOptions) {
    this.dataFns = new Listeners<Uint8Array>(o.log, 'CI-V data');
    this.closeFns = new Listeners<Error | null>(o.log, 'CI-V close');
    this.pipe = {
      path: o.path,
      write: (bytes) => this.write(bytes),
      close: () => o.close(),
      onData: (fn) => {
        this.dataFns.add(fn);
      },
      onClose: (fn) => {
        this.closeFns.add(fn);
      },
    };
  }

  attach(stream: LanStream): void {
    this.stream = stream;
    stream.onPacket = (p) => this.onPacket(p);
  }

  /** Opens the CI-V pipe: resent until the radio sends CI-V data, as wfview does, civ_open_attempts at most. */
  open(): void {
    this.sendOpenClose(CIV_OPEN);
    let attempts = 1;
    const retry = every(this.o.clock, this.o.timings.civ_open_retry_ms, () => {
      if (this.dataSeen || attempts >= this.o.timings.civ_open_attempts || this.o.state() !== 'open') return retry.cancel();
      attempts++;
      this.sendOpenClose(CIV_OPEN);
    });
    this.openRetry = retry;
  }

  /** The clean goodbye's first step, while the stream still runs. */
  sayClose(): void {
    if (this.stream?.isRunning) this.sendOpenClose(CIV_CLOSE);
  }

  stopTimers(): void {
    this.openRetry?.cancel();
    this.openRetry = null;
  }

  /** Tells the pipe's users it closed (null: on purpose); once. */
  closed(err: Error | null): void {
    this.closeFns.emitOnce(err);
  }

  private onPacket(p: LanPacket): void {
    if (p.kind !== 'civ' || this.o.state() !== 'open') return;
    this.dataSeen = true;
    this.dataFns.emit(p.data);
  }

  private sendOpenClose(magic: number): void {
    const s = this.stream;
    if (!s) return;
    const seq = this.nextSeq();
    s.sendTracked(SIZE.OPENCLOSE, (b) => b.set(encodeOpenClose(s.wireIds, seq, magic)));
  }

  private nextSeq(): number {
    const v = this.seq;
    this.seq = (this.seq + 1) & 0xffff;
    return v;
  }

  /** Resolves once every packet of bytes went out; a write longer than one packet takes several. */
  private write(bytes: Uint8Array): Promise<void> {
    const s = this.stream;
    const st = this.o.state();
    if (st !== 'open' || !s || !s.isRunning) return Promise.reject(new Error(`${this.o.path} is ${st === 'open' ? 'not ready' : st === 'new' ? 'not open' : st}`));
    if (bytes.length === 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      let pending = 0;
      let failed = false;
      const done = (err: Error | null) => {
        if (failed) return;
        if (err) {
          failed = true;
          reject(err);
        } else if (--pending === 0) resolve();
      };
      for (let from = 0; from < bytes.length; from += LAN_LIMITS.max_payload) {
        const to = Math.min(bytes.length, from + LAN_LIMITS.max_payload);
        const seq = this.nextSeq();
        pending++;
        s.sendTracked(civPacketLength(to - from), (b) => writeCivPacket(b, s.wireIds, seq, bytes, from, to), done);
      }
    });
  }
}
