export declare const TOLERANCE_DEG: number;
export declare const MIN_RING_AREA_DEG2: number;
export declare function outlinePath(topo: unknown, tol?: number, minArea?: number): { d: string; rings: number; points: number };
export declare function loadLand110m(): unknown;
export declare function worldOutline(): import('esbuild').Plugin;
