// Replaces `uWebSockets.js` inside the esbuild bundle: loads the native binary copied next to
// the bundle (dist/native), or the package's pure-Node fallback when none fits this runtime.
const name = `./native/uws_${process.platform}_${process.arch}_${process.versions.modules}.node`;
let uws;
try {
  uws = require(name);
} catch (err) {
  console.warn(`uWebSockets.js native binary ${name} unusable (${err && err.message}); using the Node fallback`);
  uws = require('uWebSockets.js/dist/index.js');
}
module.exports = uws;
