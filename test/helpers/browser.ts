import { existsSync, mkdirSync } from 'node:fs';
import { after, before } from 'node:test';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page, type Request } from 'playwright-core';
import { startServer, type TestServer } from './server.js';
import type { Config } from '../../src/config.js';
import { systemClock, type Clock } from '../../src/util/clock.js';

// Debian's Chromium through playwright-core (no browser download). Without it the browser
// tests skip locally with a reason; under CI (CI=true) a missing browser is a failure.

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = join(process.cwd(), 'test', 'artifacts');
export const VIEWPORTS = [
  { name: '480x320', width: 480, height: 320 },
  { name: '800x480', width: 800, height: 480 },
  { name: '1280x800', width: 1280, height: 800 },
] as const;

/** Why the browser tests cannot run here, or null when they can. Throws under CI. */
export function browserSkipReason(): string | null {
  if (existsSync(CHROMIUM)) return null;
  const why = `no Chromium at ${CHROMIUM} (apt-get install chromium)`;
  if (process.env.CI) throw new Error(why);
  return why;
}

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // Quiet on a closed network: no background fetches to Google's hosts.
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** What a page did wrong while loaded: console errors, uncaught exceptions, failed requests. */
export interface PageProblems {
  readonly errors: string[];
}

/** A page in a fresh context that records its console errors and failed requests. */
export async function openPage(
  browser: Browser,
  opts: { width: number; height: number; deviceScaleFactor?: number; serviceWorkers?: 'allow' | 'block' },
): Promise<{ context: BrowserContext; page: Page; problems: PageProblems }> {
  const context = await browser.newContext({ viewport: { width: opts.width, height: opts.height }, deviceScaleFactor: opts.deviceScaleFactor ?? 1, serviceWorkers: opts.serviceWorkers ?? 'block' });
  await delayApiAnswers(context);
  const page = await context.newPage();
  // Each problem with the document that saw it. A request aborted (net::ERR_ABORTED) counts only
  // while the document that issued it is still the page's: a poll in flight when a reload, a link
  // or a form submit replaces the document is cancelled by that navigation, not by a fault. Decided
  // when the errors are read, since Chromium may report the abort before the new document commits.
  const seen: { text: string; abortedIn?: number }[] = [];
  let documentNo = 0;
  const issuedIn = new WeakMap<Request, number>();
  page.on('framenavigated', (f) => {
    if (f === page.mainFrame()) documentNo++;
  });
  page.on('request', (r) => issuedIn.set(r, documentNo));
  const problems: PageProblems = {
    get errors() {
      return seen.filter((p) => p.abortedIn === undefined || p.abortedIn === documentNo).map((p) => p.text);
    },
  };
  page.on('console', (m) => {
    if (m.type() === 'error') seen.push({ text: `console: ${m.text()}` });
  });
  page.on('pageerror', (e) => seen.push({ text: `exception: ${e.message}` }));
  page.on('requestfailed', (r) => {
    const error = r.failure()?.errorText ?? '';
    seen.push({ text: `request failed: ${r.method()} ${r.url()} ${error}`, abortedIn: error === 'net::ERR_ABORTED' ? issuedIn.get(r) : undefined });
  });
  page.on('response', (r) => {
    if (r.status() >= 400) seen.push({ text: `HTTP ${r.status()}: ${r.request().method()} ${r.url()}` });
  });
  return { context, page, problems };
}

/**
 * PAGE_API_DELAY_MS=n holds every /api/ answer n ms on its way to the page (the server has
 * answered; the page waits). A flake hunt, off by default: the pages' live socket may bring a
 * change before the answer to the POST that made it, and a test that reads the page between the
 * two (a button still disabled while its action is in flight) fails here every time instead of
 * once in a full run. Two failures in this mode are its own: with any route in place Chromium
 * does not decode /favicon.ico in an <img> (docs-page), and a test that runs the page's clock
 * minutes ahead in a few real seconds sees fewer polls, each waiting for its held answer
 * (live-pages' fallback poll count).
 */
async function delayApiAnswers(context: BrowserContext): Promise<void> {
  const ms = Number(process.env.PAGE_API_DELAY_MS ?? 0);
  if (!(ms > 0)) return;
  await context.route(/\/api\//, async (route) => {
    const answer = await route.fetch().catch(() => null);
    if (!answer) return route.abort().catch(() => {});
    await new Promise((r) => setTimeout(r, ms));
    await route.fulfill({ response: answer }).catch(() => {});
  });
}

/** Writes test/artifacts/<name>.png (git-ignored), on every run. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: false });
}

/** True when nothing is wider than the viewport (usable at the size, and at 200% zoom). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/**
 * The real server for page tests. UI_DIR picks a UI build other than dist/ui (so parallel
 * work can build into its own folder: `node build.mjs --ui-only --out .tmp/x` then UI_DIR=.tmp/x/ui).
 */
export function startUiServer(opts: { now?: string; clock?: Clock; config?: Partial<Config>; dataDir?: string } = {}): Promise<TestServer> {
  const uiDir = process.env.UI_DIR ? resolve(process.env.UI_DIR) : null;
  // The pages' live socket paces on real time: "now" stays fixed, a change still reaches the page.
  return startServer({ ...opts, config: { uiDir, ...opts.config }, app: { eventsPacing: systemClock } });
}

/**
 * The real server and one Chromium for a describe block: registers its before/after hooks and
 * returns the handles (filled in once `before` has run). `setup` runs on the server first.
 */
export function serverAndBrowser(opts: Parameters<typeof startUiServer>[0], setup?: (s: TestServer) => Promise<unknown>): { s: TestServer; browser: Browser } {
  const env = {} as { s: TestServer; browser: Browser };
  before(async () => {
    env.s = await startUiServer(opts);
    await setup?.(env.s);
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    await env.s?.stop();
  });
  return env;
}
