import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { diagnoseExit, diagnoseOutput, isErrorLine } from '../../src/aprs/tnc/direwolf-diagnosis.js';

// Dire Wolf 1.6's real output (fixtures/direwolf, captured from the program) read into plain
// messages: what is wrong in one short line, and which setting fixes it.

const lines = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', 'direwolf', `${name}.txt`), 'utf8').split('\n');

describe('diagnoseOutput on real Dire Wolf output', () => {
  it('no sound card at all: says so, names the setting and how to list cards', () => {
    const d = diagnoseOutput(lines('no-card-default'))!;
    assert.equal(d.kind, 'no_sound_card');
    assert.equal(d.fatal, true);
    assert.match(d.summary, /^No sound card found/);
    assert.ok(d.summary.length <= 80, d.summary);
    assert.match(d.fix, /\/settings → APRS/);
    assert.match(d.fix, /arecord -l/);
    assert.doesNotMatch(d.summary + d.fix, /ALSA lib|conf\.c|snd_/);
  });

  it('a card that is not there, by number or by name', () => {
    const a = diagnoseOutput(lines('missing-card-plughw'))!;
    assert.equal(a.kind, 'audio_input');
    assert.equal(a.summary, 'Sound card "plughw:5,0" (audio input) not found');
    assert.match(a.fix, /Audio input device/);
    const b = diagnoseOutput(lines('unknown-pcm'))!;
    assert.equal(b.summary, 'Sound card "nosuchdev" (audio input) not found');
  });

  it('the output device: aplay -l, and fatal although Dire Wolf does not exit', () => {
    const d = diagnoseOutput(lines('output-missing'))!;
    assert.equal(d.kind, 'audio_output');
    assert.equal(d.fatal, true);
    assert.match(d.summary, /"nosuchout" \(audio output\) not found/);
    assert.match(d.fix, /Audio output device.*aplay -l/);
  });

  it('PTT serial device missing or not permitted: receive only, not fatal', () => {
    const missing = diagnoseOutput(lines('ptt-rts-missing'))!;
    assert.equal(missing.kind, 'ptt_device_missing');
    assert.equal(missing.fatal, false);
    assert.equal(missing.summary, 'PTT device /dev/ttyUSB7 not found: receive only');
    const perm = diagnoseOutput(lines('ptt-rts-permission'))!;
    assert.equal(perm.kind, 'ptt_permission');
    assert.match(perm.fix, /dialout/);
  });

  it('CAT PTT through Hamlib: the port out of the debug chatter', () => {
    const d = diagnoseOutput(lines('ptt-cat-missing'))!;
    assert.equal(d.kind, 'ptt_device_missing');
    assert.equal(d.summary, 'PTT device /dev/ttyUSB7 not found: receive only');
  });

  it('network ports in use: which port and server', () => {
    const d = diagnoseOutput(lines('ports-in-use'))!;
    assert.equal(d.kind, 'port_in_use');
    assert.equal(d.summary, 'Port 28000 (AGW network server) is in use by another program');
    assert.equal(d.fatal, false);
  });

  it('healthy runs: the "PTT not configured" note is not a problem (VOX, and the Wi-Fi decode-only receiver)', () => {
    assert.equal(diagnoseOutput(lines('healthy-vox')), null);
    assert.equal(diagnoseOutput(lines('healthy-decode-only')), null);
    assert.ok(lines('healthy-decode-only').includes('Note: PTT not configured for channel 0. (Ignore this if using VOX.)'));
    assert.equal(isErrorLine('Note: PTT not configured for channel 0. (Ignore this if using VOX.)'), false);
    assert.equal(isErrorLine("ERROR can't open device /dev/ttyUSB7 for channel 0 PTT control."), true);
  });

  it('configuration line errors are fatal and quoted', () => {
    const d = diagnoseOutput(['Reading config file x.conf', 'Config file line 3: Invalid value for MODEM.'])!;
    assert.equal(d.kind, 'config');
    assert.equal(d.summary, 'Dire Wolf refused its configuration: Invalid value for MODEM.');
  });
});

describe('diagnoseExit', () => {
  it('names a crash by its signal; a plain exit is not a crash', () => {
    assert.equal(diagnoseExit({ code: null, signal: 'SIGSEGV' })?.summary, 'Dire Wolf crashed (SIGSEGV)');
    assert.equal(diagnoseExit({ code: null, signal: 'SIGABRT' })?.kind, 'crash');
    assert.equal(diagnoseExit({ code: 1, signal: null }), null);
    assert.equal(diagnoseExit({ code: null, signal: 'SIGINT' }), null, 'our own stop');
  });
});
