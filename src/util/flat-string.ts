// V8 keeps a concatenation, and JSON.stringify's answer, as a tree of its parts until something
// reads it by index: a ~500-character item text is ~6 heap objects, each walked by every major
// GC for as long as the text is kept. Reading one character makes V8 flatten the tree into one
// string in place (its collector then drops the tree's node): for texts kept long, not for ones
// sent and dropped. An engine that does not flatten here loses nothing but the saving.

/** Where the character read goes: a read whose result is unused may be dropped by the optimiser. */
let sink = 0;

/** `s`, flattened by V8 in place; call it on strings kept long (cache values and keys). */
export function flat(s: string): string {
  sink ^= s.charCodeAt(0) | 0;
  return s;
}

/**
 * A flat copy of `s` that holds nothing else: V8 cuts a slice of 13 characters or more as a view
 * of the whole string it was cut from, which then lives as long as the slice does (a line read
 * from a file keeps the file's text). Joining its first character to the rest and flattening the
 * join copies the characters out.
 */
export function ownCopy(s: string): string {
  return s.length < 2 ? s : flat(s[0] + s.slice(1));
}
