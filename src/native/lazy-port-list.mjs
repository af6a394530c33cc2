// esbuild plugin (build.mjs): serialport's Linux binding reads its port lister (and with it
// node:child_process, for udevadm) only when a listing is asked for. The binding requires it at
// its top, so enabling the radio loaded child_process too: ~7 ms of CPU here, ~70 ms of one loop
// turn at a tenth of a core, for a list the settings page asks for now and then. esbuild wraps
// each CommonJS module of the bundle to run at its first require, so the require inside the
// function below defers the lister's code to the first list().
import { dirname, join } from 'node:path';

export const lazyPortList = {
  name: 'lazy-port-list',
  setup(b) {
    b.onResolve({ filter: /^\.\/linux-list$/ }, (args) =>
      /[\\/]@serialport[\\/]bindings-cpp[\\/]dist[\\/]linux\.js$/.test(args.importer)
        ? { path: join(dirname(args.importer), 'linux-list.js'), namespace: 'lazy-port-list' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-port-list' }, (args) => ({
      contents: `exports.linuxList = (...a) => require(${JSON.stringify(args.path)}).linuxList(...a);`,
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};
