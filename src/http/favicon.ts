import { nodeZlib } from '../util/lazy-builtins.js';
import type { StaticAsset } from './static-asset.js';

// The site icon, drawn once from one description: an SVG for the pages (inlined as a data: URL,
// so no request can fail offline) and a 32×32 ICO at /favicon.ico for whatever asks for it by
// name (browsers on pages without a link, bookmarks, tools). A sky plot: the horizon ring, the
// station at its centre and a satellite on its track, in the pages' palette (ui/components/base.css).

type Rgb = readonly [number, number, number];
type Shape =
  | { kind: 'rounded-square'; radius: number; fill: Rgb }
  | { kind: 'ring'; cx: number; cy: number; r: number; width: number; fill: Rgb }
  | { kind: 'disc'; cx: number; cy: number; r: number; fill: Rgb };

/** Drawn on a 32-unit square, back to front. */
const SIZE = 32;
const ICON: readonly Shape[] = [
  { kind: 'rounded-square', radius: 6, fill: [0x0e, 0x14, 0x19] },
  { kind: 'ring', cx: 16, cy: 16, r: 11, width: 2.5, fill: [0x6c, 0xc4, 0xff] },
  { kind: 'disc', cx: 16, cy: 16, r: 2.5, fill: [0xe8, 0xee, 0xf2] },
  { kind: 'disc', cx: 23.8, cy: 8.2, r: 4.5, fill: [0x3a, 0xd0, 0x7a] },
];

const hex = (c: Rgb) => '#' + c.map((x) => x.toString(16).padStart(2, '0')).join('');

export function iconSvg(): string {
  const parts = ICON.map((s) => {
    switch (s.kind) {
      case 'rounded-square':
        return `<rect width="${SIZE}" height="${SIZE}" rx="${s.radius}" fill="${hex(s.fill)}"/>`;
      case 'ring':
        return `<circle cx="${s.cx}" cy="${s.cy}" r="${s.r}" fill="none" stroke="${hex(s.fill)}" stroke-width="${s.width}"/>`;
      case 'disc':
        return `<circle cx="${s.cx}" cy="${s.cy}" r="${s.r}" fill="${hex(s.fill)}"/>`;
    }
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIZE} ${SIZE}">${parts.join('')}</svg>`;
}

/** The SVG as a data: URL for `<link rel="icon">` (only the characters a URL needs escaped). */
export function iconDataUrl(): string {
  return 'data:image/svg+xml,' + iconSvg().replace(/"/g, "'").replace(/[<>#%]/g, (c) => encodeURIComponent(c));
}

function inside(s: Shape, x: number, y: number): boolean {
  switch (s.kind) {
    case 'rounded-square': {
      // Distance to the inner square the corners are rounded around.
      const dx = Math.max(s.radius - x, 0, x - (SIZE - s.radius));
      const dy = Math.max(s.radius - y, 0, y - (SIZE - s.radius));
      return dx * dx + dy * dy <= s.radius * s.radius;
    }
    case 'ring': {
      const d = Math.hypot(x - s.cx, y - s.cy);
      return Math.abs(d - s.r) <= s.width / 2;
    }
    case 'disc':
      return Math.hypot(x - s.cx, y - s.cy) <= s.r;
  }
}

/** RGBA pixels, top row first, each pixel 4×4 supersampled so edges are smooth. */
export function rasterIcon(px: number): Uint8Array {
  const out = new Uint8Array(px * px * 4);
  const sub = 4;
  const scale = SIZE / px;
  for (let y = 0; y < px; y++) {
    for (let x = 0; x < px; x++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < sub; sy++) {
        for (let sx = 0; sx < sub; sx++) {
          const ux = (x + (sx + 0.5) / sub) * scale;
          const uy = (y + (sy + 0.5) / sub) * scale;
          let top: Shape | null = null;
          for (const s of ICON) if (inside(s, ux, uy)) top = s;
          if (!top) continue;
          r += top.fill[0];
          g += top.fill[1];
          b += top.fill[2];
          a++;
        }
      }
      const i = (y * px + x) * 4;
      if (a > 0) {
        out[i] = Math.round(r / a);
        out[i + 1] = Math.round(g / a);
        out[i + 2] = Math.round(b / a);
      }
      out[i + 3] = Math.round((a / (sub * sub)) * 255);
    }
  }
  return out;
}

/**
 * An ICO holding one 32-bit BMP image: the oldest form every reader takes, and no compressor
 * needed. BMP rows run bottom-up in BGRA; the 1-bit AND mask is all zero (the alpha decides).
 */
export function icoFile(px = 32): Buffer {
  const rgba = rasterIcon(px);
  const maskRow = Math.ceil(px / 32) * 4;
  const image = 40 + px * px * 4 + maskRow * px;
  const buf = Buffer.alloc(6 + 16 + image);
  buf.writeUInt16LE(0, 0);
  buf.writeUInt16LE(1, 2); // type: icon
  buf.writeUInt16LE(1, 4); // one image
  buf.writeUInt8(px % 256, 6);
  buf.writeUInt8(px % 256, 7);
  buf.writeUInt8(0, 8); // no palette
  buf.writeUInt16LE(1, 10); // planes
  buf.writeUInt16LE(32, 12); // bits per pixel
  buf.writeUInt32LE(image, 14);
  buf.writeUInt32LE(22, 18); // image offset
  let o = 22;
  buf.writeUInt32LE(40, o); // BITMAPINFOHEADER
  buf.writeInt32LE(px, o + 4);
  buf.writeInt32LE(px * 2, o + 8); // colour image and mask stacked
  buf.writeUInt16LE(1, o + 12);
  buf.writeUInt16LE(32, o + 14);
  buf.writeUInt32LE(px * px * 4 + maskRow * px, o + 20);
  o += 40;
  for (let y = px - 1; y >= 0; y--) {
    for (let x = 0; x < px; x++) {
      const i = (y * px + x) * 4;
      buf[o++] = rgba[i + 2];
      buf[o++] = rgba[i + 1];
      buf[o++] = rgba[i];
      buf[o++] = rgba[i + 3];
    }
  }
  return buf; // the mask stays zero-filled
}

const ICON_CACHE = 'public, max-age=604800';

/**
 * /favicon.ico and /favicon.svg, served by the HTTP front whether or not the UI is built. The ICO
 * is rasterised on its first request, not at boot (~20 ms of the boot here; the pages inline the
 * SVG, so only tools and bookmarks ever ask for it).
 */
export function faviconAssets(): Map<string, StaticAsset> {
  const svg = Buffer.from(iconSvg());
  let ico: { body: Buffer; gzip: Buffer } | null = null;
  const drawn = () => (ico ??= ((body) => ({ body, gzip: nodeZlib().gzipSync(body) }))(icoFile()));
  return new Map<string, StaticAsset>([
    [
      '/favicon.ico',
      {
        get body() {
          return drawn().body;
        },
        get gzip() {
          return drawn().gzip;
        },
        contentType: 'image/x-icon',
        cacheControl: ICON_CACHE,
      },
    ],
    ['/favicon.svg', { body: svg, gzip: null, contentType: 'image/svg+xml', cacheControl: ICON_CACHE }],
  ]);
}
