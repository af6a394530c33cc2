import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PacedAudioTx, type Pacer } from '../../../src/radio/lan/audio-tx.js';

// TX audio pacing on a virtual real-time clock: never behind the play-out time, never more than
// the lead (plus one packet) ahead, done once the radio's TX buffer has played the last sample
// (the audio's own duration plus the hold), abort at once.

class VirtualPacer implements Pacer {
  t = 0;
  private timers: Array<{ at: number; fn: () => void; live: boolean }> = [];
  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number) {
    const x = { at: this.t + Math.max(0, ms), fn, live: true };
    this.timers.push(x);
    return { cancel: () => (x.live = false) };
  }
  async advance(ms: number, step = 1, each?: () => void): Promise<void> {
    const end = this.t + ms;
    while (this.t < end) {
      this.t = Math.min(end, this.t + step);
      for (;;) {
        const due = this.timers.filter((x) => x.live && x.at <= this.t).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        due.live = false;
        due.fn();
      }
      this.timers = this.timers.filter((x) => x.live);
      each?.();
      await Promise.resolve();
    }
  }
}

/** The session's hold: a 150 ms TX buffer plus a 50 ms tail. */
const HOLD_MS = 200;

function rig(rate = 24000) {
  const pacer = new VirtualPacer();
  const sent: Array<{ at: number; from: number; to: number }> = [];
  let alive = true;
  const tx = new PacedAudioTx({ sampleRate: rate, packetMs: 20, leadMs: 60, holdMs: HOLD_MS, pacer });
  tx.attach({
    send: (_pcm, from, to) => {
      if (!alive) return false;
      sent.push({ at: pacer.t, from, to });
      return true;
    },
  });
  return { pacer, sent, tx, kill: () => (alive = false) };
}

describe('PacedAudioTx', () => {
  it('sends 20 ms packets, a 60 ms lead ahead of real time, and is done after the audio duration plus the hold', async () => {
    const { pacer, sent, tx } = rig();
    const pcm = new Int16Array(24000); // 1 s
    let result: unknown = null;
    void tx.play(pcm).then((r) => (result = r));
    assert.ok(tx.active);
    assert.equal(sent.length, 3, 'the lead goes out at once');
    await pacer.advance(1000 + HOLD_MS + 10, 1, () => {
      const samples = sent.length ? sent[sent.length - 1].to : 0;
      const t = pacer.t;
      assert.ok(samples <= Math.ceil(((t + 60) * 24000) / 1000) + 480, `too far ahead at ${t} ms: ${samples}`);
      assert.ok(samples >= Math.min(24000, Math.floor((t * 24000) / 1000)), `behind at ${t} ms: ${samples}`);
      // Done earlier, PTT would go off while the radio still held the end of the frame.
      if (t < 1000 + HOLD_MS) assert.equal(result, null, `done too early at ${t} ms`);
    });
    assert.deepEqual(result, { kind: 'done' });
    assert.equal(sent.length, 50);
    assert.ok(sent.every((p) => p.to - p.from === 480));
    assert.equal(sent[sent.length - 1].to, 24000);
    assert.ok(!tx.active);
  });

  it('a short last packet carries the rest', async () => {
    const { pacer, sent, tx } = rig();
    const p = tx.play(new Int16Array(1000));
    await pacer.advance(100 + HOLD_MS);
    assert.deepEqual(await p, { kind: 'done' });
    assert.deepEqual(
      sent.map((s) => s.to - s.from),
      [480, 480, 40],
    );
  });

  it('abort stops at once and sends nothing more', async () => {
    const { pacer, sent, tx } = rig();
    const p = tx.play(new Int16Array(24000));
    await pacer.advance(200);
    const before = sent.length;
    tx.abort();
    assert.deepEqual(await p, { kind: 'aborted' });
    assert.ok(!tx.active);
    await pacer.advance(500);
    assert.equal(sent.length, before);
  });

  it('a new play replaces a running one (the old one ends aborted)', async () => {
    const { pacer, tx } = rig();
    const a = tx.play(new Int16Array(24000));
    await pacer.advance(50);
    const b = tx.play(new Int16Array(480));
    assert.deepEqual(await a, { kind: 'aborted' });
    await pacer.advance(100 + HOLD_MS);
    assert.deepEqual(await b, { kind: 'done' });
  });

  it('ends lost when the stream goes away, and refuses before attach / after detach', async () => {
    const { pacer, tx, kill } = rig();
    const p = tx.play(new Int16Array(24000));
    kill();
    await pacer.advance(100);
    assert.equal((await p).kind, 'lost');
    tx.detach('the radio stopped answering');
    assert.deepEqual(await tx.play(new Int16Array(10)), { kind: 'lost', reason: 'the radio stopped answering' });
    const fresh = new PacedAudioTx({ sampleRate: 24000, packetMs: 20, leadMs: 60, holdMs: HOLD_MS }, 'no audio');
    assert.deepEqual(await fresh.play(new Int16Array(10)), { kind: 'lost', reason: 'no audio' });
  });

  it('detach while playing ends the play with lost', async () => {
    const { pacer, tx } = rig();
    const p = tx.play(new Int16Array(24000));
    await pacer.advance(40);
    tx.detach('gone');
    assert.deepEqual(await p, { kind: 'lost', reason: 'gone' });
  });
});
