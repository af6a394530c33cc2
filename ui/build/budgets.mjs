// Page budgets (issue 9), gzipped bytes: build.mjs prints and enforces them, a test checks the manifest.
export const UI_BUDGET = { js_gzip: 30 * 1024, css_gzip: 10 * 1024 };
