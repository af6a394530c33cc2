// One esbuild bundle for the server (dist/server.mjs) plus native binaries for the target
// architecture in dist/native, one hashed entry per UI page in dist/ui, and the benchmarks
// (dist/bench.mjs, tinybench inside, with their data in dist/bench-data) so the appliance can run
// them from the artifact: `node dist/bench.mjs --quick`.
// Usage: node build.mjs [--arch x64|arm64|arm] [--out DIR] [--if-stale] [--ui-only] [--server-only] [--no-bench]
import { build, transform } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { composeMaps } from './src/native/compose-maps.mjs';
import { noSatelliteWasm } from './src/native/no-satellite-wasm.mjs';
import { noDebug } from './src/native/no-debug.mjs';
import { lazyPortList } from './src/native/lazy-port-list.mjs';
import { valibotLazyStandard } from './src/native/valibot-lazy-standard.mjs';
import { asciiOnly } from './src/native/ascii-only.mjs';
import { chunksInTurns, IN_TURNS_BANNER } from './src/native/chunks-in-turns.mjs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { cronLocalTime } from './src/native/cron-local-time.mjs';
import { UI_BUDGET } from './ui/build/budgets.mjs';

const root = dirname(fileURLToPath(import.meta.url));
const satelliteJsVersion = JSON.parse(readFileSync(join(root, 'node_modules/satellite.js/package.json'), 'utf8')).version;
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : def;
};
const arch = opt('--arch', process.arch);
const dist = resolve(root, opt('--out', 'dist'));
if (!['x64', 'arm64', 'arm'].includes(arch)) throw new Error(`--arch must be x64, arm64 or arm (got ${arch})`);

function newestMtime(p) {
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const n of readdirSync(p)) max = Math.max(max, newestMtime(join(p, n)));
  return max;
}

// The bench is part of a whole build (the installed artifact carries it), not of --server-only / --ui-only.
const withBench = !flag('--server-only') && !flag('--ui-only') && !flag('--no-bench');

if (flag('--if-stale')) {
  const out = join(dist, 'server.cjs');
  const inputs = ['src', 'ui', 'build.mjs', 'package-lock.json', 'package.json', ...(withBench ? ['bench'] : [])].map((p) => join(root, p)).filter(existsSync);
  const stamps = [out, join(dist, 'ui', 'manifest.json'), ...(withBench ? [join(dist, 'bench.mjs')] : [])];
  if (stamps.every(existsSync)) {
    const built = Math.min(...stamps.map((f) => statSync(f).mtimeMs));
    if (Math.max(...inputs.map(newestMtime)) <= built) process.exit(0);
  }
}

const sizes = [];
/**
 * Notes a built file's raw and gzip size (with its budget, if any) and returns the gzip size.
 * A list is a script and the chunks it imports: one line, their sizes summed (each gzipped alone,
 * as each is served).
 */
const record = (files, budget) => {
  const list = [files].flat();
  const bufs = list.map((f) => readFileSync(f));
  const gz = bufs.reduce((n, b) => n + gzipSync(b).length, 0);
  const label = relative(root, list[0]) + (list.length > 1 ? ` +${list.length - 1} chunk${list.length > 2 ? 's' : ''}` : '');
  sizes.push([label, bufs.reduce((n, b) => n + b.length, 0), gz, budget]);
  return gz;
};

// Node flags of the server bundle and dist/bench.mjs: require for the native addons; __dirname for
// serialport's binding loader (its path is ignored: gyp-build-bundled.cjs).
// A chunk of the server (dist/chunks/*.mjs) resolves from dist/ as the entry does, so a native shim
// finds ./native/ wherever the code that loads it was split to.
const nodeBanner =
  "import{createRequire as __cr}from'node:module';import{dirname as __dn}from'node:path';import{fileURLToPath as __fp}from'node:url';const __base=new URL(/\\/chunks\\/[^/]+$/.test(import.meta.url)?'../entry.mjs':import.meta.url,import.meta.url);const require=__cr(__base);const __dirname=__dn(__fp(__base));";

