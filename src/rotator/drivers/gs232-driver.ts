import { LineReader } from '../../links/line-reader.js';
import { encodeGoto, encodeReadPosition, encodeStop, parseReply, type Gs232Variant } from '../protocol/gs232.js';
import type { Clock } from '../../util/clock.js';
import { Exchange } from './exchange.js';
import type { ByteConnection } from '../../links/byte-connection.js';
import { bytesOf } from './encoded-bytes.js';
import { RotatorGarbled, RotatorRejected, type RotatorDriver, type RotatorPosition } from './rotator-driver.js';

// GS-232A / GS-232B: W and S have no reply, so only C2 tells whether a controller is there.

export class Gs232Driver implements RotatorDriver {
  private readonly link: Exchange<string>;

  constructor(
    readonly protocol: Gs232Variant,
    conn: ByteConnection,
    clock: Clock,
    replyMs: number,
  ) {
    this.link = new Exchange<string>(conn, (emit) => new LineReader(emit), clock, replyMs);
  }

  position(): Promise<RotatorPosition> {
    return this.link.run(async (io) => {
      await io.write(encodeReadPosition(this.protocol));
      const line = await io.next('C2');
      const r = parseReply(this.protocol, line);
      if (r.kind === 'rejected') throw new RotatorRejected('C2', 'the controller answered ?> (unknown command)');
      if (r.kind === 'garbled') throw new RotatorGarbled('C2', `'${r.text.slice(0, 40)}'`);
      // An azimuth-only controller (GS-232B on a 12PR1A) reports no elevation: it stays at 0.
      return { az_deg: r.az_deg, el_deg: r.el_deg ?? 0 };
    });
  }

  // async: a target no byte can carry is a rejection, never a synchronous throw.
  async goto(p: RotatorPosition): Promise<void> {
    const bytes = bytesOf(encodeGoto(this.protocol, p.az_deg, p.el_deg));
    return this.link.run((io) => io.write(bytes));
  }

  stop(): Promise<void> {
    return this.link.run((io) => io.write(encodeStop(this.protocol)), true);
  }

  close(): Promise<void> {
    return this.link.close();
  }

  onClose(fn: (err: Error | null) => void): () => void {
    return this.link.onClose(fn);
  }
}
