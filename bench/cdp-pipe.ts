// Chromium driven over the DevTools protocol on a pipe (--remote-debugging-pipe: commands on fd 3,
// replies and events on fd 4, each message JSON ended by a NUL byte). The bench ships in
// dist/bench.mjs with no node_modules beside it, so it cannot use playwright-core; the few
// commands a first-frame measurement needs are this small.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { Skip } from './harness.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

type Json = Record<string, unknown>;

export class CdpBrowser {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (r: any) => void; reject: (e: Error) => void; method: string }>();
  private exited = false;

  private constructor(
    private readonly proc: ChildProcess,
    private readonly profileDir: string,
  ) {
    const out = proc.stdio[4] as Readable;
    let buf = '';
    out.setEncoding('utf8').on('data', (chunk: string) => {
      buf += chunk;
      for (let end = buf.indexOf('\0'); end >= 0; end = buf.indexOf('\0')) {
        const msg = JSON.parse(buf.slice(0, end)) as { id?: number; result?: unknown; error?: { message: string } };
        buf = buf.slice(end + 1);
        const p = msg.id === undefined ? undefined : this.pending.get(msg.id);
        if (!p) continue; // an event: nothing here listens to events
        this.pending.delete(msg.id!);
        if (msg.error) p.reject(new Error(`${p.method}: ${msg.error.message}`));
        else p.resolve(msg.result);
      }
    });
    proc.once('exit', () => {
      this.exited = true;
      for (const p of this.pending.values()) p.reject(new Error(`Chromium exited during ${p.method}`));
      this.pending.clear();
    });
  }

  /** Headless Chromium with a throw-away profile; Skip when there is none. */
  static launch(): CdpBrowser {
    if (!existsSync(CHROMIUM)) throw new Skip(`no Chromium at ${CHROMIUM} (apt-get install chromium, or CHROMIUM_PATH)`);
    const profileDir = mkdtempSync(join(tmpdir(), 'satstation-bench-chromium-'));
    const proc = spawn(
      CHROMIUM,
      [
        '--headless', '--remote-debugging-pipe', `--user-data-dir=${profileDir}`, '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-extensions', 'about:blank',
      ],
      { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] },
    );
    return new CdpBrowser(proc, profileDir);
  }

  /** One command; `sessionId` addresses a page attached with Target.attachToTarget (flatten). */
  send<T = any>(method: string, params: Json = {}, sessionId?: string): Promise<T> {
    if (this.exited) return Promise.reject(new Error(`Chromium has exited (${method})`));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, method });
      (this.proc.stdio[3] as Writable).write(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }) + '\0');
    });
  }

  /** A page in a fresh browser context (no cache, no service worker, no storage from before). */
  async newPage(width: number, height: number): Promise<CdpPage> {
    const { browserContextId } = await this.send('Target.createBrowserContext');
    const { targetId } = await this.send('Target.createTarget', { url: 'about:blank', browserContextId });
    const { sessionId } = await this.send('Target.attachToTarget', { targetId, flatten: true });
    const page = new CdpPage(this, sessionId, browserContextId);
    await page.send('Page.enable');
    await page.send('Runtime.enable');
    await page.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
    return page;
  }

  async close(): Promise<void> {
    if (!this.exited) {
      const gone = new Promise((r) => this.proc.once('exit', r));
      await this.send('Browser.close').catch(() => this.proc.kill('SIGKILL'));
      await Promise.race([gone, new Promise((r) => setTimeout(r, 5000))]);
      if (!this.exited) this.proc.kill('SIGKILL');
    }
    rmSync(this.profileDir, { recursive: true, force: true });
  }
}

export class CdpPage {
  constructor(
    private readonly browser: CdpBrowser,
    private readonly sessionId: string,
    private readonly contextId: string,
  ) {}

  send<T = any>(method: string, params: Json = {}): Promise<T> {
    return this.browser.send<T>(method, params, this.sessionId);
  }

  /** The value of `expression` in the page (awaited when it is a promise). */
  async evaluate<T>(expression: string): Promise<T> {
    const r = await this.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) throw new Error(`in the page: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
    return r.result.value as T;
  }

  /** PNG of the viewport. */
  async screenshot(): Promise<Buffer> {
    const { data } = await this.send('Page.captureScreenshot', { format: 'png' });
    return Buffer.from(data, 'base64');
  }

  close(): Promise<unknown> {
    return this.browser.send('Target.disposeBrowserContext', { browserContextId: this.contextId });
  }
}
