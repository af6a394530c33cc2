// Turning flat pass rows [sat, aos, tca, los, max_el]* into the table's sorted columns, in O(n)
// steps that yield between them: a 16k-satellite table (~100k passes) is built in a few
// slices of a few ms each instead of one 30–40 ms stall (cold code walks 100k rows slowly).

export interface PassColumns {
  sat: Int32Array;
  aos: Float64Array;
  tca: Float64Array;
  los: Float64Array;
  maxEl: Float64Array;
  maxDurationMs: number;
}

const BUCKET_MS = 10_000;
/** Rows handled between two yields. */
const STEP_ROWS = 10_000;

/**
 * Sorted by AOS (ties by satellite): counting sort on 10 s buckets, then insertion sort inside each
 * bucket (a handful of passes). Yields every STEP_ROWS rows; run with drain or drainSliced (util/loop-slices).
 */
export function* buildColumns(rows: ArrayLike<number>): Generator<void, PassColumns> {
  const n = Math.floor(rows.length / 5);
  const order = new Int32Array(n);
  let min = Infinity;
  let max = -Infinity;
  for (let k = 0; k < n; k++) {
    const a = rows[k * 5 + 1];
    if (a < min) min = a;
    if (a > max) max = a;
    if (k % STEP_ROWS === STEP_ROWS - 1) yield;
  }
  const buckets = n === 0 ? 0 : Math.floor((max - min) / BUCKET_MS) + 1;
  if (buckets > 4 * n + 100_000) {
    // Passes spread over months (only a hand-edited cache file does that): a plain sort.
    const idx = Array.from({ length: n }, (_, k) => k).sort((x, y) => rows[x * 5 + 1] - rows[y * 5 + 1] || rows[x * 5] - rows[y * 5]);
    order.set(idx);
  } else if (n > 0) {
    const bucketOf = new Int32Array(n);
    const start = new Int32Array(buckets + 1);
    for (let k = 0; k < n; k++) {
      const b = Math.floor((rows[k * 5 + 1] - min) / BUCKET_MS);
      bucketOf[k] = b;
      start[b + 1]++;
      if (k % STEP_ROWS === STEP_ROWS - 1) yield;
    }
    for (let b = 0; b < buckets; b++) start[b + 1] += start[b];
    const fill = start.slice(0, buckets);
    for (let k = 0; k < n; k++) {
      order[fill[bucketOf[k]]++] = k;
      if (k % STEP_ROWS === STEP_ROWS - 1) yield;
    }
    // Yields by rows sorted, not buckets: a day has only 8640 buckets, and sorting all of them
    // in one step (cold code) stalled the loop ~15 ms.
    let sorted = 0;
    for (let b = 0; b < buckets; b++) {
      for (let k = start[b] + 1; k < start[b + 1]; k++) {
        const v = order[k];
        const va = rows[v * 5 + 1];
        const vs = rows[v * 5];
        let j = k - 1;
        while (j >= start[b] && (va < rows[order[j] * 5 + 1] || (va === rows[order[j] * 5 + 1] && vs < rows[order[j] * 5]))) {
          order[j + 1] = order[j];
          j--;
        }
        order[j + 1] = v;
      }
      sorted += start[b + 1] - start[b];
      if (sorted >= STEP_ROWS) {
        sorted = 0;
        yield;
      }
    }
  }
  const c: PassColumns = {
    sat: new Int32Array(n),
    aos: new Float64Array(n),
    tca: new Float64Array(n),
    los: new Float64Array(n),
    maxEl: new Float64Array(n),
    maxDurationMs: 0,
  };
  for (let k = 0; k < n; k++) {
    const r = order[k] * 5;
    c.sat[k] = rows[r];
    c.aos[k] = rows[r + 1];
    c.tca[k] = rows[r + 2];
    c.los[k] = rows[r + 3];
    c.maxEl[k] = rows[r + 4];
    if (rows[r + 3] - rows[r + 1] > c.maxDurationMs) c.maxDurationMs = rows[r + 3] - rows[r + 1];
    if (k % STEP_ROWS === STEP_ROWS - 1) yield;
  }
  return c;
}
