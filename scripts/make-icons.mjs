#!/usr/bin/env node
// Writes the site's app icons, crates/web/assets/icons/*.png, from one drawing: a Xiangqi piece
// (cream disc, red ring, the red general 帥 in the project's piece font) on the header's brown.
// Drawn here as SVG and rasterised by Debian's chromium through playwright-core (installed by
// `npm ci` in tests/e2e), so the icons need no image tools and no outside artwork.
//   icon-192.png, icon-512.png  "any": a rounded square, the piece filling most of it
//   icon-maskable-512.png       "maskable": full bleed, the piece inside the central 80 % circle
//                               that every launcher mask keeps
//   apple-touch-icon.png        180 px, full bleed (iOS rounds the corners itself)
// Chromium's PNGs are full-colour; each is stored here as a palette image of at most 256
// colours (quantize below): the 192-px icon is fetched with every first visit (Chromium reads
// the manifest's icon at once), so its bytes count against the page's first-load budget.
// Usage: node scripts/make-icons.mjs  (from the repository root)

import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync, inflateSync, crc32 } from 'node:zlib';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(ROOT, 'tests/e2e/package.json'));
const { chromium } = require('playwright-core');
// Inline: a page set from a string may not read files.
const FONT = `data:font/woff2;base64,${readFileSync(join(ROOT, 'crates/web/assets/fonts/qi-xiangqi.woff2')).toString('base64')}`;
const OUT = join(ROOT, 'crates/web/assets/icons');

/**
 * The icon as SVG in a 512 unit square: `piece` is the disc's radius, `corner` the background's.
 * @param {{ piece: number, corner: number }} shape
 */
function drawing({ piece, corner }) {
  const ring = piece * 0.84;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="512" height="512">
  <rect width="512" height="512" rx="${corner}" fill="#3b2a1a"/>
  <circle cx="256" cy="262" r="${piece}" fill="#2b1d10"/>
  <circle cx="256" cy="256" r="${piece}" fill="#fbeed2" stroke="#8a6438" stroke-width="${piece * 0.05}"/>
  <circle cx="256" cy="256" r="${ring}" fill="none" stroke="#b3161b" stroke-width="${piece * 0.045}"/>
  <text x="256" y="256" font-family="Qi Xiangqi" font-weight="700" font-size="${piece * 1.15}" fill="#b3161b"
    text-anchor="middle" dominant-baseline="central">帥</text>
</svg>`;
}

const ICONS = [
  { file: 'icon-192.png', size: 192, shape: { piece: 212, corner: 96 } },
  { file: 'icon-512.png', size: 512, shape: { piece: 212, corner: 96 } },
  // The safe zone is a circle of radius 0.4 × 512 = 205 units: the disc (and its shadow) stays inside.
  { file: 'icon-maskable-512.png', size: 512, shape: { piece: 176, corner: 0 } },
  { file: 'apple-touch-icon.png', size: 180, shape: { piece: 196, corner: 0 } },
];

/** The RGBA pixels of an 8-bit RGB or RGBA, non-interlaced PNG (what Chromium's screenshots are). */
function decode(png) {
  const chunks = [];
  let width = 0;
  let height = 0;
  let bpp = 4;
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      [width, height] = [data.readUInt32BE(0), data.readUInt32BE(4)];
      if (data[8] !== 8 || ![2, 6].includes(data[9]) || data[12] !== 0) throw new Error('expected 8-bit RGB(A) without interlacing');
      bpp = data[9] === 6 ? 4 : 3;
    }
    if (type === 'IDAT') chunks.push(data);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(chunks));
  const stride = width * bpp;
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? out[y * stride + x - bpp] : 0;
      const b = y > 0 ? out[(y - 1) * stride + x] : 0;
      const c = x >= bpp && y > 0 ? out[(y - 1) * stride + x - bpp] : 0;
      const p = a + b - c;
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      const predicted = [0, a, b, (a + b) >> 1, paeth][filter];
      out[y * stride + x] = (line[x] + predicted) & 255;
    }
  }
  if (bpp === 4) return { width, height, pixels: out };
  const rgba = Buffer.alloc(width * height * 4, 255);
  for (let i = 0; i < width * height; i++) out.copy(rgba, i * 4, i * 3, i * 3 + 3);
  return { width, height, pixels: rgba };
}

/** A PNG chunk. */
function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * The image as a palette PNG: the 256 most common colours (each channel rounded to 4 bits
 * first, which the flat drawing barely shows), every pixel mapped to the nearest of them.
 */
function quantize({ width, height, pixels }) {
  const key = (i) => ((pixels[i] >> 4) << 12) | ((pixels[i + 1] >> 4) << 8) | ((pixels[i + 2] >> 4) << 4) | (pixels[i + 3] >> 4);
  const counts = new Map();
  for (let i = 0; i < pixels.length; i += 4) counts.set(key(i), (counts.get(key(i)) || 0) + 1);
  const palette = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 256).map(([k]) => k);
  const expand = (k, shift) => ((k >> shift) & 15) * 17;
  const colours = palette.map((k) => [expand(k, 12), expand(k, 8), expand(k, 4), expand(k, 0)]);
  const index = new Map(palette.map((k, i) => [k, i]));
  const nearest = (k) => {
    if (index.has(k)) return index.get(k);
    const want = [expand(k, 12), expand(k, 8), expand(k, 4), expand(k, 0)];
    let best = 0;
    let bestDistance = Infinity;
    colours.forEach((c, i) => {
      const d = c.reduce((sum, v, j) => sum + (v - want[j]) ** 2, 0);
      if (d < bestDistance) [best, bestDistance] = [i, d];
    });
    index.set(k, best);
    return best;
  };
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) raw[y * (width + 1) + 1 + x] = nearest(key((y * width + x) * 4));
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 3; // palette
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('PLTE', Buffer.from(colours.flatMap((c) => c.slice(0, 3)))),
    chunk('tRNS', Buffer.from(colours.map((c) => c[3]))),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--headless', '--disable-gpu'],
});
mkdirSync(OUT, { recursive: true });
for (const { file, size, shape } of ICONS) {
  const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
  const svg = drawing(shape).replace('width="512" height="512"', `width="${size}" height="${size}"`);
  await page.setContent(`<!doctype html><style>@font-face { font-family: "Qi Xiangqi"; src: url("${FONT}"); font-weight: 400 900; }
    html, body { margin: 0; background: transparent; } svg { display: block; }</style>${svg}`);
  await page.evaluate(() => document.fonts.load('700 100px "Qi Xiangqi"', '帥'));
  const shot = await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
  writeFileSync(join(OUT, file), quantize(decode(shot)));
  await page.close();
}
writeFileSync(join(ROOT, 'crates/web/icons/icon.svg'), `${drawing(ICONS[0].shape)}\n`);
writeFileSync(join(ROOT, 'crates/web/icons/icon-maskable.svg'), `${drawing(ICONS[2].shape)}\n`);
await browser.close();