const nativeShims = {
  name: 'native-shims',
  setup(b) {
    b.onResolve({ filter: /^uWebSockets\.js$/ }, () => ({ path: join(root, 'src/native/uws-bundled.cjs') }));
    b.onResolve({ filter: /^node-gyp-build$/ }, () => ({ path: join(root, 'src/native/gyp-build-bundled.cjs') }));
  },
};

/** esbuild options every Node bundle of dist/ shares (server.mjs, bench.mjs). */
const nodeBundle = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node18',
  minify: true,
  sourcemap: true,
  legalComments: 'none',
  external: ['*.node', 'bufferutil', 'utf-8-validate'],
  banner: { js: nodeBanner },
  logLevel: 'warning',
};

/**
 * The server runs as CommonJS (issue 36, docs/decisions/latency.md): Node's CommonJS loader costs
 * less at boot than its ESM loader, and only CommonJS goes through our V8 code cache
 * (src/boot/code-cache-loader.ts) on Node 18 and 20. esbuild splits ESM only, so the server is split
 * as ESM in memory and each output converted, its map composed with the split's: the lazily loaded
 * areas stay files of their own (dist/chunks), read on first use, and every file shares the one
 * instance of a module through require's cache. dist/server.cjs is the entry: the cache's loader,
 * which requires dist/main.cjs.
 */
async function buildServer() {
  rmSync(join(dist, 'native'), { recursive: true, force: true });
  rmSync(join(dist, 'chunks'), { recursive: true, force: true });
  for (const f of ['server.mjs', 'server.mjs.map', 'worker.mjs', 'worker.mjs.map', 'pass-search.mjs.map']) rmSync(join(dist, f), { force: true });
  // Split: what the server imports lazily (radio control, the LAN transport, the APRS station and
  // its log, the serial binding) lands in dist/chunks and is read only when that area is first
  // enabled, Node built-ins they need included (src/util/lazy-part.ts).
  const result = await build({
    ...nodeBundle,
    banner: {},
    write: false,
    // Worker threads (src/util/worker-job.ts) run dist/worker.cjs; it shares the server's chunks.
    entryPoints: { main: join(root, 'src/main.ts'), worker: join(root, 'src/worker.ts') },
    outdir: dist,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.cjs' },
    // orbit/satrec-file.ts keys the SGP4 records it keeps by the satellite.js that made them.
    define: { 'import.meta.url': '__import_meta_url', __SATELLITE_JS_VERSION__: JSON.stringify(satelliteJsVersion) },
    metafile: true,
    plugins: [nativeShims, cronLocalTime, noSatelliteWasm, noDebug, lazyPortList, valibotLazyStandard],
  });
  const maps = new Map(result.outputFiles.filter((f) => f.path.endsWith('.map')).map((f) => [f.path.slice(0, -4), JSON.parse(f.text)]));
  const hash = createHash('sha256');
  const scripts = [];
  const outputs = result.metafile.outputs;
  for (const f of result.outputFiles.filter((o) => o.path.endsWith('.cjs'))) {
    const inChunks = relative(dist, f.path).startsWith('chunks');
    // The metafile's paths are relative to the working directory esbuild ran in.
    const key = relative(process.cwd(), f.path);
    const lazyChunks = !!outputs[key]?.imports.some((i) => i.kind === 'dynamic-import' && i.path.endsWith('.cjs'));
    const banner =
      // A chunk's __dirname is dist/, as the entry's is: the native shims load dist/native from it.
      (inChunks ? 'var __dirname=require("path").dirname(__dirname);' : '') +
      (f.text.includes('__import_meta_url') ? 'var __import_meta_url=require("url").pathToFileURL(__filename).href;' : '') +
      // A lazy area's chunks load one per turn (src/native/chunks-in-turns.mjs).
      (lazyChunks ? IN_TURNS_BANNER : '');
    const cjs = await transform(f.text, {
      format: 'cjs',
      platform: 'node',
      target: 'node18',
      minify: true,
      legalComments: 'none',
      // import() of a chunk becomes require: no ESM loader at run time, and the code cache's
      // scripts need no dynamic-import hook.
      supported: { 'dynamic-import': false },
      banner,
      sourcemap: 'external',
      sourcefile: f.path,
    });
    const name = basename(f.path);
    const turned = chunksInTurns(cjs.code, JSON.parse(cjs.map), key, outputs);
    const { code, map } = asciiOnly(turned.code, composeMaps(turned.map, maps.get(f.path), name));
    mkdirSync(dirname(f.path), { recursive: true });
    writeFileSync(f.path, `${code}//# sourceMappingURL=${name}.map\n`);
    writeFileSync(`${f.path}.map`, JSON.stringify(map));
    hash.update(relative(dist, f.path)).update(code);
    scripts.push(f.path);
  }
  writeFileSync(join(dist, 'server-meta.json'), JSON.stringify(result.metafile));
  // The code cache's directory is named after this id: V8 checks a cache against the source's
  // length, not its content.
  const buildId = hash.digest('hex').slice(0, 16);
  await build({
    ...nodeBundle,
    banner: {},
    format: 'cjs',
    sourcemap: false,
    entryPoints: [join(root, 'src/boot/code-cache-loader.ts')],
    outfile: join(dist, 'server.cjs'),
    external: ['./main.cjs'],
    define: { __SATSTATION_BUILD_ID__: JSON.stringify(buildId) },
  });
  record(join(dist, 'server.cjs'));
  for (const f of scripts) record(f);
  mkdirSync(join(dist, 'native'), { recursive: true });
  // uWebSockets.js: one binary per Node ABI (18 = 108, 20 = 115, 16 = 93) for the target arch.
  const uwsDir = join(root, 'node_modules/uWebSockets.js/binaries');
  for (const f of readdirSync(uwsDir).filter((f) => f.startsWith(`uws_linux_${arch}_`))) {
    copyFileSync(join(uwsDir, f), join(dist, 'native', f));
    record(join(dist, 'native', f));
  }
  // serialport: glibc prebuild for the target (armv7 on 32-bit Pi OS, armv8 on 64-bit).
  const spDir = join(root, 'node_modules/@serialport/bindings-cpp/prebuilds');
  const sp = { x64: 'linux-x64/@serialport+bindings-cpp.glibc.node', arm64: 'linux-arm64/@serialport+bindings-cpp.armv8.glibc.node', arm: 'linux-arm/@serialport+bindings-cpp.armv7.glibc.node' }[arch];
  copyFileSync(join(spDir, sp), join(dist, 'native', 'serialport.node'));
  record(join(dist, 'native', 'serialport.node'));
}

