#!/usr/bin/env node
// Writes the site's app icons, crates/web/assets/icons/*.png, from one drawing: a Xiangqi piece
// (cream disc, red ring, the red general 帥 in the project's piece font) on the header's brown.
// Drawn here as SVG and rasterised by Debian's chromium through playwright-core (installed by
// `npm ci` in tests/e2e), so the icons need no image tools and no outside artwork.
//   icon-192.png, icon-512.png  "any": a rounded square, the piece filling most of it
//   icon-maskable-512.png       "maskable": full bleed, the piece inside the central 80 % circle
//                               that every launcher mask keeps
//   apple-touch-icon.png        180 px, full bleed (iOS rounds the corners itself)
// Usage: node scripts/make-icons.mjs  (from the repository root)

import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
  writeFileSync(join(OUT, file), await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } }));
  await page.close();
}
writeFileSync(join(ROOT, 'crates/web/icons/icon.svg'), `${drawing(ICONS[0].shape)}\n`);
writeFileSync(join(ROOT, 'crates/web/icons/icon-maskable.svg'), `${drawing(ICONS[2].shape)}\n`);
await browser.close();
