import type { RawSourceMap } from './compose-maps.mjs';
export const IN_TURNS_BANNER: string;
export function chunksInTurns<M extends RawSourceMap>(
  code: string,
  map: M,
  file: string,
  outputs: Record<string, { imports: Array<{ path: string; kind: string }> }>,
): { code: string; map: M; sites: number };
