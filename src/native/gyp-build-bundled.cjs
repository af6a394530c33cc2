// Replaces `node-gyp-build` inside the esbuild bundle: serialport's native binding is copied
// to dist/native by build.mjs for the target architecture.
module.exports = function load() {
  return require('./native/serialport.node');
};
