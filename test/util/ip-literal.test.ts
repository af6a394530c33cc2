import assert from 'node:assert/strict';
import { isIPv4, isIPv6 } from 'node:net';
import { test } from 'node:test';
import { isIPv4Literal, isIPv6Literal } from '../../src/util/ip-literal.js';

// Our literal checks agree with node:net's on every case here (they replace it on the boot path).

const CASES = [
  '0.0.0.0', '127.0.0.1', '192.168.1.20', '255.255.255.255', '256.1.1.1', '1.2.3', '1.2.3.4.5', '01.2.3.4', '1.2.3.04', '1..2.3', ' 1.2.3.4', '1.2.3.4 ', '',
  '::', '::1', '1::', 'fe80::1', 'fe80::1%eth0', 'fe80::1%', '2001:db8::8a2e:370:7334', '2001:0db8:0000:0000:0000:8a2e:0370:7334', '2001:db8:0:0:0:0:2:1',
  '1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8:9', '1:2:3:4:5:6:7', '1::2::3', ':::', ':1', '1:', '1:::2', '12345::', 'g::1', '::ffff:192.0.2.1', '::ffff:192.0.2.256',
  '1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5:6:7:1.2.3.4', '::1.2.3.4', '1.2.3.4::', '1:2:3:4:5:6:7::', '::2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8::', 'ABCD::EF01', 'localhost', 'a.b',
];

test('IP literals: the same answers as node:net for v4, v6, compressed, zoned and embedded forms', () => {
  for (const c of CASES) {
    assert.equal(isIPv4Literal(c), isIPv4(c), `v4 ${JSON.stringify(c)}`);
    assert.equal(isIPv6Literal(c), isIPv6(c), `v6 ${JSON.stringify(c)}`);
  }
});

test('IP literals: the same answers as node:net for random strings of address characters', () => {
  const chars = '0123456789abcdef:.%';
  let seed = 42;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  for (let k = 0; k < 20_000; k++) {
    let s = '';
    const n = 1 + Math.floor(rnd() * 20);
    for (let i = 0; i < n; i++) s += chars[Math.floor(rnd() * chars.length)];
    assert.equal(isIPv4Literal(s), isIPv4(s), `v4 ${JSON.stringify(s)}`);
    assert.equal(isIPv6Literal(s), isIPv6(s), `v6 ${JSON.stringify(s)}`);
  }
});
