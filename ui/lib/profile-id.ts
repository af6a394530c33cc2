// A location profile's id, made from the name the operator gave it: the API wants 1–32 letters,
// digits, _ or - (starting with a letter or digit), unique among the profiles. Pure.

const MAX_ID = 32;

/** "Field day, Dobratsch" → "field-day-dobratsch"; a name with nothing latin in it → "place". */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // the accents NFKD split off: "Zürich" → "zurich"
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug === '' ? 'place' : slug;
}

/** The id for a new profile called `name`: its slug, with -2, -3… when that id is taken. */
export function profileIdFor(name: string, taken: readonly string[]): string {
  const base = slugOf(name);
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? '' : `-${n}`;
    const id = base.slice(0, MAX_ID - suffix.length).replace(/-+$/, '') + suffix;
    if (!taken.includes(id)) return id;
  }
}
