// How much heap JSON.parse of a text can take depends on its shape, not its size: 15 MiB of
// `{"a":1},` is two million objects. A state file that is legitimately large (the persisted
// catalogue, the pass cache) is counted before it is parsed: containers, strings and values
// outside strings, one pass over the characters with no allocation (pure).

export interface JsonShapeLimits {
  /** Objects and arrays. */
  containers: number;
  strings: number;
  /** Every value and key (commas and colons counted, plus one). */
  values: number;
}

/** Why the text's shape exceeds the limits, or null when JSON.parse of it stays bounded. */
export function jsonShapeProblem(text: string, limits: JsonShapeLimits): string | null {
  let containers = 0;
  let strings = 0;
  let values = 1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) {
      inString = true;
      if (++strings > limits.strings) return `more than ${limits.strings} strings`;
    } else if (c === 0x7b || c === 0x5b) {
      if (++containers > limits.containers) return `more than ${limits.containers} objects and arrays`;
    } else if (c === 0x2c || c === 0x3a) {
      if (++values > limits.values) return `more than ${limits.values} values`;
    }
  }
  return null;
}
