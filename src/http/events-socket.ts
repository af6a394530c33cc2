import uWS from 'uWebSockets.js';
import type { EventHub, HubClient, HubSocket, SendOutcome } from '../events/hub.js';
import { LIMITS } from '../events/protocol.js';

// The push hub on a uWebSockets.js WebSocket: frames in and out, backpressure, closes. The rules
// are the hub's (src/events/); the upgrade's gate (Host and Origin) is the HTTP server's.

interface SocketData {
  client: HubClient | null;
  /** Set by the close handler: the uWS socket must not be touched afterwards. */
  gone: boolean;
}

/**
 * Frames up to this size are read whole, so one over LIMITS.maxFrameBytes can be closed with 1009
 * and a reason; uWS itself drops a connection whose frame is larger still (no close frame), before
 * reading it. 64 sockets × 64 KiB bounds what half-sent frames can hold.
 */
const READ_FRAME_BYTES = 64 * 1024;

/**
 * uWS drops a frame sent while more than this is buffered. The hub never sends an event or a reply
 * into a socket that holds data (they wait in hub-client.ts, bounded), so what passes this is only
 * the close frame (a 1008 must follow the rest of a big frame, or the client sees 1006) and uWS's
 * own pings: the limit is never what bounds memory here.
 */
const MAX_BACKPRESSURE = 64 * 1024 * 1024;

const OUTCOME: Record<number, SendOutcome> = { 0: 'buffered', 1: 'sent', 2: 'dropped' };

function hubSocket(ws: uWS.WebSocket<SocketData>): HubSocket {
  const data = ws.getUserData();
  return {
    // uWS copies what it sends (to the kernel or its own buffer) before send returns.
    send: (frame) => (data.gone ? 'dropped' : OUTCOME[ws.send(frame, false, false)] ?? 'dropped'),
    bufferedAmount: () => (data.gone ? 0 : ws.getBufferedAmount()),
    end: (code, reason) => {
      if (!data.gone) ws.end(code, reason);
    },
  };
}

/**
 * The WebSocket behaviour for the events path. `upgrade` decides first (the gate): it answers a
 * refused request itself and returns false, else the socket is upgraded.
 */
export function eventsBehavior(hub: EventHub, gate: (res: uWS.HttpResponse, req: uWS.HttpRequest) => boolean): uWS.WebSocketBehavior<SocketData> {
  return {
    compression: uWS.DISABLED,
    maxPayloadLength: READ_FRAME_BYTES,
    maxBackpressure: MAX_BACKPRESSURE,
    // Pings from uWS keep a quiet socket open and find a peer that vanished (browsers answer them).
    idleTimeout: 120,
    sendPingsAutomatically: true,
    upgrade: (res, req, context) => {
      // Read every header now: req is invalid once this returns.
      const key = req.getHeader('sec-websocket-key');
      const extensions = req.getHeader('sec-websocket-extensions');
      if (!gate(res, req)) return;
      // No subprotocol: the protocol has no name to agree on (echoing a client's list would be wrong).
      res.upgrade<SocketData>({ client: null, gone: false }, key, '', extensions, context);
    },
    open: (ws) => {
      ws.getUserData().client = hub.open(hubSocket(ws));
    },
    message: (ws, message, isBinary) => {
      const c = ws.getUserData().client;
      if (!c) return;
      const bytes = message.byteLength;
      // The ArrayBuffer is valid only during this call: decoded (copied) now, or not at all.
      const text = isBinary || bytes > LIMITS.maxFrameBytes ? null : Buffer.from(message).toString('utf8');
      hub.message(c, text, bytes);
    },
    drain: (ws) => {
      const c = ws.getUserData().client;
      if (c) hub.drained(c);
    },
    close: (ws) => {
      const data = ws.getUserData();
      data.gone = true;
      if (data.client) hub.closed(data.client);
    },
  };
}
