// Replaces `node-gyp-build` inside the esbuild bundle: serialport's native binding is copied
// to dist/native by build.mjs for the target architecture. serialport calls this once, when the
// bundle starts (its import is static), so the boot log names the binary.
const { logger } = require('../util/logger.js');
module.exports = function load() {
  const binding = require('./native/serialport.node');
  logger('native').info(`serialport loaded ${require.resolve('./native/serialport.node')}`);
  return binding;
};
