import type { RawSourceMap } from './compose-maps.mjs';
export function asciiOnly<M extends RawSourceMap>(code: string, map: M): { code: string; map: M };
