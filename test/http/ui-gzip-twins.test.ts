import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { test } from 'node:test';
import { loadUi } from '../../src/http/ui-pages.js';
import { zlibRead } from '../../src/util/lazy-builtins.js';
import { tmpDataDir } from '../helpers/server.js';

// The UI's gzip twins come from the build (build.mjs writes `<file>.gz` beside each file), not
// from the Pi after every boot; a file the build left without one is compressed on first ask, once
// zlib has been read (the very first ask after boot goes out uncompressed and has it read at the
// next quiet moment).

test('an asset with a build twin serves that file; one without is compressed on first ask; a small one has none', async () => {
  const dir = tmpDataDir('satstation-ui-twins-');
  mkdirSync(join(dir, 'chunks'));
  const js = Buffer.from(`export const a = ${JSON.stringify('x'.repeat(4000))};\n`);
  const css = Buffer.from(`.a{color:red}\n`.repeat(100));
  writeFileSync(join(dir, 'lite-A.js'), js);
  // Not what gzip would make of it: proves the file is served, not a fresh compression.
  const built = gzipSync(Buffer.from('the build twin'));
  writeFileSync(join(dir, 'lite-A.js.gz'), built);
  writeFileSync(join(dir, 'lite-B.css'), css);
  writeFileSync(join(dir, 'chunks', 'c-C.js'), 'export{}');
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({ pages: { lite: { js: '/assets/lite-A.js', css: ['/assets/lite-B.css'], imports: ['/assets/chunks/c-C.js'] } }, chunks: ['/assets/chunks/c-C.js'] }),
  );
  const ui = loadUi(dir)!;
  assert.equal(ui.assets.get('/assets/lite-B.css')!.gzip, null, 'the first ask, before zlib is read');
  await zlibRead();
  assert.ok(ui.assets.get('/assets/lite-A.js')!.gzip!.equals(built));
  assert.ok(gunzipSync(ui.assets.get('/assets/lite-B.css')!.gzip!).equals(css));
  assert.equal(ui.assets.get('/assets/chunks/c-C.js')!.gzip, null, 'below 512 bytes: no twin');
  assert.equal(gunzipSync(ui.pages.get('lite')!.gzip!).toString(), ui.pages.get('lite')!.html.toString());
});
