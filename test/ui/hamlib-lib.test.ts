import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientHost, exposureWarning, hostPort, isLoopback, recipes } from '../../ui/lib/hamlib.js';
import { defaultHamlibSettings, isLoopback as serverIsLoopback } from '../../src/hamlib/settings.js';

// The page's Hamlib helpers (issue 26): its loopback rule must agree with the server's (the
// page restates it, the bundle takes only types from src/), and the recipes' host:port must be
// what rigctl and WSJT-X accept, IPv6 in brackets.

describe('ui/lib/hamlib', () => {
  it('calls the same hosts loopback as the server does', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', 'LOCALHOST', '0.0.0.0', '::', '192.168.1.20', 'satstation.local', '128.0.0.1', '::2']) {
      assert.equal(isLoopback(h), serverIsLoopback(h), h);
    }
  });

  it('warns only off the loopback, and names keying when PTT is allowed', () => {
    assert.equal(exposureWarning({ bind_host: '127.0.0.1', allow_ptt: true }), null);
    assert.match(exposureWarning({ bind_host: '192.168.1.5', allow_ptt: false })!, /^Hamlib has no password: .*can tune the rig and turn the rotator\.$/);
    assert.match(exposureWarning({ bind_host: '0.0.0.0', allow_ptt: true })!, /and key the transmitter\.$/);
  });

  it('fills in the page host for a wildcard binding, the bound address otherwise, IPv6 bracketed in host:port', () => {
    assert.equal(clientHost('0.0.0.0', 'pi.local'), 'pi.local');
    assert.equal(clientHost('::', '[fe80::1]'), 'fe80::1');
    assert.equal(clientHost('192.168.1.5', 'pi.local'), '192.168.1.5');
    assert.equal(hostPort('fe80::1', 4532), '[fe80::1]:4532');
    assert.equal(hostPort('[::1]', 4532), '[::1]:4532');
    assert.equal(hostPort('pi.local', 4533), 'pi.local:4533');
    const r = recipes({ ...defaultHamlibSettings(), bind_host: '::', rigctld_port: 4600, rotctld_port: 4601 }, '[fe80::1]');
    assert.equal(r.find((x) => x.id === 'rigctl')!.text, 'rigctl -m 2 -r [fe80::1]:4600 f');
    assert.equal(r.find((x) => x.id === 'rotctl')!.text, 'rotctl -m 2 -r [fe80::1]:4601 p');
    assert.match(r.find((x) => x.id === 'gpredict-rotator')!.text, /host fe80::1, port 4601$/);
  });
});
