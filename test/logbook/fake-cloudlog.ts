// A Cloudlog stand-in on 127.0.0.1 for the push driver tests, answering as Cloudlog's
// Api.php::qso does (and, with `flavour: 'wavelog'`, as Wavelog's): key and station checks with
// 401, duplicate detection on call + minute + band + mode, 201 {status:"created"}. `outage`
// switches it to 500s, `hang` to never answering, so the driver's transient paths are real.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readAdif } from './adif-reader.js';

export interface FakeCloudlog {
  base: string;
  /** QSOs it holds, as parsed ADIF fields. */
  logged: Array<Record<string, string>>;
  /** Every request body as received. */
  requests: Array<{ path: string; contentType: string | undefined; body: unknown }>;
  mode: 'ok' | 'outage' | 'hang';
  flavour: 'cloudlog' | 'wavelog';
  close(): Promise<void>;
}

export async function startFakeCloudlog(opts: { key: string; stationProfileId: string }): Promise<FakeCloudlog> {
  const hanging = new Set<ServerResponse>();
  const fake: FakeCloudlog = { base: '', logged: [], requests: [], mode: 'ok', flavour: 'cloudlog', close: async () => {} };
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const handle = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    if (req.url !== '/index.php/api/qso' || req.method !== 'POST') {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html><body>404 Page Not Found</body></html>');
      return;
    }
    let obj: Record<string, unknown> | null = null;
    try {
      obj = JSON.parse(raw);
    } catch {
      obj = null;
    }
    fake.requests.push({ path: req.url, contentType: req.headers['content-type'], body: obj });
    if (fake.mode === 'hang') {
      hanging.add(res);
      return;
    }
    if (fake.mode === 'outage') {
      res.writeHead(500, { 'content-type': 'text/html', 'retry-after': '30' });
      res.end('<h1>A Database Error Occurred</h1>');
      return;
    }
    if (!obj) return send(res, 200, { status: 'failed', reason: 'wrong JSON' });
    if (obj.key !== opts.key) return send(res, 401, { status: 'failed', reason: 'missing api key' });
    if (obj.station_profile_id !== opts.stationProfileId) return send(res, 401, { status: 'failed', reason: 'station id does not belong to the API key owner.' });
    if (obj.type !== 'adif' || !obj.string) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end();
      return;
    }
    const messages: string[] = [];
    let imported = 0;
    for (const r of readAdif(String(obj.string)).records) {
      if (!r.CALL) return send(res, 401, { status: 'failed', reason: 'QSO Call is empty.' });
      const dupe = fake.logged.some((l) => l.CALL === r.CALL && l.QSO_DATE === r.QSO_DATE && l.TIME_ON.slice(0, 4) === r.TIME_ON.slice(0, 4) && l.BAND === r.BAND && l.MODE === r.MODE);
      if (dupe) messages.push(`Date/Time: ${r.QSO_DATE} ${r.TIME_ON} Callsign: ${r.CALL} Band: ${r.BAND}  Duplicate<br>`);
      else {
        fake.logged.push(r);
        imported++;
      }
    }
    if (fake.flavour === 'wavelog') {
      if (messages.length) return send(res, 400, { status: 'abort', type: 'adif', string: '', adif_count: 1, adif_errors: 1, messages: ['', messages.join('')] });
      return send(res, 201, { status: 'created', type: 'adif', string: '', adif_count: 1, adif_errors: 0, messages: [''] });
    }
    send(res, 201, { status: 'created', type: 'adif', string: obj.string, imported_count: imported, messages });
  };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (raw += c));
    req.on('end', () => handle(req, res, raw));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
