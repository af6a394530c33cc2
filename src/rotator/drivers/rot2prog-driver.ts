import { Rot2ProgParser, encodeSet, encodeStatus, encodeStop, type Resolution, type Rot2ProgStatus } from '../protocol/rot2prog.js';
import type { Clock } from '../../util/clock.js';
import { Exchange, type Io } from './exchange.js';
import type { ByteConnection } from '../../links/byte-connection.js';
import { bytesOf } from './encoded-bytes.js';
import type { RotatorDriver, RotatorPosition } from './rotator-driver.js';

// SPID Rot2Prog: a set needs the controller's resolution (pulses per degree), which only a
// status reply tells; the first goto asks for it, and every status keeps it current (the
// operator may change it on the controller's front panel).

export class Rot2ProgDriver implements RotatorDriver {
  readonly protocol = 'rot2prog' as const;
  private readonly link: Exchange<Rot2ProgStatus>;
  private resolution: Resolution | null = null;

  constructor(conn: ByteConnection, clock: Clock, replyMs: number) {
    this.link = new Exchange<Rot2ProgStatus>(conn, (emit) => new Rot2ProgParser(emit), clock, replyMs);
  }

  position(): Promise<RotatorPosition> {
    return this.link.run(async (io) => {
      const s = await this.status(io);
      return { az_deg: s.az_deg, el_deg: s.el_deg };
    });
  }

  goto(p: RotatorPosition): Promise<void> {
    return this.link.run(async (io) => {
      const res = this.resolution ?? (await this.status(io)).resolution;
      await io.write(bytesOf(encodeSet(p.az_deg, p.el_deg, res)));
    });
  }

  stop(): Promise<void> {
    return this.link.run(async (io) => {
      await io.write(encodeStop());
      await io.next('stop'); // the controller answers with where it stopped
    }, true);
  }

  close(): Promise<void> {
    return this.link.close();
  }

  onClose(fn: (err: Error | null) => void): () => void {
    return this.link.onClose(fn);
  }

  private async status(io: Io<Rot2ProgStatus>): Promise<Rot2ProgStatus> {
    await io.write(encodeStatus());
    const s = await io.next('status');
    this.resolution = s.resolution;
    return s;
  }
}
