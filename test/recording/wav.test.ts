import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { WAV_DATA_SIZE_AT, WAV_HEADER_BYTES, WAV_RIFF_SIZE_AT, wavHeader, wavSizePatches, wavSizes } from '../../src/recording/wav.js';

// The WAV header of a recording, and the sizes that repair a file a kill -9 cut.

describe('wav', () => {
  it('writes the 44-byte header of 16-bit mono PCM', () => {
    const h = wavHeader(16000, 32000);
    assert.equal(h.length, WAV_HEADER_BYTES);
    assert.equal(h.toString('latin1', 0, 4), 'RIFF');
    assert.equal(h.readUInt32LE(4), 36 + 32000);
    assert.equal(h.toString('latin1', 8, 16), 'WAVEfmt ');
    assert.equal(h.readUInt32LE(16), 16);
    assert.equal(h.readUInt16LE(20), 1, 'PCM');
    assert.equal(h.readUInt16LE(22), 1, 'mono');
    assert.equal(h.readUInt32LE(24), 16000);
    assert.equal(h.readUInt32LE(28), 32000, 'bytes a second');
    assert.equal(h.readUInt16LE(32), 2, 'bytes a frame');
    assert.equal(h.readUInt16LE(34), 16, 'bits');
    assert.equal(h.toString('latin1', 36, 40), 'data');
    assert.equal(h.readUInt32LE(40), 32000);
  });

  it('an empty recording has sizes 0 and 36', () => {
    const h = wavHeader(8000, 0);
    assert.equal(h.readUInt32LE(WAV_RIFF_SIZE_AT), 36);
    assert.equal(h.readUInt32LE(WAV_DATA_SIZE_AT), 0);
  });

  it('sizes from a file length: whole samples only, never below zero', () => {
    assert.deepEqual(wavSizes(44 + 1000), { riffBytes: 1036, dataBytes: 1000 });
    assert.deepEqual(wavSizes(44 + 1001), { riffBytes: 1036, dataBytes: 1000 }, 'a trailing odd byte is half a sample');
    assert.deepEqual(wavSizes(44), { riffBytes: 36, dataBytes: 0 });
    assert.deepEqual(wavSizes(20), { riffBytes: 36, dataBytes: 0 });
  });

  it('sizes past 32 bits clamp to 0xFFFFFFFF (read to the end)', () => {
    assert.deepEqual(wavSizes(2 ** 33), { riffBytes: 0xffffffff, dataBytes: 0xffffffff });
    assert.equal(wavHeader(48000, 2 ** 32).readUInt32LE(WAV_DATA_SIZE_AT), 0xffffffff);
    assert.equal(wavHeader(48000, 2 ** 32 - 10).readUInt32LE(WAV_RIFF_SIZE_AT), 0xffffffff);
  });

  it('the patches are the two size fields, little-endian', () => {
    const p = wavSizePatches(44 + 500);
    assert.deepEqual(
      p.map((x) => [x.offset, x.bytes.readUInt32LE(0), x.bytes.length]),
      [
        [4, 536, 4],
        [40, 500, 4],
      ],
    );
    // Patched into a header of sizes 0, they make the header of the full file.
    const h = wavHeader(16000, 0);
    for (const x of p) x.bytes.copy(h, x.offset);
    assert.deepEqual(h, wavHeader(16000, 500));
  });
});
