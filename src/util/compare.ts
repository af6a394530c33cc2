/**
 * Plain code-unit ordering, case-folded. Not localeCompare: the first locale-aware call pages in
 * ~3 MiB of ICU data, and satellite names are ASCII.
 */
export function compareText(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
}