/**
 * dist/bench.mjs: bench/run.ts bundled like the server (same native shims, so uWebSockets.js and
 * serialport load from dist/native), tinybench inside. What the benches read from the repo at run
 * time comes along: deploy/satstation.service's text (its node flags and environment run the
 * bench's child processes) embedded through `define`, and the reference catalogs copied into
 * dist/bench-data. Its child processes are dist/bench.mjs itself (`--child …`) and the server it
 * spawns is dist/server.mjs beside it: no esbuild and no build step on the appliance.
 * (A separate esbuild run: sharing one with the server would change server.mjs, because the
 * modules the bench imports lazily get wrapped for lazy initialisation in every output.)
 */
async function buildBench() {
  // The same node-cron transform as the server's, without its onStart self-check (~2 s): the
  // server build of this same run makes that check.
  const cronTransformOnly = { name: 'cron-local-time (transform)', setup: (b) => cronLocalTime.setup(new Proxy(b, { get: (t, k) => (k === 'onStart' ? () => {} : t[k]) })) };
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const info = { unit: readFileSync(join(root, 'deploy/satstation.service'), 'utf8'), root: null, version, arch };
  await build({
    ...nodeBundle,
    entryPoints: [join(root, 'bench/run.ts')],
    outfile: join(dist, 'bench.mjs'),
    // esbuild is imported (lazily) only when the bench runs from the repo (bench/child-bundle.ts).
    external: [...nodeBundle.external, 'esbuild'],
    plugins: [nativeShims, cronTransformOnly],
    define: { __SATSTATION_BENCH__: JSON.stringify(info) },
  });
  const data = join(dist, 'bench-data');
  rmSync(data, { recursive: true, force: true });
  mkdirSync(data, { recursive: true });
  const files = [
    ['bench/data/active.tle.br', 'active.tle.br'],
    ['bench/data/stations.tle', 'stations.tle'],
    ['bench/data/satnogs-transmitters-active.json.br', 'satnogs-transmitters-active.json.br'],
    ['bench/data/README.md', 'README.md'],
    ['test/orbit/fixtures/amateur.tle', 'amateur.tle'],
  ];
  for (const [from, to] of files) copyFileSync(join(root, from), join(data, to));
  // Recorded after the UI's lines (the builds run side by side).
  return () => [join(dist, 'bench.mjs'), ...files.map(([, to]) => join(data, to))].forEach((f) => record(f));
}

