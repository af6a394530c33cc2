import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allowedHostEntryProblem, crossSiteRefusal, hostAllowed, parseHostHeader, type HostPolicy } from '../../src/util/request-origin.js';
import { loadConfig } from '../../src/config.js';

// The pure host and origin rules (src/http/request-origin.ts); test/http/cross-site.test.ts
// checks them on the real server.

const policy: HostPolicy = { hostname: 'shack-pi', extra: [] };

describe('Host allowlist (DNS rebinding)', () => {
  it('serves IP literals, localhost and the machine by its own names, with or without a port', () => {
    for (const h of ['127.0.0.1', '127.0.0.1:8080', '192.168.1.40:8080', '[::1]', '[::1]:8080', '[fe80::1]:80', 'localhost', 'LOCALHOST:8080', 'localhost.', 'app.localhost:5', 'shack-pi', 'shack-pi.local', 'Shack-Pi.local.:8080']) {
      assert.equal(hostAllowed(h, policy), true, h);
    }
  });

  it('refuses any other name, look-alikes and malformed headers', () => {
    for (const h of ['attacker.example', 'attacker.example:8080', 'localhost.attacker.example', 'shack-pi.attacker.example', '127.0.0.1.nip.io', 'shack-pi.lan', '::1', '[::g]', 'a b', 'x:port', 'x:123456', '@evil', 'evil/x']) {
      assert.equal(hostAllowed(h, policy), false, h);
    }
  });

  it('a fully qualified machine name also serves its short name and <short>.local', () => {
    const fq: HostPolicy = { hostname: 'shack-pi.example.org', extra: [] };
    for (const h of ['shack-pi.example.org', 'shack-pi', 'shack-pi.local', 'shack-pi.example.org.local']) assert.equal(hostAllowed(h, fq), true, h);
    assert.equal(hostAllowed('example.org', fq), false);
  });

  it('ALLOWED_HOSTS adds exact names, .domain suffixes, or * for any', () => {
    const p: HostPolicy = { hostname: 'shack-pi', extra: ['station.lan', '.hamclub.org'] };
    assert.equal(hostAllowed('station.lan:8080', p), true);
    assert.equal(hostAllowed('hamclub.org', p), true);
    assert.equal(hostAllowed('sat.hamclub.org', p), true);
    assert.equal(hostAllowed('evilhamclub.org', p), false);
    assert.equal(hostAllowed('other.lan', p), false);
    assert.equal(hostAllowed('anything.example', { hostname: 'x', extra: ['*'] }), true);
  });

  it('a request without Host is served: browsers always send one', () => {
    assert.equal(hostAllowed('', policy), true);
  });

  it('parses the port and IPv6 brackets', () => {
    assert.deepEqual(parseHostHeader('[::1]:8080'), { name: '::1', port: '8080', ipv6: true });
    assert.deepEqual(parseHostHeader('Station.LAN.'), { name: 'station.lan', port: null, ipv6: false });
  });

  it('ALLOWED_HOSTS is read from the environment, lower-cased, and a bad entry stops the boot', () => {
    assert.deepEqual(loadConfig({}).allowedHosts, []);
    assert.deepEqual(loadConfig({ ALLOWED_HOSTS: ' Station.LAN, .hamclub.org ,*' }).allowedHosts, ['station.lan', '.hamclub.org', '*']);
    assert.throws(() => loadConfig({ ALLOWED_HOSTS: 'station.lan,http://x' }), /ALLOWED_HOSTS: "http:\/\/x" is not a host name/);
    assert.equal(allowedHostEntryProblem('.example.org'), null);
  });
});

describe('Origin check on state-changing requests', () => {
  const req = (origin: string, host = '127.0.0.1:8080', secFetchSite = '') => crossSiteRefusal({ host, origin, secFetchSite });

  it('lets through requests with no Origin (curl, scripts) and the station’s own pages', () => {
    assert.equal(req(''), null);
    assert.equal(req('http://127.0.0.1:8080'), null);
    assert.equal(req('http://127.0.0.1:8080', '127.0.0.1:8080', 'same-origin'), null);
    assert.equal(req('http://shack-pi.local', 'shack-pi.local:80'), null, 'the default port is the same origin');
    assert.equal(req('https://shack-pi.local', 'shack-pi.local'), null, 'behind a TLS proxy');
    assert.equal(req('http://[::1]:8080', '[::1]:8080'), null);
    assert.equal(req('', '127.0.0.1:8080', 'none'), null, 'typed by the user');
  });

  it('refuses another origin, another port, Origin null and Sec-Fetch-Site: cross-site', () => {
    assert.match(req('http://evil.example')!, /Origin http:\/\/evil\.example is not this station/);
    assert.match(req('http://127.0.0.1:9999')!, /not this station/);
    assert.match(req('http://localhost:8080')!, /not this station/, 'localhost and 127.0.0.1 are different origins');
    assert.match(req('null')!, /"null"/);
    assert.match(req('', '127.0.0.1:8080', 'cross-site')!, /Sec-Fetch-Site: cross-site/);
    assert.match(req('http://127.0.0.1:8080', '127.0.0.1:8080', 'cross-site')!, /cross-site/);
    assert.match(req('file://')!, /not a web page/);
    assert.match(req('not a url')!, /not a URL/);
  });
});
