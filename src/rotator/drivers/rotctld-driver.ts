import { LineReader } from '../../links/line-reader.js';
import {
  DumpStateReader,
  classifyLine,
  encodeDumpState,
  encodeGetPosition,
  encodePark,
  encodeQuit,
  encodeSetPosition,
  encodeStop,
  rprtMessage,
  type RotctldLimits,
} from '../protocol/rotctl-line.js';
import type { Clock } from '../../util/clock.js';
import { Exchange, type Io } from './exchange.js';
import type { ByteConnection } from '../../links/byte-connection.js';
import { bytesOf } from './encoded-bytes.js';
import { RotatorGarbled, RotatorRejected, type RotatorDriver, type RotatorPosition } from './rotator-driver.js';

// A client of Hamlib's rotctld: Hamlib drives the controller, we speak its line protocol.
// hello() reads \dump_state first, which both proves a rotctld is listening (not some other
// service on that port) and tells the limits of the rotator behind it.

export class RotctldDriver implements RotatorDriver {
  readonly protocol = 'rotctld' as const;
  private readonly link: Exchange<string>;
  /** What the daemon reported in hello(), null when it reported no limits. */
  limits: RotctldLimits | null = null;

  constructor(conn: ByteConnection, clock: Clock, replyMs: number) {
    this.link = new Exchange<string>(conn, (emit) => new LineReader(emit, 2048), clock, replyMs);
  }

  hello(): Promise<void> {
    return this.link.run(async (io) => {
      await io.write(encodeDumpState());
      const dump = new DumpStateReader();
      for (let lines = 0; lines < 64; lines++) {
        const line = await io.next('\\dump_state');
        const step = dump.feed(line);
        if (step === 'garbled') throw new RotatorGarbled('\\dump_state', `'${line.slice(0, 40)}' is not a rotctld dump`);
        if (step === 'done') {
          this.limits = dump.limits();
          return;
        }
      }
      throw new RotatorGarbled('\\dump_state', 'no end after 64 lines');
    });
  }

  position(): Promise<RotatorPosition> {
    return this.link.run(async (io) => {
      await io.write(encodeGetPosition());
      const az = await this.number(io, 'p');
      const el = await this.number(io, 'p');
      return { az_deg: az, el_deg: el };
    });
  }

  // async: a target no byte can carry is a rejection, never a synchronous throw.
  async goto(p: RotatorPosition): Promise<void> {
    const bytes = bytesOf(encodeSetPosition(p.az_deg, p.el_deg));
    return this.link.run((io) => this.command(io, bytes, 'P'));
  }

  stop(): Promise<void> {
    return this.link.run((io) => this.command(io, encodeStop(), 'S'), true);
  }

  park(): Promise<void> {
    return this.link.run((io) => this.command(io, encodePark(), 'K'));
  }

  async close(): Promise<void> {
    // A polite goodbye when the daemon is still there; closing matters, the goodbye does not.
    await this.link.run((io) => io.write(encodeQuit())).catch(() => {});
    await this.link.close();
  }

  onClose(fn: (err: Error | null) => void): () => void {
    return this.link.onClose(fn);
  }

  private async command(io: Io<string>, bytes: Uint8Array, what: string): Promise<void> {
    await io.write(bytes);
    const line = await io.next(what);
    const r = classifyLine(line);
    if (r.kind !== 'rprt') throw new RotatorGarbled(what, `'${line.slice(0, 40)}' where RPRT was expected`);
    if (r.code !== 0) throw new RotatorRejected(what, rprtMessage(r.code));
  }

  private async number(io: Io<string>, what: string): Promise<number> {
    const line = await io.next(what);
    const r = classifyLine(line);
    if (r.kind === 'rprt') throw new RotatorRejected(what, rprtMessage(r.code));
    if (r.kind !== 'number') throw new RotatorGarbled(what, `'${line.slice(0, 40)}' is not a number`);
    return r.value;
  }
}
