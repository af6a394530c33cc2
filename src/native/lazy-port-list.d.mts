import type { Plugin } from 'esbuild';
export const lazyPortList: Plugin;
