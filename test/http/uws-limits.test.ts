// Pins requests uWebSockets.js 20.30's parser refuses before any JS runs. Its HttpParser only takes
// " HTTP/1.1" request lines, a Host header and at most 48 header lines; anything else stays in its
// fallback buffer, unanswered, until the 10 s idle timeout (uSockets ticks every 4 s: 8-14 s).
// Nothing in server.ts can see these requests (no App option, env var or connection hook in 20.30).
// If a uWS upgrade answers them, this test fails: update it and docs/decisions/http-and-api.md ("Requests uWS drops").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseResponses, rawExchange, suiteServer } from './raw.js';

const headers = (n: number) => Array.from({ length: n }, (_, i) => `X-H${i}: v\r\n`).join('');

describe('uWS 20.30 parser limits (pinned)', () => {
  const app = suiteServer();

  it('48 header lines (Host included) are still served', async () => {
    const r = await rawExchange(app.port, `GET /health HTTP/1.1\r\nHost: localhost\r\n${headers(47)}\r\n`, { untilResponses: 1 });
    assert.equal(parseResponses(r.text)[0].status, 200);
  });

  it('HTTP/1.0, no Host, 49+ header lines: no answer, closed by the idle timeout; others are served meanwhile', { timeout: 30_000 }, async () => {
    const cases: Record<string, string> = {
      'HTTP/1.0 with Host': 'GET /health HTTP/1.0\r\nHost: localhost\r\n\r\n',
      'HTTP/1.0 without Host': 'GET /health HTTP/1.0\r\n\r\n',
      'HTTP/1.1 without Host': 'GET /health HTTP/1.1\r\n\r\n',
      '49 header lines': `GET /health HTTP/1.1\r\nHost: localhost\r\n${headers(48)}\r\n`,
      '60 header lines': `GET /health HTTP/1.1\r\nHost: localhost\r\n${headers(59)}\r\n`,
    };
    const pending = Object.entries(cases).map(async ([name, bytes]) => ({ name, r: await rawExchange(app.port, bytes, { maxMs: 20_000 }) }));
    // While those are held, the server answers everyone else.
    await new Promise((res) => setTimeout(res, 1500));
    assert.equal((await app.s.get('/health')).status, 200);
    for (const { name, r } of await Promise.all(pending)) {
      assert.equal(r.text, '', `${name}: no bytes`);
      assert.equal(r.closed, true, `${name}: closed`);
      assert.ok(r.ms > 1500 && r.ms < 16_000, `${name}: closed after ${Math.round(r.ms)} ms, expected the 8-14 s idle timeout`);
    }
  });
});
