#!/usr/bin/env node
// npm run test:arm [-- arm64 | arm]: builds the Pi artifacts (`node build.mjs --arch <arch>`) and
// boots each under qemu-user-static with Debian 12's own nodejs for that architecture, then checks
// /health, /api/v1/lite/snapshot and /api/v1/passes, and that the native uWebSockets.js and
// serialport binaries were loaded (the server's boot log, plus the host's /proc/<pid>/maps: qemu-user
// maps guest files with host mmap), and that SIGTERM ends it with exit code 0.
//
// nodejs and its runtime dependency closure come straight from deb.debian.org: signed InRelease
// (checked with gpgv against debian-archive-keyring) -> Packages.xz (sha256) -> .deb (sha256),
// unpacked with `dpkg-deb -x` into a private root under the cache (never over the host; no
// `dpkg --add-architecture`). The cache is $SATSTATION_ARM_CACHE, else $XDG_CACHE_HOME/satstation-arm,
// else ~/.cache/satstation-arm; a root is keyed by its package versions and reused across runs.
// Needs: qemu-user-static, dpkg-deb, xz, gpgv, debian-archive-keyring; network on the first run.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const TARGETS = {
  arm64: { debArch: 'arm64', qemu: 'qemu-aarch64-static', machine: 183 /* EM_AARCH64 */ },
  arm: { debArch: 'armhf', qemu: 'qemu-arm-static', machine: 40 /* EM_ARM */ },
};
const MIRROR = (process.env.SATSTATION_DEBIAN_MIRROR ?? 'https://deb.debian.org').replace(/\/$/, '');
// Bookworm's point release, its stable updates and its security archive: the newest nodejs of the three wins.
const SUITES = [
  { suite: 'bookworm', base: `${MIRROR}/debian` },
  { suite: 'bookworm-updates', base: `${MIRROR}/debian` },
  { suite: 'bookworm-security', base: `${MIRROR}/debian-security` },
];
const KEYRING = '/usr/share/keyrings/debian-archive-keyring.gpg';
const CACHE = process.env.SATSTATION_ARM_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'satstation-arm');
/** Emulated V8 is ~10-30x slower than native: boot, the pass table and SIGTERM get generous limits. */
const BOOT_TIMEOUT_MS = 240_000;
const REQUEST_TIMEOUT_MS = 240_000;
const STOP_TIMEOUT_MS = 30_000;

class Failure extends Error {}
const fail = (msg) => {
  throw new Failure(msg);
};
const secs = (ms) => (ms / 1000).toFixed(1);
const sha256 = (buf) => createHash('sha256').update(buf).digest('hex');
const say = (msg) => console.log(`arm: ${msg}`);

// ---------------------------------------------------------------------------------------------
// Preflight

function have(cmd) {
  return spawnSync('sh', ['-c', `command -v "$1"`, 'sh', cmd], { stdio: 'ignore' }).status === 0;
}

function preflight(arches) {
  const missing = [];
  for (const a of arches) if (!have(TARGETS[a].qemu)) missing.push(`${TARGETS[a].qemu} (apt-get install qemu-user-static)`);
  if (!have('dpkg-deb')) missing.push('dpkg-deb (apt-get install dpkg)');
  if (!have('xz')) missing.push('xz (apt-get install xz-utils)');
  if (!have('gpgv')) missing.push('gpgv (apt-get install gpgv)');
  if (!existsSync(KEYRING)) missing.push(`${KEYRING} (apt-get install debian-archive-keyring)`);
  if (missing.length) fail(`missing: ${missing.join('; ')}. Install qemu-user-static (CI installs it: .ci/run).`);
}

// ---------------------------------------------------------------------------------------------
// Downloads and the signed archive indices

