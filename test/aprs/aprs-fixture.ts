import net from 'node:net';
import { resolve } from 'node:path';
import { startServer, type TestServer } from '../helpers/server.js';
import { FixedClock, type Clock } from '../../src/util/clock.js';

// The real server with its APRS transport pointed at a fake KISS TNC on 127.0.0.1 (an
// "external TNC" in the settings). The fake frames and unframes KISS with its own few lines and
// builds AX.25 by hand, so nothing here shares code with src/aprs.

const FEND = 0xc0, FESC = 0xdb, TFEND = 0xdc, TFESC = 0xdd;

/** Hand-built AX.25 UI frame: "SRC>DST,DIGI*,...:info" (a star marks a repeated digi). */
export function ax25(tnc2: string): Uint8Array {
  const colon = tnc2.indexOf(':');
  const [src, rest] = [tnc2.slice(0, tnc2.indexOf('>')), tnc2.slice(tnc2.indexOf('>') + 1, colon)];
  const [dst, ...digis] = rest.split(',');
  const addrs = [dst, src, ...digis];
  const out: number[] = [];
  addrs.forEach((a, i) => {
    const h = a.endsWith('*');
    const [call, ssid] = a.replace('*', '').split('-');
    for (let k = 0; k < 6; k++) out.push((call.charCodeAt(k) || 0x20) << 1);
    out.push(0x60 | (Number(ssid ?? 0) << 1) | (h || i === 0 ? 0x80 : 0) | (i === addrs.length - 1 ? 1 : 0));
  });
  out.push(0x03, 0xf0, ...Buffer.from(tnc2.slice(colon + 1), 'latin1'));
  return Uint8Array.from(out);
}

/** The TNC2 text of a frame, read independently (stars on every repeated digi). */
export function tnc2Of(f: Uint8Array): string {
  const addr = (i: number) => {
    const call = String.fromCharCode(...[...f.subarray(i * 7, i * 7 + 6)].map((b) => b >> 1)).trim();
    const ssid = (f[i * 7 + 6] >> 1) & 0x0f;
    return { s: ssid ? `${call}-${ssid}` : call, h: (f[i * 7 + 6] & 0x80) !== 0, last: (f[i * 7 + 6] & 1) === 1 };
  };
  const list = [];
  for (let i = 0; ; i++) {
    const a = addr(i);
    list.push(a);
    if (a.last) break;
  }
  const n = list.length * 7;
  const digis = list.slice(2).map((a) => a.s + (a.h ? '*' : ''));
  return `${list[1].s}>${[list[0].s, ...digis].join(',')}:${Buffer.from(f.subarray(n + 2)).toString('latin1')}`;
}

export class FakeKissTnc {
  private server = net.createServer((s) => this.accept(s));
  private clients: net.Socket[] = [];
  readonly frames: Uint8Array[] = [];
  port = 0;

  async listen(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  private accept(s: net.Socket): void {
    this.clients.push(s);
    let buf: number[] = [];
    let esc = false;
    s.on('data', (chunk) => {
      for (const b of chunk) {
        if (b === FEND) {
          if (buf.length > 1 && buf[0] === 0x00) this.frames.push(Uint8Array.from(buf.slice(1)));
          buf = [];
        } else if (b === FESC) esc = true;
        else {
          buf.push(esc ? (b === TFEND ? FEND : b === TFESC ? FESC : b) : b);
          esc = false;
        }
      }
    });
    s.on('close', () => (this.clients = this.clients.filter((c) => c !== s)));
    s.on('error', () => {});
  }

  get connections(): number {
    return this.clients.length;
  }

  /** Delivers a received packet to the station, split in two writes to prove reassembly. */
  push(frame: Uint8Array): void {
    const out = [FEND, 0x00];
    for (const b of frame) out.push(...(b === FEND ? [FESC, TFEND] : b === FESC ? [FESC, TFESC] : [b]));
    out.push(FEND);
    const bytes = Buffer.from(out);
    const cut = Math.floor(bytes.length / 2);
    for (const c of this.clients) {
      c.write(bytes.subarray(0, cut));
      c.write(bytes.subarray(cut));
    }
  }

  dropClients(): void {
    for (const c of this.clients) c.destroy();
  }

  async close(): Promise<void> {
    this.dropClients();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

export async function until(pred: () => boolean | Promise<boolean>, what: string, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 15));
  }
}

export interface AprsFixture {
  s: TestServer;
  tnc: FakeKissTnc;
  clock: FixedClock;
  stop(): Promise<void>;
}

/** Server + fake KISS TNC; APRS settings point at it; `connect` (default true) connects. */
export async function aprsFixture(o: { now?: string; settings?: Record<string, unknown>; connect?: boolean; eventsPacing?: Clock } = {}): Promise<AprsFixture> {
  const tnc = new FakeKissTnc();
  await tnc.listen();
  const clock = new FixedClock(Date.parse(o.now ?? '2026-11-23T12:00:00Z'));
  const uiDir = process.env.UI_DIR ? resolve(process.env.UI_DIR) : null;
  // eventsPacing: page tests pace the live socket on real time (startUiServer says why).
  const s = await startServer({ clock, config: { uiDir }, app: { eventsPacing: o.eventsPacing } });
  const set = await s.post('/api/v1/settings/aprs', { callsign: 'G4ABC', ssid: 7, listen_only: false, kiss_host: '127.0.0.1', kiss_port: tnc.port, ...o.settings });
  if (set.status !== 200) throw new Error(`APRS settings refused: ${JSON.stringify(set.body)}`);
  if (o.connect !== false) {
    const c = await s.post('/api/v1/aprs/connect');
    if (c.status !== 200) throw new Error(`APRS connect failed: ${JSON.stringify(c.body)}`);
    await until(() => tnc.connections === 1, 'the station to connect to the fake TNC');
  }
  return {
    s,
    tnc,
    clock,
    async stop() {
      await s.stop();
      await tnc.close();
    },
  };
}
