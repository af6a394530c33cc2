import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { UI_BUDGET } from '../../ui/build/budgets.mjs';
import { UI_ROUTES } from '../../src/http/ui-pages.js';

// Issue 9 budgets: each page's JavaScript ≤ 30 KiB and CSS ≤ 10 KiB gzipped. `npm test` builds
// the UI first (dist/ui); the build prints the same figures and fails over budget.

const uiDir = process.env.UI_DIR ?? join(process.cwd(), 'dist', 'ui');

describe('UI page budgets', () => {
  const manifest = JSON.parse(readFileSync(join(uiDir, 'manifest.json'), 'utf8')) as { pages: Record<string, { js: string; css: string[] }> };
  const gz = (url: string) => gzipSync(readFileSync(join(uiDir, url.replace(/^\/assets\//, '')))).length;

  it('builds one entry for every page a route serves', () => {
    for (const r of UI_ROUTES) assert.ok(manifest.pages[r.page], `no build for ${r.page}`);
  });

  for (const [name, p] of Object.entries(manifest.pages)) {
    it(`${name}: JS and CSS fit their gzip budgets`, () => {
      const js = gz(p.js);
      const css = p.css.reduce((n, c) => n + gz(c), 0);
      console.log(`${name}: JS ${(js / 1024).toFixed(1)} KiB (budget ${UI_BUDGET.js_gzip / 1024}), CSS ${(css / 1024).toFixed(1)} KiB (budget ${UI_BUDGET.css_gzip / 1024})`);
      assert.ok(js <= UI_BUDGET.js_gzip, `${name} JS ${js} B`);
      assert.ok(css <= UI_BUDGET.css_gzip, `${name} CSS ${css} B`);
    });
  }
});