async function download(url) {
  let last;
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(120_000) });
      if (!r.ok) throw Object.assign(new Error(`HTTP ${r.status}`), { status: r.status });
      return Buffer.from(await r.arrayBuffer());
    } catch (err) {
      last = err;
      if (err.status >= 400 && err.status < 500) break; // not there: asking again will not help
      if (attempt < 3) await new Promise((r) => setTimeout(r, 1000 * attempt));
    }
  }
  fail(`download ${url} failed: ${last?.message ?? last}`);
}

/** Downloads url to file unless file already has the expected sha256; verifies what it downloads. */
async function fetchVerified(urls, file, want) {
  if (existsSync(file) && sha256(readFileSync(file)) === want) return false;
  const errors = [];
  for (const url of [urls].flat()) {
    let buf;
    try {
      buf = await download(url);
    } catch (err) {
      errors.push(err.message);
      continue;
    }
    const got = sha256(buf);
    if (got !== want) {
      errors.push(`${url}: sha256 ${got}, the signed index says ${want}`);
      continue;
    }
    mkdirSync(dirname(file), { recursive: true });
    const part = `${file}.${process.pid}.part`; // runs sharing the cache never write the same file
    writeFileSync(part, buf);
    renameSync(part, file);
    return true;
  }
  fail(errors.join('; '));
}

/**
 * Each suite's InRelease, signature checked by gpgv; only the signed text is kept. With no network,
 * the last verified copy is used (so a warm cache runs offline). Returns suite -> {base, sha256 map}.
 */
async function fetchReleases() {
  const dir = join(CACHE, 'index');
  mkdirSync(dir, { recursive: true });
  const out = {};
  for (const { suite, base } of SUITES) {
    const verified = join(dir, `${suite}.Release`);
    let text;
    try {
      const signed = await download(`${base}/dists/${suite}/InRelease`);
      const raw = join(dir, `${suite}.InRelease.${process.pid}`);
      const part = `${verified}.${process.pid}.part`;
      writeFileSync(raw, signed);
      rmSync(part, { force: true });
      const g = spawnSync('gpgv', ['--keyring', KEYRING, '--output', part, raw], { encoding: 'utf8' });
      rmSync(raw, { force: true });
      if (g.status !== 0) fail(`${suite} InRelease: signature check failed:\n${g.stderr}`);
      renameSync(part, verified);
      text = readFileSync(verified, 'utf8');
    } catch (err) {
      if (!(err instanceof Failure) || !existsSync(verified) || /signature/.test(err.message)) throw err;
      say(`warning: ${err.message}; using the cached ${suite} index`);
      text = readFileSync(verified, 'utf8');
    }
    const hashes = new Map();
    const block = /^SHA256:\n((?: .*\n?)*)/m.exec(text);
    for (const line of (block?.[1] ?? '').split('\n')) {
      const m = /^\s*([0-9a-f]{64})\s+(\d+)\s+(\S+)$/.exec(line);
      if (m) hashes.set(m[3], m[1]);
    }
    out[suite] = { base, hashes, byHash: /^Acquire-By-Hash:\s*yes\s*$/im.test(text) };
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Debian versions, the Packages index and the dependency closure

/** dpkg's verrevcmp: ~ sorts before everything, letters before other symbols, digit runs numerically. */
function cmpFragment(a, b) {
  const isDigit = (c) => c !== undefined && c >= '0' && c <= '9';
  const order = (c) => (c === undefined || isDigit(c) ? 0 : /[A-Za-z]/.test(c) ? c.charCodeAt(0) : c === '~' ? -1 : c.charCodeAt(0) + 256);
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    while ((i < a.length && !isDigit(a[i])) || (j < b.length && !isDigit(b[j]))) {
      const d = order(a[i]) - order(b[j]);
      if (d) return d;
      i++;
      j++;
    }
    while (a[i] === '0') i++;
    while (b[j] === '0') j++;
    let first = 0;
    while (isDigit(a[i]) && isDigit(b[j])) {
      if (!first) first = a.charCodeAt(i) - b.charCodeAt(j);
      i++;
      j++;
    }
    if (isDigit(a[i])) return 1;
    if (isDigit(b[j])) return -1;
    if (first) return first;
  }
  return 0;
}

export function compareVersions(a, b) {
  const split = (v) => {
    const c = v.indexOf(':');
    const epoch = c >= 0 ? Number(v.slice(0, c)) : 0;
    const rest = c >= 0 ? v.slice(c + 1) : v;
    const h = rest.lastIndexOf('-');
    return [epoch, h >= 0 ? rest.slice(0, h) : rest, h >= 0 ? rest.slice(h + 1) : ''];
  };
  const [ea, ua, ra] = split(a);
  const [eb, ub, rb] = split(b);
  return ea - eb || cmpFragment(ua, ub) || cmpFragment(ra, rb);
}

function satisfies(version, op, want) {
  if (!op) return true;
  const c = compareVersions(version, want);
  return { '<<': c < 0, '<=': c <= 0, '=': c === 0, '>=': c >= 0, '>>': c > 0 }[op] ?? fail(`unknown relation ${op}`);
}

/** "a (>= 1) | b:any, c" -> [[{name:'a', op:'>=', ver:'1'}, {name:'b'}], [{name:'c'}]] */
function parseRelations(field) {
  if (!field) return [];
  return field.split(',').map((group) =>
    group.split('|').map((alt) => {
      const m = /^\s*([a-z0-9][a-z0-9+.-]*)(?::\S+)?\s*(?:\(\s*(<<|<=|=|>=|>>)\s*([^)\s]+)\s*\))?/.exec(alt);
      if (!m) fail(`cannot parse relation "${alt.trim()}"`);
      return { name: m[1], op: m[2], ver: m[3] };
    }),
  );
}

