// @ts-check
// A link as a QR code in SVG, so that a friend across the table opens it with a phone camera.
// The encoding is the qrcode-generator package (MIT, vendored in vendor/qrcode-generator); this
// file draws its modules as one path and keeps the code in step with the link it shows.

import qrcode from './vendor/qrcode-generator/qrcode.js';
import { svgEl } from './dom.js';

// The package writes each character's low byte; links may hold any text, so write UTF-8.
qrcode.stringToBytes = (/** @type {string} */ s) => Array.from(new TextEncoder().encode(s));

/** The quiet zone around the code, in modules: the four the standard asks for. */
const QUIET = 4;

/**
 * `text` as a QR code (error correction M: a phone reads it off a screen at a slant).
 * @param {string} text
 * @param {string} label what the code holds, for screen readers
 * @returns {SVGSVGElement}
 */
export function qrSvg(text, label) {
  const code = qrcode(0, 'M');
  code.addData(text, 'Byte');
  code.make();
  const n = code.getModuleCount();
  const size = n + 2 * QUIET;
  const svg = svgEl('svg', { viewBox: `0 0 ${size} ${size}`, class: 'qr-code', role: 'img', 'aria-label': label, 'shape-rendering': 'crispEdges' });
  svgEl('rect', { width: size, height: size, fill: '#fff' }, svg);
  let d = '';
  for (let row = 0; row < n; row += 1) {
    for (let col = 0; col < n; col += 1) if (code.isDark(row, col)) d += `M${col + QUIET} ${row + QUIET}h1v1h-1z`;
  }
  svgEl('path', { d, fill: '#000' }, svg);
  svg.dataset.text = text;
  return svg;
}

/**
 * Shows `text` as a QR code in `container`, drawn again only when the text changes.
 * @param {HTMLElement} container
 * @param {string} text
 * @param {string} label
 */
export function showQr(container, text, label) {
  const shown = container.querySelector('svg.qr-code');
  if (shown instanceof SVGElement && shown.dataset.text === text) return;
  container.replaceChildren(qrSvg(text, label));
}
