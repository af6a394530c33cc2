// esbuild plugin (build.mjs, bench/child-bundle.ts): satellite.js's WebAssembly builds left out.
// Its index imports them (lazily) for an API we never call, and one of them has a top-level await,
// which a CommonJS file cannot hold.
export const noSatelliteWasm = {
  name: 'no-satellite-wasm',
  setup(b) {
    b.onResolve({ filter: /^#wasm-(single|multi)-thread$/ }, () => ({ path: 'satellite-wasm', namespace: 'no-satellite-wasm' }));
    b.onLoad({ filter: /.*/, namespace: 'no-satellite-wasm' }, () => ({ contents: 'export default () => { throw new Error("satellite.js WebAssembly is not in this build"); };' }));
  },
};
