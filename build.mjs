// One esbuild bundle for the server (dist/server.mjs) plus native binaries for the target
// architecture in dist/native, and one hashed entry per UI page in dist/ui.
// Usage: node build.mjs [--arch x64|arm64|arm] [--out DIR] [--if-stale] [--ui-only] [--server-only]
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { cronLocalTime } from './src/native/cron-local-time.mjs';

const root = dirname(fileURLToPath(import.meta.url));
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

if (flag('--if-stale')) {
  const out = join(dist, 'server.mjs');
  const inputs = ['src', 'ui', 'build.mjs', 'package-lock.json', 'package.json'].map((p) => join(root, p)).filter(existsSync);
  const stamp = join(dist, 'ui', 'manifest.json');
  if (existsSync(out) && existsSync(stamp)) {
    const built = Math.min(statSync(out).mtimeMs, statSync(stamp).mtimeMs);
    if (Math.max(...inputs.map(newestMtime)) <= built) process.exit(0);
  }
}

const sizes = [];
const record = (file) => {
  const buf = readFileSync(file);
  sizes.push([relative(root, file), buf.length, gzipSync(buf).length]);
};

const nativeShims = {
  name: 'native-shims',
  setup(b) {
    b.onResolve({ filter: /^uWebSockets\.js$/ }, () => ({ path: join(root, 'src/native/uws-bundled.cjs') }));
    b.onResolve({ filter: /^node-gyp-build$/ }, () => ({ path: join(root, 'src/native/gyp-build-bundled.cjs') }));
  },
};

async function buildServer() {
  rmSync(join(dist, 'native'), { recursive: true, force: true });
  await build({
    entryPoints: [join(root, 'src/main.ts')],
    outfile: join(dist, 'server.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node18',
    minify: true,
    sourcemap: true,
    legalComments: 'none',
    external: ['*.node', 'bufferutil', 'utf-8-validate'],
    plugins: [nativeShims, cronLocalTime],
    banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
    logLevel: 'warning',
  });
  record(join(dist, 'server.mjs'));
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

async function buildUi() {
  const uiOut = join(dist, 'ui');
  rmSync(uiOut, { recursive: true, force: true });
  const pages = readdirSync(join(root, 'ui/pages')).filter((f) => f.endsWith('.tsx'));
  const result = await build({
    entryPoints: pages.map((p) => join(root, 'ui/pages', p)),
    outdir: uiOut,
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    bundle: true,
    format: 'esm',
    target: ['es2020', 'chrome90', 'firefox90', 'safari14'],
    minify: true,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const manifest = { pages: {} };
  for (const [file, meta] of Object.entries(result.metafile.outputs)) {
    if (!meta.entryPoint) continue;
    const name = meta.entryPoint.split('/').pop().replace(/\.tsx$/, '');
    const url = (f) => '/assets/' + relative(uiOut, join(root, f));
    manifest.pages[name] = { js: url(file), css: meta.cssBundle ? [url(meta.cssBundle)] : [] };
    record(join(root, file));
    if (meta.cssBundle) record(join(root, meta.cssBundle));
  }
  writeFileSync(join(uiOut, 'manifest.json'), JSON.stringify(manifest, null, 2));
}

const t0 = performance.now();
if (!flag('--ui-only')) await buildServer();
if (!flag('--server-only')) await buildUi();
const kb = (n) => (n / 1024).toFixed(1).padStart(8) + ' KiB';
console.log(`build (${arch}) in ${(performance.now() - t0).toFixed(0)} ms`);
console.log('file'.padEnd(56) + '     raw'.padStart(12) + '    gzip'.padStart(12));
for (const [f, raw, gz] of sizes) console.log(f.padEnd(56) + kb(raw) + kb(gz));
