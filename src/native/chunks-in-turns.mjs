// Build-time helper (build.mjs): a lazy area's chunks are loaded one per turn of the event loop.
// The server's `import()` of a chunk becomes, in the CommonJS scripts, a `require` of it in one
// microtask, and that `require` runs every chunk the area imports statically with it: the radio
// area is 21 chunks (~80 KB), each read from disk, compiled from its code cache and run. At a
// tenth of a core that one turn was a 270–480 ms loop block in the Pi-speed run, the collector's
// steps inside it (docs/decisions/latency.md). Here each such site first waits for
// `__satInTurns`, which requires the chunks the area needs and the script has not loaded yet,
// dependencies first, each in a turn of its own after the asking one; the area's own chunk is then
// required by the site's own code, in a turn of its own too. A chunk already loaded costs no turn.
// A chunk that fails to load rejects the import, as the `require` would have.
import { posix } from 'node:path';
import { decodeMappings, encodeMappings } from './compose-maps.mjs';

/**
 * The run-time half, put in the banner of every script with such a site. `require` is the
 * script's own, so the paths are relative to it. A chunk that throws is not cached by Node, so
 * the next import tries it again.
 */
export const IN_TURNS_BANNER =
  'var __satInTurns=function(l){var n=l.length,i=0,r=require,' +
  'skip=function(){while(i<n&&r.cache[r.resolve(l[i])])i++};' +
  'return new Promise(function(ok,no){' +
  'var turn=function(){try{skip();if(i>=n-1)return ok();r(l[i++]);skip();if(i>=n)return ok();setImmediate(turn)}catch(e){no(e)}};' +
  'try{skip();if(i>=n)return ok()}catch(e){return no(e)}setImmediate(turn)})};';

/** esbuild's CommonJS form of `import("./x.cjs")` when dynamic import is not supported. */
const SITE = /Promise\.resolve\(\)(?=\.then\(\(\)=>[\w$]+\(require\("(\.\.?\/[^"]+\.cjs)"\)\)\))/g;

/**
 * `file` (a key of esbuild's metafile `outputs`) with each `import()` of a chunk rewritten to wait
 * for the chunks it needs, and `map` (a v3 source map of `code`) moved to match. Throws when the
 * metafile names a dynamic import of a chunk the code does not show as expected, or a cycle.
 * @param {string} code @param {{ mappings: string }} map @param {string} file
 * @param {Record<string, { imports: Array<{ path: string, kind: string }> }>} outputs
 */
export function chunksInTurns(code, map, file, outputs) {
  if (!outputs[file]) throw new Error(`chunks-in-turns: ${file} is not an output of the build's metafile`);
  const wanted = outputs[file].imports.filter((i) => i.kind === 'dynamic-import' && i.path.endsWith('.cjs'));
  if (wanted.length === 0) return { code, map, sites: 0 };
  const loaded = new Set(staticClosure(outputs, file));
  // The metafile's paths are POSIX and relative to esbuild's working directory, as are `file`'s.
  const dir = posix.dirname(file);
  const rel = (path) => {
    const r = posix.relative(dir, path);
    return r.startsWith('.') ? r : `./${r}`;
  };
  const segments = decodeMappings(map.mappings);
  const lineStarts = [0];
  for (let k = code.indexOf('\n'); k !== -1; k = code.indexOf('\n', k + 1)) lineStarts.push(k + 1);
  let out = '';
  let from = 0;
  let sites = 0;
  /** Columns added so far on each line. */
  const moved = new Map();
  for (const m of code.matchAll(SITE)) {
    const target = posix.join(dir, m[1]);
    if (!outputs[target]) throw new Error(`chunks-in-turns: ${file} imports ${m[1]}, not an output of the build`);
    const list = staticClosure(outputs, target).filter((c) => !loaded.has(c));
    const call = `__satInTurns(${JSON.stringify(list.map(rel))})`;
    out += code.slice(from, m.index) + call;
    from = m.index + m[0].length;
    // Mappings after the site on its line move by what the call adds (its column counted after
    // the earlier sites of the line have moved it).
    let line = lineStarts.length - 1;
    while (lineStarts[line] > m.index) line--;
    const col = m.index - lineStarts[line] + (moved.get(line) ?? 0);
    const delta = call.length - m[0].length;
    for (const seg of segments[line] ?? []) if (seg[0] > col) seg[0] += delta;
    moved.set(line, (moved.get(line) ?? 0) + delta);
    sites++;
  }
  if (sites !== wanted.length) throw new Error(`chunks-in-turns: ${file} has ${wanted.length} dynamic imports of chunks in its metafile, ${sites} found in its code`);
  out += code.slice(from);
  return { code: out, map: { ...map, mappings: encodeMappings(segments) }, sites };
}

/** `file` and every output it imports statically, dependencies before what imports them. */
function staticClosure(outputs, file, seen = new Set(), path = new Set()) {
  if (seen.has(file)) {
    if (path.has(file)) throw new Error(`chunks-in-turns: ${file} imports itself through its chunks; their order would change`);
    return [];
  }
  seen.add(file);
  path.add(file);
  const deps = outputs[file].imports.filter((i) => i.kind === 'import-statement' && outputs[i.path]).flatMap((i) => staticClosure(outputs, i.path, seen, path));
  path.delete(file);
  return [...deps, file];
}
