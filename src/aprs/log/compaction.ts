// When the file is rewritten, and what a rewrite keeps. No I/O.
//
// The file grows by appends past the cap the memory keeps; it is compacted back to the cap once
// it holds a quarter more lines, so a rewrite (a whole-file write on an SD card) is rare.

/** Lines past maxRecords × this before the file is compacted back to maxRecords. */
const COMPACT_FACTOR = 1.25;

export const compactLimit = (maxRecords: number): number => Math.ceil(maxRecords * COMPACT_FACTOR);

/** A file bigger than this is read from its tail only: the head would be dropped at compaction anyway. */
export const tailBytes = (maxRecords: number): number => Math.max(1024 * 1024, compactLimit(maxRecords) * 1024);

/** A prune as asked: drop entries received before `cutoff` (epoch ms) among the first `asOf` appends. */
export interface PruneRequest {
  cutoff: number;
  /** The append counter when the prune was asked for: later entries are not the operator's to clear. */
  asOf: number;
}

/**
 * The entries a prune keeps out of `all` (oldest first, the memory at `snapSeq` appends): the
 * last `snapSeq − asOf` came after the request and stay whatever their age.
 */
export function keptAfterPrune<E extends { received_at: string }>(all: E[], prune: PruneRequest, snapSeq: number): E[] {
  const split = Math.max(0, all.length - (snapSeq - prune.asOf));
  return all
    .slice(0, split)
    .filter((e) => !(Date.parse(e.received_at) < prune.cutoff))
    .concat(all.slice(split));
}
