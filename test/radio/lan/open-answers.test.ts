import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { busyMessage, radioNameOf, secs, statusRefusal, streamRates } from '../../../src/radio/lan/open-answers.js';
import { ERR_REFUSED, decodeControlStream, encodeCapabilities, encodeConninfoReply, encodeStatus, type LanPacket, type RadioCap } from '../../../src/radio/lan/packets.js';

// What the radio's answers during open() mean, decided without sockets: the packets are the
// radio's own bytes (the encoders the emulator uses) read back through the client's decoder.

const ids = { sentid: 0x0102a4b1, rcvdid: 0xcafe0001 };
const ident = Uint8Array.from({ length: 16 }, (_, i) => i + 1);

function decoded<K extends LanPacket['kind']>(kind: K, bytes: Uint8Array): Extract<LanPacket, { kind: K }> {
  const p = decodeControlStream(bytes);
  assert.ok(p && p.kind === kind, `decodes as ${kind}`);
  return p as Extract<LanPacket, { kind: K }>;
}
const conninfo = (busy: number, computer?: string, ip?: number) => decoded('conninfo', encodeConninfoReply(ids, { ident, name: 'IC-705', busy, computer, ip }));
const status = (f: { error: number; disconnected?: boolean; civPort: number; audioPort: number }) => decoded('status', encodeStatus(ids, f));
function caps(rxSampleMask: number, txSampleMask: number, name = 'IC-705 caps'): RadioCap {
  const p = decoded('capabilities', encodeCapabilities(ids, { radios: [{ ident, name, civAddr: 0xa4, rxSampleMask, txSampleMask }] }));
  return p.radios[0];
}
const us = { clientName: 'satstation', localAddress: '192.168.1.20' };

describe('open answers: is the radio free for us', () => {
  it('free (busy 0) and no conninfo at all are free', () => {
    assert.equal(busyMessage(conninfo(0), 'IC-705', us), null);
    assert.equal(busyMessage(null, 'IC-705', us), null);
  });

  it('busy with a client of our name at our address is our own earlier session, not busy', () => {
    assert.equal(busyMessage(conninfo(1, 'satstation', 0xc0a80114), 'IC-705', us), null);
  });

  it('busy by someone else names who, as far as the radio says', () => {
    assert.equal(busyMessage(conninfo(1, 'OTHER-PC', 0xc0a80303), 'IC-705', us), 'IC-705 is in use by OTHER-PC (192.168.3.3)');
    assert.equal(busyMessage(conninfo(1, 'satstation', 0xc0a80303), 'IC-705', us), 'IC-705 is in use by satstation (192.168.3.3)');
    assert.equal(busyMessage(conninfo(1, 'OTHER-PC'), 'IC-705', us), 'IC-705 is in use by OTHER-PC');
    assert.equal(busyMessage(conninfo(1, undefined, 0xc0a80303), 'IC-705', us), 'IC-705 is in use by 192.168.3.3');
    assert.equal(busyMessage(conninfo(1), 'IC-705', us), 'IC-705 is in use by another client');
    assert.equal(busyMessage(conninfo(2, 'OTHER-PC'), 'IC-705', us), 'IC-705 is not available (busy 2)');
  });

  it("the radio's name: capabilities first, then conninfo, else 'radio'", () => {
    assert.equal(radioNameOf(caps(0xff01, 0xff01), conninfo(0)), 'IC-705 caps');
    assert.equal(radioNameOf(null, conninfo(0)), 'IC-705');
    assert.equal(radioNameOf(null, null), 'radio');
  });
});

describe('open answers: what the stream request asks for', () => {
  it('with audio: the asked rate both ways when the radio lists TX rates', () => {
    assert.deepEqual(streamRates(caps(0xff01, 0xff01), { sampleRate: 24000 }), { txOk: true, rxSampleRate: 24000, txSampleRate: 24000, unlisted: false });
  });

  it('with audio but no TX rate listed: receive only', () => {
    assert.deepEqual(streamRates(caps(0xff01, 0), { sampleRate: 24000 }), { txOk: false, rxSampleRate: 24000, txSampleRate: 0, unlisted: false });
  });

  it('a rate the radio does not list is asked anyway and flagged; without capabilities nothing is flagged', () => {
    assert.equal(streamRates(caps(0x0100, 0x0100), { sampleRate: 24000 }).unlisted, true);
    assert.deepEqual(streamRates(null, { sampleRate: 16000 }), { txOk: true, rxSampleRate: 16000, txSampleRate: 16000, unlisted: false });
  });

  it('without audio: RX only, at the lowest rate the radio lists (8 kHz when it says nothing)', () => {
    assert.deepEqual(streamRates(caps(0x0001 | 0x8000, 0xff01), null), { txOk: false, rxSampleRate: 12000, txSampleRate: 0, unlisted: false });
    assert.equal(streamRates(caps(0x0200 | 0x1000, 0xff01), null).rxSampleRate, 11025, 'lowest by rate, not by bit');
    assert.equal(streamRates(caps(0x0001, 0xff01), null).rxSampleRate, 24000);
    assert.equal(streamRates(caps(0xff01, 0xff01), null).rxSampleRate, 8000);
    assert.equal(streamRates(null, null).rxSampleRate, 8000);
  });
});

describe("open answers: the radio's status", () => {
  it('ports given: no refusal', () => {
    assert.equal(statusRefusal(status({ error: 0, civPort: 50002, audioPort: 50003 }), 'IC-705', { sampleRate: 24000 }), null);
    assert.equal(statusRefusal(status({ error: 0, civPort: 50002, audioPort: 0 }), 'IC-705', null), null, 'no audio port needed without audio');
  });

  it('refused is busy, and names the audio rate when audio was asked for', () => {
    const r = statusRefusal(status({ error: ERR_REFUSED, civPort: 0, audioPort: 0 }), 'IC-705', { sampleRate: 24000 });
    assert.equal(r?.kind, 'busy');
    assert.match(r!.message, /^IC-705 refused the connection: .*; or it does not take 24000 Hz audio$/);
    assert.doesNotMatch(statusRefusal(status({ error: ERR_REFUSED, civPort: 0, audioPort: 0 }), 'IC-705', null)!.message, /Hz/);
  });

  it('disconnected, other errors and missing ports fail with what the radio said', () => {
    const fail = (f: Parameters<typeof status>[0], audio: { sampleRate: number } | null) => statusRefusal(status(f), 'IC-705', audio);
    assert.deepEqual(fail({ error: 0, disconnected: true, civPort: 50002, audioPort: 50003 }, null), { kind: 'failed', message: 'stream request: IC-705 answered "disconnected"' });
    assert.deepEqual(fail({ error: 0x12, civPort: 50002, audioPort: 50003 }, null), { kind: 'failed', message: 'stream request: IC-705 answered with error 0x12' });
    assert.deepEqual(fail({ error: 0, civPort: 0, audioPort: 50003 }, null), { kind: 'failed', message: 'stream request: IC-705 gave no CI-V port' });
    assert.deepEqual(fail({ error: 0, civPort: 50002, audioPort: 0 }, { sampleRate: 24000 }), { kind: 'failed', message: 'stream request: IC-705 gave no audio port' });
  });

  it('durations in messages read in seconds, one decimal', () => {
    assert.equal(secs(3000), '3 s');
    assert.equal(secs(1549), '1.5 s');
  });
});
