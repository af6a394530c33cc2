// Replaces `node-gyp-build` inside the esbuild bundle: serialport's native binding is copied
// to dist/native by build.mjs for the target architecture. serialport calls this once, when the
// bundle starts (its import is static), so the boot log names the binary.
const { logger } = require('../util/logger.js');
module.exports = function load() {
  // From __dirname, dist/ in every chunk of the bundle (see uws-bundled.cjs).
  const file = require('node:path').join(__dirname, 'native', 'serialport.node');
  const binding = require(file);
  logger('native').info(`serialport loaded ${file}`);
  return binding;
};
