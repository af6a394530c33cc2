import type { Plugin } from 'esbuild';
export const noSatelliteWasm: Plugin;
