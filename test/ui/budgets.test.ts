import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { UI_BUDGET } from '../../ui/build/budgets.mjs';
import { UI_ROUTES } from '../../src/http/ui-pages.js';
import { SETTINGS_GROUPS } from '../../ui/components/settings/settings-groups.js';

// Issue 9 budgets: each page's JavaScript ≤ 30 KiB and CSS ≤ 10 KiB gzipped; issue 33: each
// settings group (a chunk the settings pages load when it is opened) ≤ 30 KiB too. A script's
// size is its own plus the chunks it imports. `npm test` builds the UI first (dist/ui); the build
// prints the same figures and fails over budget.

const uiDir = process.env.UI_DIR ?? join(process.cwd(), 'dist', 'ui');

interface Script {
  js: string;
  imports?: string[];
}

describe('UI page budgets', () => {
  const manifest = JSON.parse(readFileSync(join(uiDir, 'manifest.json'), 'utf8')) as {
    pages: Record<string, Script & { css: string[] }>;
    groups: Record<string, Script>;
    chunks: string[];
  };
  const gz = (url: string) => gzipSync(readFileSync(join(uiDir, url.replace(/^\/assets\//, '')))).length;
  const jsSize = (s: Script) => [s.js, ...(s.imports ?? [])].reduce((n, u) => n + gz(u), 0);
  const kib = (n: number) => (n / 1024).toFixed(1);

  it('builds one entry for every page a route serves', () => {
    for (const r of UI_ROUTES) assert.ok(manifest.pages[r.page], `no build for ${r.page}`);
  });

  for (const [name, p] of Object.entries(manifest.pages)) {
    it(`${name}: JS and CSS fit their gzip budgets`, () => {
      const js = jsSize(p);
      const css = p.css.reduce((n, c) => n + gz(c), 0);
      console.log(`${name}: JS ${kib(js)} KiB (budget ${UI_BUDGET.js_gzip / 1024}), CSS ${kib(css)} KiB (budget ${UI_BUDGET.css_gzip / 1024})`);
      assert.ok(js <= UI_BUDGET.js_gzip, `${name} JS ${js} B`);
      assert.ok(css <= UI_BUDGET.css_gzip, `${name} CSS ${css} B`);
    });
  }

  it('builds every settings group as a chunk of its own, within the JS budget', () => {
    assert.deepEqual(Object.keys(manifest.groups).sort(), SETTINGS_GROUPS.map((g) => g.id).sort());
    for (const g of SETTINGS_GROUPS) {
      const s = manifest.groups[g.id];
      const js = jsSize(s);
      console.log(`settings group ${g.id}: JS ${kib(js)} KiB with its chunks (budget ${UI_BUDGET.js_gzip / 1024})`);
      assert.ok(js <= UI_BUDGET.js_gzip, `group ${g.id} JS ${js} B`);
      for (const u of [s.js, ...(s.imports ?? [])]) assert.ok(manifest.chunks.includes(u), `${u} is served`);
    }
    for (const name of ['settings', 'lite-settings']) {
      const loaded = [manifest.pages[name].js, ...(manifest.pages[name].imports ?? [])];
      assert.ok(!SETTINGS_GROUPS.some((g) => loaded.includes(manifest.groups[g.id].js)), `${name} loads no group before it is opened`);
    }
  });
});
