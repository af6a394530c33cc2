import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { test } from 'node:test';
import { loadUi } from '../../src/http/ui-pages.js';
import { zlibRead } from '../../src/util/lazy-builtins.js';
import { startServer, tmpDataDir } from '../helpers/server.js';

// The UI's gzip twins come from the build (build.mjs writes `<file>.gz` beside each file), not
// from the Pi after every boot; a file the build left without one is compressed on first ask, once
// zlib has been read (the very first ask after boot goes out uncompressed and has it read at the
// next quiet moment).

/** A built UI of one page: a script, its build twin, a stylesheet and a small chunk. */
function writeUi(): { dir: string; css: Buffer; built: Buffer } {
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
  return { dir, css, built };
}

test('an asset with a build twin serves that file; one without is compressed on first ask; a small one has none', async () => {
  const { dir, css, built } = writeUi();
  const ui = loadUi(dir)!;
  assert.equal(ui.assets.get('/assets/lite-B.css')!.gzip, null, 'the first ask, before zlib is read');
  await zlibRead();
  assert.ok(ui.assets.get('/assets/lite-A.js')!.gzip!.equals(built));
  assert.ok(gunzipSync(ui.assets.get('/assets/lite-B.css')!.gzip!).equals(css));
  assert.equal(ui.assets.get('/assets/chunks/c-C.js')!.gzip, null, 'below 512 bytes: no twin');
  assert.equal(gunzipSync(ui.pages.get('lite')!.gzip!).toString(), ui.pages.get('lite')!.html.toString());
});

test('files are read when first asked for, then kept; one that cannot be read is a 500 JSON error, not a crash', async () => {
  const { dir } = writeUi();
  const ui = loadUi(dir)!;
  // Changed after the load and before the first ask: what is served is what the file holds then.
  const later = Buffer.from('/* rebuilt */'.repeat(100));
  writeFileSync(join(dir, 'lite-B.css'), later);
  assert.ok(ui.assets.get('/assets/lite-B.css')!.body!.equals(later));
  writeFileSync(join(dir, 'lite-B.css'), 'changed again');
  assert.ok(ui.assets.get('/assets/lite-B.css')!.body!.equals(later), 'kept once read');

  const s = await startServer({ config: { uiDir: dir } });
  try {
    rmSync(join(dir, 'lite-A.js'));
    rmSync(join(dir, 'lite-A.js.gz'));
    for (const enc of ['gzip', 'identity']) {
      const r = await s.get('/assets/lite-A.js', { 'accept-encoding': enc });
      assert.equal(r.status, 500);
      assert.equal((r.body as { error: { code: string } }).error.code, 'asset_unreadable');
    }
    assert.equal((await s.get('/assets/lite-B.css')).status, 200, 'the others still served');
    assert.equal((await s.get('/health')).status, 200);
  } finally {
    await s.stop();
  }
});
