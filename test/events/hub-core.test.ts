import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventHub, type HubSocket, type SendOutcome } from '../../src/events/hub.js';
import { LIMITS, TOPICS, type Topic } from '../../src/events/protocol.js';
import type { StreamSource, TopicSource } from '../../src/events/topic-feed.js';
import { FixedClock } from '../../src/util/clock.js';

// The hub's bounds where a real socket cannot show them in a test's time: a socket edge that
// takes nothing (as the kernel does once its buffers are full), the aprs.packets queue of a client
// that does not read, and a client that keeps asking without reading its replies.

class StuckSocket implements HubSocket {
  readonly frames: string[] = [];
  buffered = 0;
  closed: { code: number; reason: string } | null = null;
  /** Takes frames until `accept` is false, then buffers them (uWS's user-space buffer). */
  accept = true;
  send(frame: string | Uint8Array): SendOutcome {
    const text = typeof frame === 'string' ? frame : Buffer.from(frame).toString('utf8');
    this.frames.push(text);
    if (this.accept) return 'sent';
    this.buffered += text.length;
    return 'buffered';
  }
  bufferedAmount(): number {
    return this.buffered;
  }
  end(code: number, reason: string): void {
    this.closed = { code, reason };
  }
}

function hubWithPackets() {
  let push: (json: string) => void = () => {};
  const packets: StreamSource = { kind: 'stream', watch: (p) => ((push = p), () => (push = () => {})) };
  const none: TopicSource = { kind: 'state', watch: () => () => {}, build: () => ({ kind: 'none' }) };
  const sources = Object.fromEntries(TOPICS.map((t) => [t, t === 'aprs.packets' ? packets : none])) as Record<Topic, TopicSource>;
  const clock = new FixedClock(Date.parse('2026-08-22T12:00:00Z'));
  const hub = new EventHub({ clock, bootId: 'b', sources, defer: (fn) => fn() });
  return { hub, clock, push: (json: string) => push(json) };
}

describe('push hub core: bounds for a client that does not read', () => {
  it('aprs.packets: sent one by one while read; past the queue the oldest go, leaving a gap in seq', () => {
    const { hub, push } = hubWithPackets();
    const sock = new StuckSocket();
    const c = hub.open(sock)!;
    hub.message(c, JSON.stringify({ id: 1, type: 'subscribe', topics: ['aprs.packets'] }), 60);
    push('{"n":0}');
    assert.match(sock.frames.at(-1)!, /"seq":1,.*"data":\{"n":0\}/);
    sock.accept = false;
    push('{"n":1}'); // buffered: the client stops here
    for (let n = 2; n < 2 + LIMITS.packetQueue + 10; n++) push(`{"n":${n}}`);
    const st = hub.stats().clients[0];
    assert.equal(st.packetsQueued, LIMITS.packetQueue);
    assert.equal(st.packetsDropped, 10);
    sock.accept = true;
    sock.buffered = 0;
    const before = sock.frames.length;
    hub.drained(c);
    const sent = sock.frames.slice(before).map((f) => JSON.parse(f));
    assert.equal(sent.length, LIMITS.packetQueue);
    assert.equal(sent[0].seq, 13, 'seq 3–12 were dropped: the client sees the gap');
    assert.deepEqual(sent.map((e) => e.data.n), Array.from({ length: LIMITS.packetQueue }, (_, i) => i + 12));
  });

  it('a client that asks and never reads its replies is closed with 1008 (its replies are bounded too)', () => {
    const { hub } = hubWithPackets();
    const sock = new StuckSocket();
    const c = hub.open(sock)!;
    sock.accept = false;
    for (let i = 0; i < 40 && !sock.closed; i++) hub.message(c, JSON.stringify({ id: i, type: 'ping' }), 30);
    assert.equal(sock.closed?.code, 1008);
    assert.equal(hub.size, 0);
  });

  it('over 256 KiB buffered for 10 s closes with 1008; a dip below it starts the 10 s again', () => {
    const { hub, clock } = hubWithPackets();
    const sock = new StuckSocket();
    const c = hub.open(sock)!;
    sock.buffered = LIMITS.slowBufferBytes + 1;
    hub.drained(c); // seen over the limit
    clock.advance(9_000);
    sock.buffered = 1000;
    hub.drained(c); // below it: the client reads
    sock.buffered = LIMITS.slowBufferBytes + 1;
    hub.drained(c);
    clock.advance(9_000);
    assert.equal(sock.closed, null, '10 s over the limit have not passed');
    clock.advance(1_000);
    assert.deepEqual(sock.closed, { code: 1008, reason: 'not reading: over 256 KiB buffered for 10 s' });
  });
});
