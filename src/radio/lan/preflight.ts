// Driver: is the radio there? The reachability probe before any Wi-Fi connect. We run without
// root, so no ICMP echo: instead the protocol's own "are you there" goes to the control port a
// few times within the timeout, and the radio's "I am here" is the answer. A connected UDP
// socket also hears ICMP port-unreachable (ECONNREFUSED), which fails at once. When the radio
// answered, a disconnect tells it to forget the half-open session. Never throws.
import dgram from 'node:dgram';
import { PT, SIZE, decodeCommon, encodeControl, makeId } from './packets.js';
import { resolveHost, socketErrorText } from './lan-stream.js';
import { monotonicMs } from '../../util/monotonic.js';

export type PreflightResult = { ok: true; rtt_ms: number } | { ok: false; message: string };

const secs = (ms: number) => `${Math.round(ms / 100) / 10} s`;

export async function preflight(host: string, controlPort: number, opts: { timeoutMs?: number } = {}): Promise<PreflightResult> {
  const timeoutMs = Math.max(50, opts.timeoutMs ?? 1500);
  const started = monotonicMs();
  const addr = await resolveHost(host);
  if (!addr.ok) return { ok: false, message: `host ${host} did not respond (${addr.message})` };
  const left = timeoutMs - (monotonicMs() - started);
  if (left <= 0) return { ok: false, message: `host ${host} did not respond on UDP port ${controlPort} within ${secs(timeoutMs)}` };

  return new Promise<PreflightResult>((resolve) => {
    let socket: dgram.Socket;
    try {
      socket = dgram.createSocket({ type: addr.family === 6 ? 'udp6' : 'udp4' });
    } catch (err) {
      resolve({ ok: false, message: `host ${host} did not respond (cannot open a UDP socket: ${(err as Error).message})` });
      return;
    }
    const ids = { sentid: 0, rcvdid: 0 };
    let lastSent = 0;
    let done = false;
    const timers: NodeJS.Timeout[] = [];
    const finish = (r: PreflightResult, bye?: Uint8Array) => {
      if (done) return;
      done = true;
      for (const t of timers) clearTimeout(t);
      const shut = () => {
        try {
          socket.close();
        } catch {
          /* already closed */
        }
      };
      if (bye) {
        try {
          socket.send(bye, shut);
        } catch {
          shut();
        }
      } else shut();
      resolve(r);
    };
    const send = () => {
      if (done) return;
      lastSent = monotonicMs();
      try {
        socket.send(encodeControl(PT.ARE_YOU_THERE, 0, ids), (err) => {
          if (err) onError(err);
        });
      } catch (err) {
        onError(err as Error);
      }
    };
    const onError = (err: Error) => {
      const code = (err as NodeJS.ErrnoException).code;
      finish({ ok: false, message: `host ${host} did not respond on UDP port ${controlPort} (${socketErrorText(code, err.message)})` });
    };
    socket.on('error', onError);
    socket.on('message', (msg: Buffer) => {
      const p = decodeCommon(msg);
      if (!p || p.kind !== 'control' || p.h.type !== PT.I_AM_HERE || msg.length !== SIZE.CONTROL) return;
      const rtt = Math.round((monotonicMs() - lastSent) * 10) / 10;
      finish({ ok: true, rtt_ms: rtt }, encodeControl(PT.DISCONNECT, 0, { sentid: ids.sentid, rcvdid: p.h.sentid }));
    });
    try {
      socket.connect(controlPort, addr.ip, () => {
        try {
          const a = socket.address();
          ids.sentid = makeId(a.address, a.port);
        } catch {
          /* closed meanwhile */
        }
        // A few tries within the timeout: UDP may drop one.
        const tries = 4;
        for (let i = 0; i < tries; i++) timers.push(setTimeout(send, (left * i) / tries));
        timers.push(setTimeout(() => finish({ ok: false, message: `host ${host} did not respond on UDP port ${controlPort} within ${secs(timeoutMs)}` }), left));
      });
    } catch (err) {
      finish({ ok: false, message: `host ${host} did not respond (${(err as Error).message})` });
    }
  });
}
