import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeZlibIfReady } from '../util/lazy-builtins.js';
import { logger } from '../util/logger.js';
import { AppError } from '../util/errors.js';
import { RawReply, route, type RouteDef } from './route.js';
import { iconDataUrl } from './favicon.js';
import type { StaticAsset } from './static-asset.js';

const log = logger('ui');

/** Page entry names under ui/pages and the routes that serve them (spec part 1). */
export const UI_ROUTES: ReadonlyArray<{ path: string; page: string; lowPowerPage?: string }> = [
  { path: '/', page: 'home', lowPowerPage: 'lite' },
  { path: '/lite', page: 'lite' },
  { path: '/lite/settings', page: 'lite-settings' },
  { path: '/aprs', page: 'aprs' },
  { path: '/radio', page: 'radio' },
  { path: '/recordings', page: 'recordings' },
  { path: '/settings', page: 'settings', lowPowerPage: 'lite-settings' },
  { path: '/settings-v2', page: 'settings', lowPowerPage: 'lite-settings' },
  { path: '/kiosk-rotator', page: 'kiosk-rotator', lowPowerPage: 'lite' },
  { path: '/login', page: 'login' },
];

/**
 * API answers a page needs for its first frame, fetched by the browser while the page's script
 * loads (the script's first fetch then finds the answer on its way).
 */
const PRELOAD: Record<string, string[]> = {
  lite: ['/api/v1/lite/snapshot'],
};

interface PageEntry {
  js: string;
  css: string[];
  /** The chunks its script imports (code-split pages), preloaded with it. */
  imports?: string[];
}

interface Manifest {
  pages: Record<string, PageEntry & { js_gzip?: number; css_gzip?: number }>;
  /** Every chunk of the code-split pages: what they import at once and what they load on demand (a settings group). */
  chunks?: string[];
  sw?: { path: string; version: string };
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webmanifest': 'application/manifest+json',
};

export interface UiBundle {
  assets: Map<string, StaticAsset>;
  pages: Map<string, { html: Buffer; readonly gzip: Buffer | null }>;
  /** Each page's script and styles, for pages whose HTML is made elsewhere (/docs). */
  entries: Map<string, PageEntry>;
}

/** Below this a gzip twin saves too little to matter (build.mjs writes no twin either). */
const GZIP_MIN_BYTES = 512;

/**
 * A file of dist/ui read when first asked for, then kept: most stations serve one or two pages
 * (a kiosk one), and reading all ~100 files at boot was ~15 ms of CPU here (150 ms of a tenth of
 * a core) and ~0.75 MiB held for pages nobody opens. Null when it cannot be read (the request is
 * answered 500; the next one tries again).
 */
class UiFile {
  private bytes: Buffer | null = null;
  /** One warning per file, not one per request for it. */
  private warned = false;

  constructor(readonly path: string) {}

