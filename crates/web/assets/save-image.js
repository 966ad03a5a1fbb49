// @ts-check
// "Save image" on /xq, loaded on first use: the position on view as SVG or PNG, or the whole
// line on view as an animated GIF (one frame per move). The picture is the page's own board
// drawing (board.js) in the chosen pieces and theme, with the last move and the arrows shown,
// redrawn off screen and made self-contained: the style sheet's computed look written onto each
// element and the piece font embedded, so the SVG shows the same anywhere. PNG and the GIF's
// frames are that SVG rasterised by a canvas; gif.js encodes the frames. The CLI draws its
// pictures with crates/board-image instead (`qi record image`).

import { api } from './api.js';
import { XiangqiBoard, WIDTH, HEIGHT } from './board.js';
import { pictureSource, showError, notify } from './xq.js';
import { encodeGif } from './gif.js';

/** The most frames a GIF gets (the longest real games are a few hundred plies). */
const MAX_FRAMES = 600;
/** The properties that make the board's look (everything its style sheet sets). */
const LOOK = [
  'fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-dasharray', 'stroke-linecap', 'stroke-opacity', 'opacity',
  'font-family', 'font-size', 'font-weight', 'text-anchor', 'dominant-baseline', 'letter-spacing', 'filter',
];

/** @type {Promise<string> | null} */
let fontCss = null;

/** The piece font as an `@font-face` rule with the font inline (fetched once). */
function embeddedFont() {
  fontCss ??= (async () => {
    for (const sheet of document.styleSheets) {
      let rules;
      try {
        rules = sheet.cssRules;
      } catch {
        continue; // another origin's sheet
      }
      for (const rule of rules) {
        if (!(rule instanceof CSSFontFaceRule)) continue;
        const family = rule.style.getPropertyValue('font-family');
        const src = /url\(["']?([^"')]+)["']?\)/.exec(rule.style.getPropertyValue('src'));
        if (!src) continue;
        const bytes = new Uint8Array(await (await fetch(new URL(src[1], sheet.href || location.href))).arrayBuffer());
        let binary = '';
        for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
        return `@font-face{font-family:${family};src:url(data:font/woff2;base64,${btoa(binary)}) format("woff2");font-weight:400 900}`;
      }
    }
    return '';
  })();
  return fontCss;
}

/**
 * Draws a position off screen as the page's board would, and returns it as a standalone SVG.
 * @param {XiangqiBoard} board
 * @param {{ pieces: Record<string, string>, last: string | null, arrows: any[], coordinates: boolean, font: string }} what
 */
function standalone(board, { pieces, last, arrows, coordinates, font }) {
  board.setPosition({ pieces, legal: [], last, checkSquare: null, slide: null });
  board.setArrows(arrows);
  const live = board.svg;
  const copy = /** @type {SVGSVGElement} */ (live.cloneNode(true));
  const from = [live, ...live.querySelectorAll('*')];
  const to = [copy, ...copy.querySelectorAll('*')];
  from.forEach((node, i) => {
    const style = getComputedStyle(node);
    const look = LOOK.map((p) => [p, style.getPropertyValue(p)]).filter(([, v]) => v);
    const out = /** @type {Element} */ (to[i]);
    if (look.length) out.setAttribute('style', look.map(([p, v]) => `${p}:${v}`).join(';'));
    out.removeAttribute('class');
    for (const a of ['role', 'tabindex', 'aria-label', 'aria-describedby']) out.removeAttribute(a);
  });
  // What is there for the hand, not the eye: the focus points and the move targets.
  for (const layer of [...copy.children].filter((_, i) => from[0].children[i]?.matches('.points, .targets'))) layer.remove();
  if (!coordinates) [...live.querySelectorAll('.file-label')].forEach((n) => to[from.indexOf(n)]?.remove());
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.setAttribute('width', String(WIDTH));
  copy.setAttribute('height', String(HEIGHT));
  if (font) copy.insertAdjacentHTML('afterbegin', `<style>${font}</style>`);
  return new XMLSerializer().serializeToString(copy);
}

/**
 * An SVG drawn on a canvas.
 * @param {string} svg
 * @param {number} scale
 */
async function raster(svg, scale) {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(WIDTH * scale);
    canvas.height = Math.round(HEIGHT * scale);
    const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d', { willReadFrequently: true }));
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    return canvas;
  } finally {
    URL.revokeObjectURL(url);
  }
}

/**
 * @param {Blob} blob
 * @param {string} name
 */
function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Saves the picture: `png` or `svg` of the position on view, `gif` of the whole line on view.
 * @param {'png' | 'svg' | 'gif'} format
 * @param {{ coordinates?: boolean }} [options]
 */
export async function saveImage(format, { coordinates = true } = {}) {
  const source = pictureSource();
  if (!source.view) return;
  notify('msg.imageSaving');
  // An off-screen board of the page's own kind, in the page's style sheet (so it takes the theme).
  const holder = document.createElement('div');
  holder.setAttribute('aria-hidden', 'true');
  holder.style.cssText = `position:fixed;left:-${2 * WIDTH}px;top:0;width:${WIDTH}px;height:${HEIGHT}px;pointer-events:none`;
  document.body.appendChild(holder);
  try {
    const board = new XiangqiBoard(holder);
    board.setPieceSet(source.board.pieceSet);
    board.setFlipped(source.board.flipped);
    const font = await embeddedFont();
    const arrows = source.board.arrows;
    const stamp = `xiangqi-${source.ply}`;
    let blob;
    let name;
    if (format === 'svg' || format === 'png') {
      const svg = standalone(board, { pieces: source.view.board, last: source.view.last, arrows, coordinates, font });
      if (format === 'svg') {
        blob = new Blob([svg], { type: 'image/svg+xml' });
      } else {
        const canvas = await raster(svg, 2);
        blob = await new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG'))), 'image/png'));
      }
      name = `${stamp}.${format}`;
    } else {
      const moves = source.moves.slice(0, MAX_FRAMES - 1);
      const start = await api('/api/xq/game', { fen: source.startFen ?? undefined, moves, ply: 0 });
      /** @type {Record<string, string>} */
      let pieces = { ...start.board };
      const frames = [];
      for (let ply = 0; ply <= moves.length; ply++) {
        const last = ply ? moves[ply - 1] : null;
        if (last) {
          pieces = { ...pieces, [last.slice(2, 4)]: pieces[last.slice(0, 2)] };
          delete pieces[last.slice(0, 2)];
        }
        const svg = standalone(board, { pieces, last, arrows: [], coordinates, font });
        const canvas = await raster(svg, 1);
        const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
        frames.push(ctx.getImageData(0, 0, canvas.width, canvas.height));
      }
      blob = new Blob([encodeGif(frames)], { type: 'image/gif' });
      name = `xiangqi-game.gif`;
    }
    download(blob, name);
    notify('msg.imageSaved', { name });
  } catch (error) {
    showError(error);
  } finally {
    holder.remove();
  }
}
