// esbuild plugin (build.mjs): valibot gives every schema its Standard Schema interface
// (`~standard`: an object and a `validate` closure over the schema) when the schema is made. The
// server makes ~2,100 schemas at boot (routes, stores, /docs) and never reads `~standard` (it calls
// valibot itself), so those were ~6,300 of the steady heap's objects for the collector to walk at
// every major GC. In the bundle the property is a getter shared by every schema, made the first
// time it is read and then kept on that schema as valibot would have it. Not enumerable: valibot
// spreads a schema into a new one (`pipe`, `optional`), which then gets its own getter.
// Under tsx (tests, `npm run dev`) valibot is unchanged; test/util/valibot-lazy-standard.test.ts
// runs both.
import { readFileSync } from 'node:fs';

/** valibot's own function, as its 1.x dist has it; the build fails if it no longer matches. */
const EAGER = /function _standardSchema\(schema\) \{\n\tschema\["~standard"\] = \{\n\t\tversion: 1,\n\t\tvendor: "valibot",\n\t\tvalidate: \(value\$1\) => schema\["~run"\]\(\{ value: value\$1 \}, \/\* @__PURE__ \*\/ getGlobalConfig\(\)\)\n\t\};\n\treturn schema;\n\}/;

const LAZY = `const _standardProperty = {
	configurable: true,
	enumerable: false,
	get() {
		const schema = this;
		const props = { version: 1, vendor: "valibot", validate: (value) => schema["~run"]({ value }, getGlobalConfig()) };
		Object.defineProperty(schema, "~standard", { value: props, configurable: true, enumerable: false, writable: true });
		return props;
	}
};
function _standardSchema(schema) {
	return Object.defineProperty(schema, "~standard", _standardProperty);
}`;

/** valibot's dist with `_standardSchema` made lazy; throws when the function is not found. */
export function lazyStandardSource(text) {
  if (!EAGER.test(text)) throw new Error('valibot-lazy-standard: valibot\'s _standardSchema is not the one this plugin replaces (a new valibot?)');
  return text.replace(EAGER, LAZY);
}

export const valibotLazyStandard = {
  name: 'valibot-lazy-standard',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]valibot[\\/]dist[\\/]index\.(m?js|cjs)$/ }, (args) => ({
      contents: lazyStandardSource(readFileSync(args.path, 'utf8')),
      loader: 'js',
    }));
  },
};