/** Esbuild plugins for the pages (build-time data such as the world outline). */
async function uiPlugins() {
  const plugins = [];
  const outline = join(root, 'ui/build/world-outline.mjs');
  if (existsSync(outline)) plugins.push((await import(outline)).worldOutline());
  return plugins;
}

/**
 * Pages whose settings groups load on demand: built with code splitting, so each group
 * (ui/components/settings/groups/*) is a chunk of its own that the page imports when the group
 * is opened, and what they share (Preact, the forms) is a chunk too.
 */
const SPLIT_PAGES = ['settings.tsx', 'lite-settings.tsx'];
const GROUP_DIR = 'ui/components/settings/groups/';

/** `file` and every chunk it imports statically (what loading it costs), in load order. */
function closure(outputs, file, seen = new Set()) {
  if (seen.has(file)) return [];
  seen.add(file);
  const deps = outputs[file].imports.filter((i) => i.kind === 'import-statement').flatMap((i) => closure(outputs, i.path, seen));
  return [file, ...deps];
}

async function buildUi() {
  const uiOut = join(dist, 'ui');
  rmSync(uiOut, { recursive: true, force: true });
  const pages = readdirSync(join(root, 'ui/pages')).filter((f) => f.endsWith('.tsx'));
  const common = { bundle: true, minify: true, legalComments: 'none', logLevel: 'warning', target: ['es2020', 'chrome90', 'firefox90', 'safari14'] };
  const pageOptions = {
    ...common,
    outdir: uiOut,
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    format: 'esm',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    metafile: true,
    plugins: await uiPlugins(),
  };
  const entries = (list) => list.map((p) => join(root, 'ui/pages', p));
  const [whole, split] = await Promise.all([
    build({ ...pageOptions, entryPoints: entries(pages.filter((p) => !SPLIT_PAGES.includes(p))) }),
    build({ ...pageOptions, entryPoints: entries(SPLIT_PAGES), splitting: true, chunkNames: 'chunks/[name]-[hash]' }),
  ]);
  const outputs = { ...whole.metafile.outputs, ...split.metafile.outputs };
  const url = (f) => '/assets/' + relative(uiOut, join(root, f));
  const manifest = { pages: {}, groups: {}, chunks: [] };
  const over = [];
  /** Records a script with the chunks it imports, against the JS budget; returns its gzip. */
  const recordJs = (label, file) => {
    const files = closure(outputs, file);
    const js_gzip = record(files.map((f) => join(root, f)), UI_BUDGET.js_gzip);
    if (js_gzip > UI_BUDGET.js_gzip) over.push(`${label} JS ${js_gzip} B`);
    return { js: url(file), imports: files.slice(1).map(url), js_gzip };
  };
  const scripts = Object.entries(outputs).filter(([file, meta]) => meta.entryPoint && file.endsWith('.js'));
  const isGroup = ([, meta]) => meta.entryPoint.startsWith(GROUP_DIR);
  for (const [file, meta] of scripts.filter((s) => !isGroup(s))) {
    const name = meta.entryPoint.split('/').pop().replace(/\.tsx$/, '');
    const js = recordJs(name, file);
    const css_gzip = meta.cssBundle ? record(join(root, meta.cssBundle), UI_BUDGET.css_gzip) : 0;
    if (css_gzip > UI_BUDGET.css_gzip) over.push(`${name} CSS ${css_gzip} B`);
    manifest.pages[name] = { js: js.js, imports: js.imports, css: meta.cssBundle ? [url(meta.cssBundle)] : [], js_gzip: js.js_gzip, css_gzip };
  }
  // A group's CSS is in its pages' bundles (esbuild gathers the CSS of dynamic imports there):
  // its own CSS file would never be loaded, so it is checked against them and not shipped.
  const splitPages = Object.values(split.metafile.outputs).filter((meta) => meta.entryPoint && meta.cssBundle && !meta.entryPoint.startsWith(GROUP_DIR));
  const pageCss = splitPages.map((meta) => Object.keys(outputs[meta.cssBundle].inputs));
  for (const [file, meta] of scripts.filter(isGroup).sort(([, a], [, b]) => a.entryPoint.localeCompare(b.entryPoint))) {
    const id = meta.entryPoint.slice(GROUP_DIR.length).replace(/\.tsx?$/, '');
    manifest.groups[id] = recordJs(`settings group ${id}`, file);
    if (!meta.cssBundle) continue;
    const loose = Object.keys(outputs[meta.cssBundle].inputs).filter((css) => !pageCss.every((inputs) => inputs.includes(css)));
    if (loose.length) throw new Error(`settings group ${id}: its styles ${loose.join(', ')} are missing from a settings page's CSS`);
    rmSync(join(root, meta.cssBundle));
  }
  // Every chunk a page may import: the server serves them, the service worker keeps them.
  manifest.chunks = Object.keys(outputs).filter((f) => f.endsWith('.js') && !Object.values(manifest.pages).some((p) => p.js === url(f))).map(url);
  // The service worker keeps the app shell and the last API answers for offline use. It is
  // served unhashed at /sw.js (its scope is the whole site); its cache is named after this build.
  const assets = [...Object.values(manifest.pages).flatMap((p) => [p.js, ...p.css]), ...manifest.chunks];
  const version = createHash('sha256').update(JSON.stringify(assets)).digest('hex').slice(0, 12);
  await build({
    ...common,
    entryPoints: [join(root, 'ui/sw/sw.ts')],
    outfile: join(uiOut, 'sw.js'),
    format: 'iife',
    define: { __SW_VERSION__: JSON.stringify(version), __SW_ASSETS__: JSON.stringify(assets) },
  });
  record(join(uiOut, 'sw.js'));
  manifest.sw = { path: '/sw.js', version };
  writeFileSync(join(uiOut, 'manifest.json'), JSON.stringify(manifest, null, 2));
  writeGzipTwins(uiOut);
  return over;
}

