import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmsDbfs, SILENCE_DBFS } from '../../src/recording/pcm-level.js';
import { makeTone } from '../helpers/tone.js';

// The level meter's number: RMS dBFS of a range, silence at -120, 0.1 dB steps.

describe('pcm level', () => {
  it('silence and an empty range read -120', () => {
    assert.equal(rmsDbfs(new Int16Array(100)), SILENCE_DBFS);
    assert.equal(rmsDbfs(new Int16Array(0)), SILENCE_DBFS);
    assert.equal(rmsDbfs(new Int16Array([1000, 1000]), 1, 1), SILENCE_DBFS);
  });

  it('full scale square reads 0, a full-scale sine -3.0, half of it -9.0', () => {
    const square = Int16Array.from({ length: 160 }, (_, i) => (i % 20 < 10 ? 32767 : -32768));
    assert.equal(rmsDbfs(square), 0);
    assert.equal(rmsDbfs(makeTone(16000, 1000, 0.1, 32767)), -3);
    assert.equal(rmsDbfs(makeTone(16000, 1000, 0.1, 16384)), -9);
  });

  it('a single LSB is far above the floor; the floor holds below -120', () => {
    assert.equal(rmsDbfs(new Int16Array([1])), -90.3);
    const lsbInMillions = new Int16Array(2_000_000);
    lsbInMillions[0] = 1;
    assert.equal(rmsDbfs(lsbInMillions), -120);
  });

  it('reads only the range asked, clamped to the array', () => {
    const pcm = new Int16Array(260);
    pcm.set(makeTone(16000, 1000, 160 / 16000, 16384), 100); // whole periods
    assert.equal(rmsDbfs(pcm, 0, 100), SILENCE_DBFS);
    assert.equal(rmsDbfs(pcm, 100, 260), -9);
    assert.equal(rmsDbfs(pcm, 100, 10_000), -9);
    assert.equal(rmsDbfs(pcm, -50, 100), SILENCE_DBFS);
  });
});
