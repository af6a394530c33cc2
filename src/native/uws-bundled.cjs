// Replaces `uWebSockets.js` inside the esbuild bundle: loads the native binary copied next to
// the bundle (dist/native) and says which in one log line (test/arm/boot-under-qemu.mjs and
// dist.test.ts read it). No fallback: the package's pure-Node one answers every request with
// `TypeError: Invalid URL` (seen on Node 18 and 20), so a server that starts on it only looks
// alive; failing the boot with the reason lets systemd and the operator see it.
const { logger } = require('../util/logger.js');
// From __dirname, dist/ in every chunk of the bundle (build.mjs's banner): a chunk's own require
// resolves from dist/chunks.
const name = `./native/uws_${process.platform}_${process.arch}_${process.versions.modules}.node`;
let uws;
try {
  uws = require(require('node:path').join(__dirname, name));
} catch (err) {
  throw new Error(
    `uWebSockets.js native binary ${name} unusable (${String(err && err.message).split('\n')[0]}): ` +
      `build for this machine (node build.mjs --arch ${process.arch}) and run it on Node 16, 18 or 20`,
  );
}
logger('native').info(`uWebSockets.js loaded ${require('node:path').join(__dirname, name)}`);
module.exports = uws;
