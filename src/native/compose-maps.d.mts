/** A source map as JSON (version 3). */
export interface RawSourceMap {
  version: number;
  file?: string;
  sources: string[];
  sourcesContent?: (string | null)[];
  names: string[];
  mappings: string;
}
export function decodeMappings(mappings: string): number[][][];
export function encodeMappings(lines: number[][][]): string;
export function composeMaps(outer: RawSourceMap, inner: RawSourceMap, file: string): RawSourceMap & { file: string; sourcesContent: (string | null)[] };
