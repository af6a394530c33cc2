import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { captureSourceOf, hardwareOf, sharedCaptureDevice, tncConflict } from '../../src/recording/capture-source.js';
import { defaultRecordingSettings } from '../../src/recording/settings.js';

// Which audio a recording takes, and how it shares the sound card with Dire Wolf (pure rules).

describe('capture source rules', () => {
  it('auto is the LAN stream when the radio is on Wi-Fi, else ALSA; an explicit source stays', () => {
    const s = defaultRecordingSettings();
    assert.equal(captureSourceOf(s, true), 'lan');
    assert.equal(captureSourceOf(s, false), 'alsa');
    assert.equal(captureSourceOf({ ...s, source: 'alsa' }, true), 'alsa');
    assert.equal(captureSourceOf({ ...s, source: 'lan' }, false), 'lan');
  });

  it('hardware names open through dsnoop, so Dire Wolf can share the card; other PCMs are the operator\'s', () => {
    assert.deepEqual(hardwareOf('hw:1,0'), { card: '1', dev: '0' });
    assert.deepEqual(hardwareOf('plughw:CARD=CODEC,DEV=0'), { card: 'CODEC', dev: '0' });
    assert.deepEqual(hardwareOf('hw:2'), { card: '2', dev: '0' });
    assert.equal(hardwareOf('default'), null);
    assert.equal(hardwareOf('dsnoop:1'), null);
    assert.equal(sharedCaptureDevice('hw:1,0'), "plug:'dsnoop:CARD=1,DEV=0'");
    assert.equal(sharedCaptureDevice('plughw:CARD=CODEC,DEV=1'), "plug:'dsnoop:CARD=CODEC,DEV=1'");
    assert.equal(sharedCaptureDevice('default'), 'default');
    assert.equal(sharedCaptureDevice('satfile'), 'satfile');
  });

  it('never takes the card from a Dire Wolf that holds it on a hardware name: the reason says what to set', () => {
    assert.equal(tncConflict('hw:1,0', null), null);
    assert.equal(tncConflict('hw:1,0', 'default'), null, 'Dire Wolf on default shares through dsnoop');
    assert.equal(tncConflict('hw:1,0', 'hw:2,0'), null, 'another card');
    assert.match(tncConflict('hw:1,0', 'plughw:1,0') ?? '', /Dire Wolf holds plughw:1,0.*default:CARD=1/);
    assert.match(tncConflict('default:CARD=1', 'hw:1,0') ?? '', /Dire Wolf holds hw:1,0/);
  });
});
