// esbuild plugin (build.mjs): the `debug` package replaced by a logger that is always off. serialport
// traces through it, and loading it reads the environment, the terminal's colours and node:tty at
// the radio area's first use (a turn of the loop at a tenth of a core); the appliance never sets
// DEBUG for it. Under tsx (tests, `npm run dev`) the real package still loads.
export const noDebug = {
  name: 'no-debug',
  setup(b) {
    b.onResolve({ filter: /^debug$/ }, () => ({ path: 'debug', namespace: 'no-debug' }));
    b.onLoad({ filter: /.*/, namespace: 'no-debug' }, () => ({
      contents: 'const off = () => {}; off.enabled = false; off.extend = () => off; module.exports = () => off;',
      loader: 'js',
    }));
  },
};
