// Build-time helper (build.mjs): the server's scripts are kept ASCII-only. V8 holds every script's
// source in the heap for as long as the process runs (lazy compilation, Function.prototype.toString),
// and one character above U+00FF anywhere makes the whole source a two-byte string: one `‘` in a
// regular expression of js-aprs-fap (esbuild escapes strings and templates, not regex literals)
// made the APRS station's 112 KB chunk 218 KiB of heap. Escaped, each such UTF-16 unit becomes
// `\uXXXX`, which means the same thing in a regex literal (with or without the u flag, a pair of
// surrogate escapes is one code point), a string, a template's value or an identifier's character
// of the BMP; the mappings after it on its line move by the five characters added. Not kept: a
// tagged template's raw text and an identifier's character beyond the BMP (neither is in the
// server's code; esbuild leaves only regex literals unescaped there today).
import { decodeMappings, encodeMappings } from './compose-maps.mjs';

const NON_ASCII = /[^\x00-\x7f]/;

/** `code` with every non-ASCII UTF-16 unit escaped, and `map` (a v3 source map of it) moved to match. */
export function asciiOnly(code, map) {
  if (!NON_ASCII.test(code)) return { code, map };
  const lines = code.split('\n');
  const segments = decodeMappings(map.mappings);
  for (let l = 0; l < lines.length; l++) {
    const line = lines[l];
    if (!NON_ASCII.test(line)) continue;
    let out = '';
    /** Generated columns of the escaped units, in the line as it was. */
    const at = [];
    for (let c = 0; c < line.length; c++) {
      const unit = line.charCodeAt(c);
      if (unit < 0x80) out += line[c];
      else {
        at.push(c);
        out += `\\u${unit.toString(16).padStart(4, '0')}`;
      }
    }
    lines[l] = out;
    for (const seg of segments[l] ?? []) seg[0] += 5 * countBelow(at, seg[0]);
  }
  return { code: lines.join('\n'), map: { ...map, mappings: encodeMappings(segments) } };
}

/** How many of the ascending `at` are below `col`. */
function countBelow(at, col) {
  let n = 0;
  while (n < at.length && at[n] < col) n++;
  return n;
}