function parsePackages(text, suite, base, into) {
  for (const stanza of text.split(/\n\n+/)) {
    const f = {};
    let key = null;
    for (const line of stanza.split('\n')) {
      if (line.startsWith(' ') || line.startsWith('\t')) continue; // continuation: only Description has them
      const c = line.indexOf(':');
      if (c <= 0) continue;
      key = line.slice(0, c);
      if (['Package', 'Version', 'Depends', 'Pre-Depends', 'Provides', 'Filename', 'SHA256', 'Size'].includes(key)) f[key] = line.slice(c + 1).trim();
    }
    if (!f.Package || !f.Filename) continue;
    const list = into.get(f.Package) ?? [];
    list.push({ name: f.Package, version: f.Version, depends: [...parseRelations(f['Pre-Depends']), ...parseRelations(f.Depends)], provides: parseRelations(f.Provides).flat(), url: `${base}/${f.Filename}`, sha256: f.SHA256, size: Number(f.Size), suite });
    into.set(f.Package, list);
  }
}

/** nodejs and everything it Depends/Pre-Depends on, newest version across the suites. */
function closure(index) {
  const best = new Map();
  const providers = new Map();
  for (const [name, list] of index) {
    const top = list.reduce((a, b) => (compareVersions(b.version, a.version) > 0 ? b : a));
    best.set(name, top);
    for (const p of top.provides) providers.set(p.name, [...(providers.get(p.name) ?? []), { pkg: top, ver: p.ver }]);
  }
  const ok = (alt, pkgName) => {
    const p = best.get(pkgName);
    if (pkgName === alt.name && p && satisfies(p.version, alt.op, alt.ver)) return true;
    return (providers.get(alt.name) ?? []).some((v) => v.pkg.name === pkgName && (!alt.op || (v.ver && satisfies(v.ver, alt.op, alt.ver))));
  };
  const chosen = new Map();
  const queue = ['nodejs'];
  while (queue.length) {
    const name = queue.shift();
    if (chosen.has(name)) continue;
    const pkg = best.get(name) ?? fail(`${name} is in none of ${SUITES.map((s) => s.suite).join(', ')}`);
    chosen.set(name, pkg);
    for (const group of pkg.depends) {
      if (group.some((alt) => [...chosen.keys(), ...queue].some((n) => ok(alt, n)))) continue;
      const pick = group.flatMap((alt) => [alt.name, ...(providers.get(alt.name) ?? []).map((v) => v.pkg.name)]).find((n) => group.some((alt) => ok(alt, n)));
      if (!pick) fail(`${name} ${pkg.version}: nothing satisfies "${group.map((a) => `${a.name}${a.op ? ` (${a.op} ${a.ver})` : ''}`).join(' | ')}"`);
      queue.push(pick);
    }
  }
  // Every relation once more against the final set (a later pick can break an earlier one).
  for (const pkg of chosen.values()) {
    for (const group of pkg.depends) {
      if (!group.some((alt) => [...chosen.keys()].some((n) => ok(alt, n)))) fail(`${pkg.name}: "${group.map((a) => a.name).join(' | ')}" unsatisfied in the resolved set`);
    }
  }
  return [...chosen.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The package set for one architecture, resolved once per set of index hashes and cached. */
async function resolvePackages(arch, releases) {
  const { debArch } = TARGETS[arch];
  const files = [];
  for (const { suite } of SUITES) {
    const { base, hashes, byHash } = releases[suite];
    const path = `main/binary-${debArch}/Packages.xz`;
    const want = hashes.get(path) ?? fail(`${suite} InRelease lists no ${path}`);
    // by-hash first (as apt does): a mirror mid-update can serve a Packages.xz that is not its InRelease's.
    const dists = `${base}/dists/${suite}`;
    const urls = [...(byHash ? [`${dists}/${dirname(path)}/by-hash/SHA256/${want}`] : []), `${dists}/${path}`];
    const file = join(CACHE, 'index', `${suite}_${debArch}_Packages.xz`);
    try {
      await fetchVerified(urls, file, want);
    } catch (err) {
      // Only verified indices are used. Without the updates or security index the point release's
      // nodejs still boots the artifact; without bookworm itself there is nothing to test.
      if (!(err instanceof Failure) || suite === SUITES[0].suite) throw err;
      say(`warning: ${arch}: ${suite} ${path} could not be fetched matching its signed InRelease; resolving without ${suite} (${err.message})`);
      continue;
    }
    files.push({ suite, base, file, want });
  }
  const key = sha256(files.map((f) => `${f.suite} ${f.want}`).join('\n')).slice(0, 16);
  const dir = join(CACHE, arch);
  const resolved = join(dir, `packages-${key}.json`);
  if (existsSync(resolved)) return JSON.parse(readFileSync(resolved, 'utf8'));
  const index = new Map();
  for (const f of files) {
    const text = execFileSync('xz', ['-dc', f.file], { maxBuffer: 1 << 30 }).toString('utf8');
    parsePackages(text, f.suite, f.base, index);
  }
  const pkgs = closure(index).map(({ name, version, url, sha256, size, suite }) => ({ name, version, url, sha256, size, suite }));
  mkdirSync(dir, { recursive: true });
  for (const n of readdirSync(dir)) if (n.startsWith('packages-')) rmSync(join(dir, n), { force: true });
  writeFileSync(resolved, JSON.stringify(pkgs, null, 1));
  return pkgs;
}

/** Bumped when the way a root is laid out changes, so cached roots of the old layout are not reused. */
const ROOT_LAYOUT = 'usrmerge-1';

/**
 * /lib, /bin, /sbin -> usr/..., as on an installed Debian 12. Not only for fidelity: 32-bit glibc
 * stats library directories with statx, which qemu-user 7.2 does not redirect under -L, so ld.so
 * drops <root>/lib/arm-linux-gnueabihf as missing and libc.so.6 is only found in /usr/lib.
 */
function usrMerge(root) {
  for (const d of ['bin', 'sbin', 'lib']) {
    const top = join(root, d);
    if (!existsSync(top) || lstatSync(top).isSymbolicLink()) continue;
    mkdirSync(join(root, 'usr', d), { recursive: true });
    execFileSync('cp', ['-a', `${top}/.`, join(root, 'usr', d)]);
    rmSync(top, { recursive: true });
    symlinkSync(`usr/${d}`, top);
  }
}

/** A private root with the packages unpacked (dpkg-deb -x), keyed by the package versions. */
async function prepareRoot(arch, pkgs) {
  const dir = join(CACHE, arch);
  const key = sha256([ROOT_LAYOUT, ...pkgs.map((p) => `${p.name}=${p.version}`)].join('\n')).slice(0, 16);
  const root = join(dir, `root-${key}`);
  const marker = join(root, '.satstation-root');
  const cached = existsSync(marker);
  if (!cached) {
    mkdirSync(dir, { recursive: true });
    const debs = mkdtempSync(join(dir, 'debs-'));
    const partial = mkdtempSync(join(dir, `partial-${key}-`));
    try {
      for (const p of pkgs) {
        const file = join(debs, basename(p.url));
        await fetchVerified(p.url, file, p.sha256);
        execFileSync('dpkg-deb', ['-x', file, partial], { stdio: ['ignore', 'ignore', 'pipe'] });
      }
      usrMerge(partial);
      writeFileSync(join(partial, '.satstation-root'), pkgs.map((p) => `${p.name} ${p.version} ${p.suite}`).join('\n') + '\n');
      try {
        renameSync(partial, root);
      } catch (err) {
        if (!existsSync(marker)) throw err; // else another run finished the same root first
      }
    } finally {
      // The root is the cache; the .debs are not kept (the big ones change together with the root anyway).
      rmSync(debs, { recursive: true, force: true });
      rmSync(partial, { recursive: true, force: true });
    }
    // Roots of other versions go, and leftovers of interrupted runs once they are an hour old.
    const hourAgo = Date.now() - 3600_000;
    for (const n of readdirSync(dir)) {
      const p = join(dir, n);
      if (/^root-[0-9a-f]{16}$/.test(n) ? n !== `root-${key}` : /^(partial|debs)-/.test(n) && lstatSync(p).mtimeMs < hourAgo) rmSync(p, { recursive: true, force: true });
    }
  }
  if (!existsSync(join(root, 'usr/bin/node'))) fail(`${root}: no usr/bin/node after unpacking nodejs`);
  return { root, cached };
}

// ---------------------------------------------------------------------------------------------
// Build, boot, check

/** Variables a service gets only from its unit (bench/child-bundle.ts's RUNTIME_VAR). */
const RUNTIME_VAR = /^(NODE_|UV_|MALLOC_|OPENSSL_)|^(GLIBC_TUNABLES|LD_PRELOAD)$/;

/** Node flags and tuning environment of deploy/satstation.service's ExecStart (as bench/child-bundle.ts reads them). */
function deployedRuntime() {
  const unit = readFileSync(join(ROOT, 'deploy/satstation.service'), 'utf8');
  const exec = /^ExecStart=\S*node\s+(.*?)\s*\S+\.[cm]?js\b/m.exec(unit);
  const env = {};
  for (const m of unit.matchAll(/^Environment=("?)([A-Za-z_][A-Za-z0-9_]*)=(.*)\1\s*$/gm)) {
    if (!['DATA_DIR', 'PORT', 'HOST'].includes(m[2])) env[m[2]] = m[3];
  }
  if (!exec) fail('deploy/satstation.service: no ExecStart=/usr/bin/node <flags> <script> line');
  return { flags: exec[1].split(/\s+/).filter(Boolean), env };
}

function build(arch, out) {
  const r = spawnSync(process.execPath, ['build.mjs', '--arch', arch, '--out', out, '--server-only'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) fail(`node build.mjs --arch ${arch} failed (exit ${r.status}):\n${r.stdout}${r.stderr}`);
  const native = join(out, 'native');
  for (const f of readdirSync(native)) {
    const machine = readFileSync(join(native, f)).readUInt16LE(18);
    if (machine !== TARGETS[arch].machine) fail(`${f}: ELF machine ${machine}, expected ${TARGETS[arch].machine} for ${arch}`);
  }
}

async function getJson(base, path) {
  let r;
  try {
    r = await fetch(base + path, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch (err) {
    fail(`GET ${path}: ${err.message}`);
  }
  const text = await r.text();
  if (r.status !== 200) fail(`GET ${path}: HTTP ${r.status} ${text.slice(0, 300)}`);
  try {
    return JSON.parse(text);
  } catch {
    fail(`GET ${path}: not JSON: ${text.slice(0, 300)}`);
  }
}

const check = (cond, msg) => cond || fail(msg);
/** src/native/uws-bundled.cjs's warning when the native binary does not load. */
const fellBack = (line) => /fallback/i.test(line);
const isTime = (s) => typeof s === 'string' && Number.isFinite(Date.parse(s));

/**
 * Boots dist/server.cjs on the arch's own node and checks it serves. `cache`: the V8 code cache it
 * must start with (src/boot/code-cache-loader.ts): 'none' (every script compiled from source, the
 * cache written at the stop) or 'cached' (every script from the cache the run before wrote).
 */
async function bootAndCheck(arch, root, dist, work, data, cache) {
  const rt = deployedRuntime();
  // The unit's environment, as bench/child-bundle.ts's unitEnv makes it: the host's variables that
  // tune Node, libuv, glibc's allocator or OpenSSL are not the appliance's (a host's
  // NODE_EXTRA_CA_CERTS is a CA bundle parsed at every start, emulated); and no systemd
  // notifications from the guest.
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (!RUNTIME_VAR.test(k) && !['NOTIFY_SOCKET', 'WATCHDOG_USEC', 'WATCHDOG_PID'].includes(k)) env[k] = v;
  Object.assign(env, rt.env, { PORT: '0', HOST: '127.0.0.1', DATA_DIR: data, LOG_LEVEL: 'info' });
  const args = ['-L', root, join(root, 'usr/bin/node'), ...rt.flags, join(dist, 'server.cjs')];
  say(`${arch}: ${TARGETS[arch].qemu} -L <root> <root>/usr/bin/node ${rt.flags.join(' ')} dist/server.cjs`);
  const t0 = performance.now();
  const child = spawn(TARGETS[arch].qemu, args, { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = [];
  let port = 0;
  let exited = null;
  const exit = new Promise((res) => child.on('exit', (code, signal) => res((exited = { code, signal }))));
  child.on('error', (err) => output.push(`spawn error: ${err.message}`));
  const onData = (buf) => {
    for (const line of buf.toString().split('\n')) {
      if (!line) continue;
      output.push(line);
      console.log(`  [${arch}] ${line}`);
      const m = /listening on [^ ]+:(\d+)/.exec(line);
      if (m) port = Number(m[1]);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const killOnExit = () => child.kill('SIGKILL');
  process.on('exit', killOnExit);
  try {
    const base = () => `http://127.0.0.1:${port}`;
    let healthMs = -1;
    while (performance.now() - t0 < BOOT_TIMEOUT_MS) {
      if (exited) fail(`server exited during boot (code ${exited.code}, signal ${exited.signal})`);
      if (output.some(fellBack)) fail('the server fell back to the pure-Node uWebSockets.js (see "fallback" above)');
      if (port) {
        try {
          if ((await fetch(base() + '/health', { signal: AbortSignal.timeout(10_000) })).ok) {
            healthMs = performance.now() - t0;
            break;
          }
        } catch {
          /* not yet */
        }
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    if (healthMs < 0) fail(`no /health answer within ${secs(BOOT_TIMEOUT_MS)} s`);

    const cacheLine = output.find((l) => /code cache \//.test(l)) ?? fail('no "code cache <dir>: …" line in the boot log');
    const [fromCache, compiled] = (/: (\d+) scripts from it, (\d+) compiled/.exec(cacheLine) ?? fail(`unexpected: ${cacheLine}`)).slice(1).map(Number);
    if (cache === 'none') check(fromCache === 0 && compiled > 0, `a first boot compiles from source: ${cacheLine}`);
    else check(compiled === 0 && fromCache > 0, `a boot after a written cache compiles nothing: ${cacheLine}`);

    const health = await getJson(base(), '/health');
    check(health.ok === true && isTime(health.timestamp), `/health: unexpected ${JSON.stringify(health)}`);

    const lite = await getJson(base(), '/api/v1/lite/snapshot');
    check(isTime(lite.timestamp), '/api/v1/lite/snapshot: no timestamp');
    for (const k of ['trackedSatIds', 'tracks', 'passes']) check(Array.isArray(lite[k]), `/api/v1/lite/snapshot: ${k} is not an array`);
    check(lite.tracks.length > 0, '/api/v1/lite/snapshot: no tracks');
    for (const t of lite.tracks) {
      check(typeof t.sat_id === 'string' && Number.isFinite(t.az_deg) && Number.isFinite(t.el_deg) && t.el_deg >= -90 && t.el_deg <= 90, `/api/v1/lite/snapshot: bad track ${JSON.stringify(t)}`);
    }

    const passes = await getJson(base(), '/api/v1/passes?hours=24');
    check(passes.hours === 24 && Array.isArray(passes.items) && passes.count === passes.items.length, `/api/v1/passes: unexpected head ${JSON.stringify({ ...passes, items: undefined })}`);
    check(passes.count > 0, '/api/v1/passes: no passes in 24 h');
    for (const p of passes.items) {
      check(typeof p.sat_id === 'string' && isTime(p.aos) && isTime(p.los) && Date.parse(p.aos) < Date.parse(p.los) && p.max_el_deg >= 0 && p.max_el_deg <= 90, `/api/v1/passes: bad pass ${JSON.stringify(p).slice(0, 300)}`);
    }
    // The serial binding loads on first use (src/links/lazy-serial-driver.ts): a port listing loads it.
    const ports = await getJson(base(), '/api/v1/radio/ports');
    check(Array.isArray(ports.items), `/api/v1/radio/ports: unexpected ${JSON.stringify(ports).slice(0, 200)}`);
    const checksMs = performance.now() - t0;

    // Native binaries: the server's own word...
    const loaded = (what) => {
      const line = output.find((l) => l.includes(`[native] ${what} loaded `));
      return line ? line.slice(line.indexOf(' loaded ') + 8).trim() : null;
    };
    if (output.some(fellBack)) fail('the server fell back to the pure-Node uWebSockets.js (see "fallback" above)');
    const uws = loaded('uWebSockets.js') ?? fail('no "[native] uWebSockets.js loaded" line in the boot log');
    const sp = loaded('serialport') ?? fail('no "[native] serialport loaded" line in the log after a port listing');
    const nativeDir = join(dist, 'native');
    check(dirname(uws) === nativeDir && new RegExp(`^uws_linux_${arch}_\\d+\\.node$`).test(basename(uws)), `uWebSockets.js came from ${uws}, not ${nativeDir}/uws_linux_${arch}_*.node`);
    check(sp === join(nativeDir, 'serialport.node'), `serialport came from ${sp}, not ${nativeDir}/serialport.node`);
    // ...and the host's: qemu-user maps guest files with host mmap, so they show in its maps.
    let maps = null;
    try {
      maps = readFileSync(`/proc/${child.pid}/maps`, 'utf8');
    } catch (err) {
      say(`${arch}: /proc/${child.pid}/maps unreadable (${err.message}); relying on the boot log`);
    }
    let evidence = 'boot log';
    if (maps !== null) {
      const mapped = new Set(maps.split('\n').map((l) => l.split(/\s+/).slice(5).join(' ')).filter(Boolean));
      for (const f of [uws, sp]) check(mapped.has(f), `${f} is logged as loaded but not mapped in /proc/${child.pid}/maps`);
      const libnode = [...mapped].find((p) => p.startsWith(root) && /\/libnode\.so/.test(p));
      check(libnode, `no libnode from the ${arch} root mapped in /proc/${child.pid}/maps: is this Debian's ${arch} node?`);
      evidence = `boot log and /proc/${child.pid}/maps, with ${basename(libnode)}`;
    }
    say(`${arch}: native ${basename(uws)} and ${basename(sp)} loaded (${evidence})`);

    const s0 = performance.now();
    child.kill('SIGTERM');
    const stopped = await Promise.race([exit, new Promise((r) => setTimeout(() => r(null), STOP_TIMEOUT_MS).unref())]);
    if (!stopped) fail(`still running ${secs(STOP_TIMEOUT_MS)} s after SIGTERM`);
    if (stopped.code !== 0) fail(`exit after SIGTERM: code ${stopped.code}, signal ${stopped.signal} (expected 0)`);
    if (cache === 'none') check(output.some((l) => /code cache: \d+ scripts written/.test(l)), 'the code cache was not written at the stop');
    say(`${arch} (code cache: ${cache}): /health after ${secs(healthMs)} s, checks done at ${secs(checksMs)} s, SIGTERM -> exit 0 in ${secs(performance.now() - s0)} s`);
    return performance.now() - t0;
  } catch (err) {
    if (!exited) child.kill('SIGKILL');
    throw err;
  } finally {
    process.off('exit', killOnExit);
  }
}

// ---------------------------------------------------------------------------------------------

let work = null;

async function main() {
  const arches = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  for (const a of arches) if (!TARGETS[a]) fail(`unknown arch ${a} (arm64 or arm)`);
  const wanted = arches.length ? arches : Object.keys(TARGETS);
  preflight(wanted);
  work = mkdtempSync(join(tmpdir(), 'satstation-arm-'));
  const tr = performance.now();
  const releases = await fetchReleases();
  say(`Debian indices (${SUITES.map((s) => s.suite).join(', ')}) checked in ${secs(performance.now() - tr)} s; cache ${CACHE}`);
  for (const arch of wanted) {
    const t0 = performance.now();
    const pkgs = await resolvePackages(arch, releases);
    const { root, cached } = await prepareRoot(arch, pkgs);
    const node = pkgs.find((p) => p.name === 'nodejs');
    say(`${arch}: Debian ${TARGETS[arch].debArch} nodejs ${node.version} (${node.suite}) + ${pkgs.length - 1} packages, root ${cached ? 'reused' : 'unpacked'} in ${secs(performance.now() - t0)} s: ${root}`);
    const tb = performance.now();
    const dist = join(work, arch, 'dist');
    build(arch, dist);
    say(`${arch}: built ${dist} in ${secs(performance.now() - tb)} s`);
    // Twice on one data folder: without a code cache, then from the one the first boot wrote.
    const data = mkdtempSync(join(work, `data-${arch}-`));
    const cold = await bootAndCheck(arch, root, dist, work, data, 'none');
    const warm = await bootAndCheck(arch, root, dist, work, data, 'cached');
    say(`${arch} boot+checks in ${secs(cold)} s without a code cache, ${secs(warm)} s from it`);
  }
  rmSync(work, { recursive: true, force: true });
}

try {
  await main();
} catch (err) {
  console.error(`arm: FAILED: ${err instanceof Failure ? err.message : (err?.stack ?? err)}`);
  if (work) console.error(`arm: work dir kept: ${work}`);
  process.exit(1);
}
