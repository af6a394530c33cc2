import type { Plugin } from 'esbuild';
export const valibotLazyStandard: Plugin;
export function lazyStandardSource(text: string): string;
