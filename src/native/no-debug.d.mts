import type { Plugin } from 'esbuild';
export const noDebug: Plugin;
