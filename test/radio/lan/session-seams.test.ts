import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

// IcomLanSession composes; it does not speak the streams itself. The session owns the streams'
// lifecycle and the order of the opening conversation; what each stream's packets mean is its
// channel's (control-channel.ts: login, token, stream request; civ-channel.ts: CI-V pipe;
// audio-channel.ts: PCM both ways), and what the radio's answers mean in words is
// open-answers.ts. Checked on the source, as the architecture test checks imports.

const LAN = resolve('src/radio/lan');
const source = (f: string) => readFileSync(`${LAN}/${f}`, 'utf8');

/** The body of `class Name`, from its line to the closing brace at column 0. */
function classLines(text: string, name: string): number {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => new RegExp(`^export class ${name}\\b`).test(l));
  assert.ok(start >= 0, `class ${name} found`);
  const end = lines.findIndex((l, i) => i > start && l === '}');
  return end - start + 1;
}

/** What each channel alone builds or reads on the wire. */
const CHANNEL_WORDS: Record<string, RegExp> = {
  'control-channel.ts': /\b(encodeLogin|encodeToken|encodeConninfoRequest|TOKEN_REQ|randomInt)\b/,
  'civ-channel.ts': /\b(writeCivPacket|civPacketLength|encodeOpenClose|CIV_OPEN|CIV_CLOSE)\b/,
  'audio-channel.ts': /\b(writeAudioPacket|audioPacketLength|pcmFromBytes|PacedAudioTx)\b/,
  'open-answers.ts': /\b(maskAllows|SAMPLE_RATE_BITS|ERR_REFUSED|formatIp)\b/,
};

describe('IcomLanSession is split along its seams', () => {
  const session = source('lan-session.ts');

  for (const [file, words] of Object.entries(CHANNEL_WORDS)) {
    it(`the session leaves ${file.replace('.ts', '')}'s words to it`, () => {
      assert.doesNotMatch(session, words, `lan-session.ts uses what ${file} is for`);
      assert.match(source(file), words, `${file} does that job`);
    });
  }

  it('keeps no packet state of its own: no inner sequence numbers, tokens or hand-written listener arrays', () => {
    assert.doesNotMatch(session, /\b(innerSeq|civSeq|audioSeq|tokRequest)\b/);
    assert.doesNotMatch(session, /Fns\s*(:|=)\s*[^;\n]*\[\]/, 'listeners are util/listeners.ts');
  });

  it('is a composition, not the largest class (it was 493 lines)', () => {
    const n = classLines(session, 'IcomLanSession');
    assert.ok(n <= 320, `IcomLanSession is ${n} lines`);
  });
});
