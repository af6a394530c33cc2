import type CjsModule from 'node:module';
import { Script } from 'node:vm';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { CODE_CACHE_STATUS, type CodeCacheFlush, type CodeCacheStatus } from './code-cache-status.js';

// The server's entry, dist/server.cjs (issue 36): it requires dist/main.cjs with every script of
// dist/ compiled through a V8 code cache. At a tenth of a core the parse and compile of our code was
// a third of a second of the boot; from the cache V8 reads the compiled functions instead, the lazily
// compiled ones of the last boot included (the cache is made after boot, see src/main.ts).
//
// A cache never stops a start: a missing, unreadable or damaged file, or one made by another Node,
// V8 or set of flags, is compiled from source as if there were none (V8 checks its version, flags
// and the source's length and sets cachedDataRejected) and written anew. V8 does not check the
// source's content, so the directory is named after this build's own hash (define
// __SATSTATION_BUILD_ID__, build.mjs), Node's version and the architecture.
//
// Where: CODE_CACHE_DIR (`off` turns it off), else systemd's CACHE_DIRECTORY (the unit's
// CacheDirectory=), else DATA_DIR/code-cache.

declare const __SATSTATION_BUILD_ID__: string;

/**
 * Node's CommonJS Module class, from this module's own record: require('node:module') would read
 * Node's ESM loader and source-map support with it (~1.5 ms of a boot's CPU here), which a
 * CommonJS server never uses.
 */
const Module = module.constructor as unknown as typeof CjsModule;

const KEY = `${__SATSTATION_BUILD_ID__}-${process.version}-${process.arch}`;
/** An earlier build's directory, removed on the first write (and nothing else there). */
const OLD_KEY = /^[0-9a-f]{16}-v\d+\.\d+\.\d+-[a-z0-9]+$/;

function cacheRoot(env: NodeJS.ProcessEnv): string | null {
  const explicit = env.CODE_CACHE_DIR;
  if (explicit === 'off') return null;
  if (explicit) return resolve(explicit);
  const systemd = env.CACHE_DIRECTORY?.split(':')[0];
  if (systemd) return resolve(systemd);
  return resolve(env.DATA_DIR || './data', 'code-cache');
}

/** A script of dist/ this run compiled, and how many bytes of cache its file holds (0: none yet). */
interface Loaded {
  script: Script;
  file: string;
  bytes: number;
  /** A write was tried (a failed one is not retried by flush: one warning, not one a period). */
  tried: boolean;
}
const unwritten = (l: Loaded) => l.bytes === 0 && !l.tried;

const distDir = __dirname;
const root = cacheRoot(process.env);
const dir = root && join(root, KEY);
const loaded: Loaded[] = [];
let cleaned = false;

const status: CodeCacheStatus = {
  dir,
  fromCache: 0,
  compiled: 0,
  rejected: 0,
  pending: () => loaded.filter(unwritten).length,
  flush,
  grown: () => loaded.map((l) => () => write([l], true)),
  ahead: () => unloadedChunks().map((filename) => () => writeAhead(filename)),
};

function cacheFile(filename: string): string | null {
  return dir && join(dir, relative(distDir, filename).split(sep).join('+') + '.bin');
}

function readCache(file: string | null): Buffer | undefined {
  if (!file) return undefined;
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function flush(max = Infinity): CodeCacheFlush {
  return write(loaded.filter(unwritten).slice(0, max), false);
}

/**
 * Writes the cache of `list`; when `onlyGrown`, a script's only if this run compiled more of it than
 * its file holds (V8 puts every function compiled so far in the cache, the ones compiled lazily
 * after a start from the cache included).
 */
function write(list: Loaded[], onlyGrown: boolean): CodeCacheFlush {
  const out: CodeCacheFlush = { written: 0, bytes: 0, error: null };
  if (!dir || !root || !list.length) return out;
  try {
    mkdirSync(dir, { recursive: true });
    if (!cleaned) {
      cleaned = true;
      for (const name of readdirSync(root)) if (name !== KEY && OLD_KEY.test(name)) rmSync(join(root, name), { recursive: true, force: true });
    }
  } catch (err) {
    out.error = String((err as Error).message);
    return out;
  }
  for (const p of list) {
    p.tried = true;
    try {
      const data = p.script.createCachedData();
      if (onlyGrown && data.length <= p.bytes) continue;
      // Renamed into place: a reader (or a kill -9) never sees half a file.
      const tmp = `${p.file}.${process.pid}.tmp`;
      writeFileSync(tmp, data);
      renameSync(tmp, p.file);
      p.bytes = data.length;
      out.written++;
      out.bytes += data.length;
    } catch (err) {
      out.error ??= String((err as Error).message);
    }
  }
  return out;
}

/** Node's CommonJS wrapper with the source on its own line, so stack lines and columns are the file's. */
const HEAD = '(function (exports, require, module, __filename, __dirname) {\n';
const TAIL = '\n})';
const compileScript = (content: string, filename: string, cachedData?: Buffer) => new Script(HEAD + content + TAIL, { filename, lineOffset: -1, cachedData });

/** A cache file no script of this run was loaded through and none has written yet. */
const unwrittenAhead = (file: string): boolean => !loaded.some((l) => l.file === file) && !existsSync(file);

/** dist/chunks' scripts this run has not loaded and no cache file holds yet (an area never enabled). */
function unloadedChunks(): string[] {
  if (!dir) return [];
  try {
    const chunks = join(distDir, 'chunks');
    return readdirSync(chunks)
      .filter((n) => n.endsWith('.cjs'))
      .map((n) => join(chunks, n))
      .filter((f) => unwrittenAhead(cacheFile(f)!));
  } catch {
    return [];
  }
}

/**
 * Writes the cache of a chunk this run has not loaded, compiled (not run) now: its first load, the
 * operator's first enabling of its area, then reads the compiled top level and what V8 compiles
 * eagerly instead of parsing it all (~4× less CPU for dist/chunks measured here; the functions it
 * runs are compiled then and written at the next look, as for any script). Skipped when the chunk
 * was loaded or its file written meanwhile.
 */
function writeAhead(filename: string): CodeCacheFlush {
  const file = cacheFile(filename)!;
  if (!unwrittenAhead(file)) return { written: 0, bytes: 0, error: null }; // loaded or written meanwhile
  try {
    return write([{ script: compileScript(readFileSync(filename, 'utf8'), filename), file, bytes: 0, tried: false }], false);
  } catch (err) {
    return { written: 0, bytes: 0, error: String((err as Error).message) };
  }
}

type CompileFn = (this: CjsModule, content: string, filename: string) => unknown;
const proto = Module.prototype as unknown as { _compile: CompileFn };
const nodeCompile = proto._compile;
proto._compile = function compile(this: CjsModule, content: string, filename: string): unknown {
  if (!filename.startsWith(distDir + sep) || !filename.endsWith('.cjs')) return nodeCompile.call(this, content, filename);
  const file = cacheFile(filename);
  const cachedData = readCache(file);
  const script = compileScript(content, filename, cachedData);
  const accepted = cachedData !== undefined && !script.cachedDataRejected;
  if (accepted) status.fromCache++;
  else {
    status.compiled++;
    if (cachedData) status.rejected++;
  }
  if (file) loaded.push({ script, file, bytes: accepted ? cachedData.length : 0, tried: false });
  const fn = script.runInThisContext({ displayErrors: true }) as (...a: unknown[]) => unknown;
  return fn.call(this.exports, this.exports, Module.createRequire(filename), this, filename, dirname(filename));
};

(globalThis as Record<symbol, unknown>)[CODE_CACHE_STATUS] = status;
require('./main.cjs');
