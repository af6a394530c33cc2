export declare const UI_BUDGET: { js_gzip: number; css_gzip: number };