  read(): Buffer | null {
    if (this.bytes) return this.bytes;
    try {
      this.bytes = readFileSync(this.path);
    } catch (err) {
      if (!this.warned) log.warn(`UI file ${this.path} unreadable: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
      this.warned = true;
    }
    return this.bytes;
  }
}

/**
 * A file's gzip twin: the one build.mjs wrote beside it (`.gz`, level 9), else made when first
 * asked for. Compressing every asset after each boot was ~50 ms of CPU here, half a second of a
 * tenth of a core on the Pi, competing with the first requests; a page's HTML (made here from
 * the manifest) is a few KB at the default level, ~0.1 ms on its first request.
 */
class GzipTwin {
  private made: Buffer | null = null;
  private looked = false;

  constructor(
    private readonly body: () => Buffer | null,
    private readonly level: number,
    /** The twin build.mjs wrote, if any. */
    private readonly file: string | null,
    /** Bodies up to this size get no twin. */
    private readonly minBytes = 0,
  ) {}

  /** Null until zlib has been read: the first request for it is answered uncompressed. */
  get gzip(): Buffer | null {
    if (this.made) return this.made;
    if (this.file && !this.looked) {
      this.looked = true;
      if (existsSync(this.file)) return (this.made = new UiFile(this.file).read());
    }
    const body = this.body();
    if (!body || body.length <= this.minBytes) return null;
    return (this.made = nodeZlibIfReady()?.gzipSync(body, { level: this.level }) ?? null);
  }
}

/** dist/ui next to the bundle, or the repo's dist/ui when running from source. */
export function defaultUiDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, 'ui'), join(here, '..', '..', 'dist', 'ui'), join(process.cwd(), 'dist', 'ui')];
  return candidates.find((d) => existsSync(join(d, 'manifest.json'))) ?? candidates[0];
}

/** Reads the built pages and their gzip twins into memory once (they are small). */
export function loadUi(uiDir: string): UiBundle | null {
  const manifestPath = join(uiDir, 'manifest.json');
  if (!existsSync(manifestPath)) {
    log.warn(`no UI build at ${uiDir}; pages answer 503 until \`npm run build\``);
    return null;
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const assets = new Map<string, StaticAsset>();
  const addAsset = (urlPath: string, cacheControl = 'public, max-age=31536000, immutable') => {
    if (assets.has(urlPath)) return;
    const file = new UiFile(join(uiDir, urlPath.replace(/^\/(assets\/)?/, '')));
    const ext = urlPath.slice(urlPath.lastIndexOf('.'));
    const body = () => file.read();
    const twin = new GzipTwin(body, 9, `${file.path}.gz`, GZIP_MIN_BYTES);
    assets.set(urlPath, {
      get body() {
        return body();
      },
      get gzip() {
        return twin.gzip;
      },
      contentType: TYPES[ext] ?? 'application/octet-stream',
      cacheControl,
    });
  };
  const pages = new Map<string, { html: Buffer; readonly gzip: Buffer | null }>();
  const entries = new Map<string, PageEntry>();
  for (const c of manifest.chunks ?? []) addAsset(c);
  for (const [name, p] of Object.entries(manifest.pages)) {
    addAsset(p.js);
    for (const c of p.css) addAsset(c);
    entries.set(name, { js: p.js, css: p.css, imports: p.imports });
    const html = Buffer.from(pageHtml(name, p));
    const twin = new GzipTwin(() => html, -1, null);
    pages.set(name, {
      html,
      get gzip() {
        return twin.gzip;
      },
    });
  }
  // The service worker is unhashed (its URL is its identity) and revalidated on every load.
  if (manifest.sw) addAsset(manifest.sw.path, 'no-cache');
  return { assets, pages, entries };
}

/** The icon inline, so no page asks for it over the network (nothing to fail offline). */
export const ICON_HREF = iconDataUrl();

/**
 * A page's HTML: its script mounts into #app. `served` is HTML the server renders after #app
 * (the /docs route list), readable before and without the script.
 */
export function pageHtml(name: string, p: PageEntry, opts: { title?: string; served?: string } = {}): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="icon" href="${ICON_HREF}">${(PRELOAD[name] ?? []).map((u) => `<link rel="preload" href="${u}" as="fetch" crossorigin="anonymous">`).join('')}<meta name="theme-color" content="#0e1419">
<title>satstation · ${opts.title ?? name}</title>${p.css.map((c) => `<link rel="stylesheet" href="${c}">`).join('')}${(p.imports ?? []).map((c) => `<link rel="modulepreload" href="${c}">`).join('')}</head>
<body><div id="app" data-page="${name}"></div>${opts.served ?? ''}<script type="module" src="${p.js}"></script></body></html>`;
}

export function uiRoutes(ui: UiBundle | null, lowPower: boolean): RouteDef[] {
  return UI_ROUTES.map((r) => {
    const page = lowPower && r.lowPowerPage ? r.lowPowerPage : r.page;
    return route({
      method: 'GET',
      path: r.path,
      tag: 'ui',
      summary: `UI page "${page}"${r.lowPowerPage ? ` (low-power: "${r.lowPowerPage}")` : ''}`,
      handler: () => {
        const built = ui?.pages.get(page);
        if (!built) throw new AppError(503, 'ui_not_built', 'the UI has not been built; run `npm run build`', { page });
        return new RawReply(built.html, 'text/html; charset=utf-8', 200, { 'X-Page': page }, built.gzip);
      },
    });
  });
}