/**
 * Each served file's level-9 gzip twin beside it (`app-X.js.gz`), made here once instead of on
 * the Pi after every boot, where it was ~0.5 s of a tenth of a core competing with the first
 * requests (src/http/ui-pages.ts reads the twins; a file without one is compressed on first ask).
 * Below GZIP_MIN_BYTES a twin saves too little to matter (the same bound as the server's).
 */
function writeGzipTwins(dir) {
  const GZIP_MIN_BYTES = 512;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) writeGzipTwins(p);
    else if (!name.endsWith('.gz') && !name.endsWith('.map') && name !== 'manifest.json') {
      const body = readFileSync(p);
      if (body.length > GZIP_MIN_BYTES) writeFileSync(`${p}.gz`, gzipSync(body, { level: 9 }));
    }
  }
}

const t0 = performance.now();
// The bench bundle builds alongside the server and the pages (esbuild runs them concurrently).
const bench = withBench ? buildBench() : null;
if (!flag('--ui-only')) await buildServer();
const over = flag('--server-only') ? [] : await buildUi();
if (bench) (await bench)();
const kb = (n) => (n / 1024).toFixed(1).padStart(8) + ' KiB';
console.log(`build (${arch}) in ${(performance.now() - t0).toFixed(0)} ms`);
console.log('file'.padEnd(56) + '     raw'.padStart(12) + '    gzip'.padStart(12) + '  budget (gzip)');
for (const [f, raw, gz, budget] of sizes) {
  const b = budget ? `${kb(budget)} ${gz <= budget ? 'ok' : 'OVER'}` : '';
  console.log(f.padEnd(56) + kb(raw) + kb(gz) + b);
}
if (over.length) {
  console.error(`UI budget exceeded: ${over.join(', ')}`);
  process.exit(1);
}
