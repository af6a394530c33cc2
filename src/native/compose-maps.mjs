// Build-time helper (build.mjs): the source map of a file made in two steps, the server's ESM split
// and its conversion to CommonJS (issue 36). `outer` maps the converted file to the split's output,
// `inner` that output to our sources; the result maps the converted file to our sources, so stack
// traces and profiles of dist/ still name src/ lines.
import { SourceMap } from 'node:module';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_INDEX = new Map([...B64].map((c, i) => [c, i]));

/** The segments of a VLQ "mappings" string: per generated line, arrays of absolute fields. */
export function decodeMappings(mappings) {
  const lines = [];
  const state = [0, 0, 0, 0, 0];
  for (const line of mappings.split(';')) {
    const segs = [];
    state[0] = 0;
    for (const text of line.split(',')) {
      if (!text) continue;
      const fields = [];
      let value = 0;
      let shift = 0;
      for (const c of text) {
        const digit = B64_INDEX.get(c);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      const seg = [];
      for (let i = 0; i < fields.length; i++) seg.push((state[i] += fields[i]));
      segs.push(seg);
    }
    lines.push(segs);
  }
  return lines;
}

function vlq(n) {
  let v = n < 0 ? (-n << 1) | 1 : n << 1;
  let out = '';
  do {
    let digit = v & 31;
    v >>>= 5;
    if (v) digit |= 32;
    out += B64[digit];
  } while (v);
  return out;
}

/** A "mappings" string from per-line segments of absolute fields. */
export function encodeMappings(lines) {
  const state = [0, 0, 0, 0, 0];
  return lines
    .map((segs) => {
      state[0] = 0;
      return segs
        .map((seg) => {
          let s = '';
          for (let i = 0; i < seg.length; i++) {
            s += vlq(seg[i] - state[i]);
            state[i] = seg[i];
          }
          return s;
        })
        .join(',');
    })
    .join(';');
}

/** `outer` (file → intermediate) through `inner` (intermediate → sources); `file` names the result. */
export function composeMaps(outer, inner, file) {
  const through = new SourceMap(inner);
  const sources = [];
  const sourceIndex = new Map();
  const names = [];
  const nameIndex = new Map();
  const indexOf = (list, index, key) => {
    let i = index.get(key);
    if (i === undefined) index.set(key, (i = list.push(key) - 1));
    return i;
  };
  const contents = new Map((inner.sources ?? []).map((s, i) => [s, inner.sourcesContent?.[i] ?? null]));
  const lines = decodeMappings(outer.mappings).map((segs) =>
    segs.flatMap((seg) => {
      if (seg.length < 4) return [];
      const e = through.findEntry(seg[2], seg[3]);
      if (!e || e.originalSource === undefined) return [];
      const out = [seg[0], indexOf(sources, sourceIndex, e.originalSource), e.originalLine, e.originalColumn];
      const name = e.name ?? (seg.length > 4 ? outer.names[seg[4]] : undefined);
      if (name) out.push(indexOf(names, nameIndex, name));
      return [out];
    }),
  );
  return { version: 3, file, sources, sourcesContent: sources.map((s) => contents.get(s) ?? null), names, mappings: encodeMappings(lines) };
}
