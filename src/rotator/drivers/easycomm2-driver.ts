import { LineReader } from '../../links/line-reader.js';
import { encodeGoto, encodeQueryAz, encodeQueryEl, encodeStop, parseReply } from '../protocol/easycomm2.js';
import type { Clock } from '../../util/clock.js';
import { Exchange, type Io } from './exchange.js';
import type { ByteConnection } from '../../links/byte-connection.js';
import { bytesOf } from './encoded-bytes.js';
import { RotatorGarbled, type RotatorDriver, type RotatorPosition } from './rotator-driver.js';

// EasyComm II: the position is two queries, AZ then EL, in one transaction so no goto slips
// between them; a controller that answers AZ with both values saves the second.

export class Easycomm2Driver implements RotatorDriver {
  readonly protocol = 'easycomm2' as const;
  private readonly link: Exchange<string>;

  constructor(conn: ByteConnection, clock: Clock, replyMs: number) {
    this.link = new Exchange<string>(conn, (emit) => new LineReader(emit), clock, replyMs);
  }

  position(): Promise<RotatorPosition> {
    return this.link.run(async (io) => {
      const first = await query(io, encodeQueryAz(), 'AZ');
      if (first.az_deg === null) throw new RotatorGarbled('AZ', 'the answer carries no azimuth');
      if (first.el_deg !== null) return { az_deg: first.az_deg, el_deg: first.el_deg };
      const second = await query(io, encodeQueryEl(), 'EL');
      if (second.el_deg === null) throw new RotatorGarbled('EL', 'the answer carries no elevation');
      return { az_deg: first.az_deg, el_deg: second.el_deg };
    });
  }

  // async: a target no byte can carry is a rejection, never a synchronous throw.
  async goto(p: RotatorPosition): Promise<void> {
    const bytes = bytesOf(encodeGoto(p.az_deg, p.el_deg));
    return this.link.run((io) => io.write(bytes));
  }

  stop(): Promise<void> {
    return this.link.run((io) => io.write(encodeStop()), true);
  }

  close(): Promise<void> {
    return this.link.close();
  }

  onClose(fn: (err: Error | null) => void): () => void {
    return this.link.onClose(fn);
  }
}

async function query(io: Io<string>, bytes: Uint8Array, what: string): Promise<{ az_deg: number | null; el_deg: number | null }> {
  await io.write(bytes);
  const r = parseReply(await io.next(what));
  if (r.kind === 'garbled') throw new RotatorGarbled(what, `'${r.text.slice(0, 40)}'`);
  return r;
}
