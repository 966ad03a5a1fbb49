// @ts-check
// The Xiangqi board in SVG: drawing, orientation, and turning clicks, drags and keys into moves.
// It knows no rules: the page gives it the pieces and the legal moves (from the API).
// It also slides moved pieces, draws arrows (the engine's best move), and lets a keyboard user
// walk the points (arrow keys, Enter or Space to pick up and put down a piece).

import { svgEl as el } from './dom.js';

const STEP = 60; // distance between two points
const MARGIN = 50; // room around the grid for the file numbers
export const WIDTH = MARGIN * 2 + STEP * 8;
export const HEIGHT = MARGIN * 2 + STEP * 9;
const FILES = 'abcdefghi';

// FEN letter -> glyph: upper case Red, lower case Black.
const GLYPHS = {
  K: '帥', A: '仕', B: '相', N: '傌', R: '俥', C: '炮', P: '兵',
  k: '將', a: '士', b: '象', n: '馬', r: '車', c: '砲', p: '卒',
};
// The Western set for beginners: the WXF letters (King, Advisor, Elephant, Horse, Rook, Cannon, Pawn).
const WESTERN = {
  K: 'K', A: 'A', B: 'E', N: 'H', R: 'R', C: 'C', P: 'P',
  k: 'K', a: 'A', b: 'E', n: 'H', r: 'R', c: 'C', p: 'P',
};
// Piece names for screen readers, by FEN letter (lower case: the kind).
export const PIECE_NAMES = {
  k: 'king', a: 'advisor', b: 'elephant', n: 'horse', r: 'rook', c: 'cannon', p: 'pawn',
};
const SLIDE_MS = 180;
const CN_DIGITS = '一二三四五六七八九';

/**
 * A point's ICCS name ("e0") from its file (0 = a) and rank (0 = Red's back rank).
 * @param {number} file
 * @param {number} rank
 */
export function squareName(file, rank) {
  return FILES[file] + rank;
}

/** @param {string} name */
function parseSquare(name) {
  return { file: FILES.indexOf(name[0]), rank: Number(name.slice(1)) };
}

/** Pieces by point: {"e0": "K", ...}, upper case Red. @typedef {Record<string, string>} Pieces */
/** An arrow between two points; `kind` picks the colour (best, hint). @typedef {{ from: string, to: string, kind?: string }} Arrow */

/**
 * What to show: the pieces, the legal moves of the side to move (ICCS), the last move, the king
 * in check, and a move to animate (the piece now on its target slides there from its start).
 * @typedef {object} BoardPosition
 * @property {Pieces} pieces
 * @property {string[]} [legal]
 * @property {string | null} [last]
 * @property {string | null} [checkSquare]
 * @property {string | null} [slide]
 */

export class XiangqiBoard {
  /**
   * onMove(iccs) is called when the user completes a move to a square it was told is legal,
   * onIllegal(iccs) when the user tries one it was not.
   * @param {HTMLElement} container
   * @param {{ onMove?: (iccs: string) => void, onIllegal?: (iccs: string) => void }} [handlers]
   */
  constructor(container, { onMove, onIllegal } = {}) {
    this.onMove = onMove || (() => {});
    this.onIllegal = onIllegal || (() => {});
    this.flipped = false;
    /** @type {Pieces} */
    this.pieces = {};
    /** @type {string[]} */
    this.legal = [];
    /** @type {string | null} */
    this.selected = null;
    /** @type {string | null} */
    this.last = null;
    /** @type {string | null} */
    this.checkSquare = null;
    this.interactive = true;
    /** @type {{ from: string, node: SVGGElement | null, start: DOMPoint, moved: boolean, pointerId: number } | null} */
    this.drag = null;
    /** @type {string | null} the move just dropped by drag (not slid again) */
    this.dragged = null;
    /** @type {{ iccs: string, started: number, frames: string[] } | null} */
    this.sliding = null;
    /** @type {'chinese' | 'western'} */
    this.pieceSet = 'chinese';
    /** @type {Arrow[]} */
    this.arrows = [];
    this.focusSquare = 'e0';
    /**
     * Takes a point first (the position editor); true when it did.
     * @type {((sq: string, event?: PointerEvent) => boolean) | null}
     */
    this.onPoint = null;
    /**
     * A point's label for screen readers.
     * @type {(sq: string, letter: string | undefined) => string}
     */
    this.describe = (sq, letter) => `${sq}${letter ? ` ${letter === letter.toUpperCase() ? 'red' : 'black'} ${PIECE_NAMES[letter.toLowerCase()]}` : ''}`;

    this.svg = el('svg', {
      viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
      class: 'xq-board',
      role: 'img',
      'aria-label': 'Xiangqi board',
    });
    container.appendChild(this.svg);
    this.gridLayer = el('g', { class: 'grid' }, this.svg);
    this.markLayer = el('g', { class: 'marks' }, this.svg);
    this.pieceLayer = el('g', { class: 'pieces' }, this.svg);
    this.targetLayer = el('g', { class: 'targets' }, this.svg);
    this.arrowLayer = el('g', { class: 'arrows' }, this.svg);
    this.pointLayer = el('g', { class: 'points' }, this.svg);
    const defs = el('defs', {}, this.svg);
    const uid = Math.random().toString(36).slice(2);
    /** @type {Record<string, string>} */
    this.arrowHeads = {};
    for (const kind of ['best', 'hint']) {
      const head = el('marker', {
        id: `arrowhead-${kind}-${uid}`, viewBox: '0 0 10 10', refX: 5, refY: 5,
        markerWidth: 3.2, markerHeight: 3.2, orient: 'auto-start-reverse',
      }, defs);
      el('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: `arrowhead ${kind}` }, head);
      this.arrowHeads[kind] = head.id;
    }
    this.drawGrid();
    this.makePoints();

    this.svg.addEventListener('pointerdown', (e) => this.pointerDown(e));
    this.svg.addEventListener('pointermove', (e) => this.pointerMove(e));
    this.svg.addEventListener('pointerup', (e) => this.pointerUp(e));
    this.svg.addEventListener('pointercancel', () => this.cancelDrag());
    this.pointLayer.addEventListener('keydown', (e) => this.keyDown(e));
  }

  // One focusable point per intersection (a roving tab stop: Tab reaches the board once, the
  // arrow keys walk it, Enter or Space acts as a click).
  makePoints() {
    /** @type {Record<string, SVGRectElement>} */
    this.points = {};
    for (let rank = 0; rank <= 9; rank++) {
      for (let file = 0; file <= 8; file++) {
        const sq = squareName(file, rank);
        const node = el('rect', {
          width: 56, height: 56, rx: 28, class: 'point', role: 'button', tabindex: sq === this.focusSquare ? 0 : -1,
          'data-square': sq,
        }, this.pointLayer);
        node.addEventListener('focus', () => this.setFocusSquare(sq, false));
        this.points[sq] = node;
      }
    }
    this.placePoints();
  }

  placePoints() {
    for (const [sq, node] of Object.entries(this.points)) {
      const { file, rank } = parseSquare(sq);
      const [x, y] = this.xy(file, rank);
      node.setAttribute('x', String(x - 28));
      node.setAttribute('y', String(y - 28));
    }
  }

  /**
   * @param {string} sq
   * @param {boolean} [focus] move the keyboard focus there too
   */
  setFocusSquare(sq, focus = true) {
    if (this.points[this.focusSquare]) this.points[this.focusSquare].setAttribute('tabindex', '-1');
    this.focusSquare = sq;
    this.points[sq].setAttribute('tabindex', '0');
    if (focus) this.points[sq].focus();
  }

  /** @param {KeyboardEvent} event */
  keyDown(event) {
    const sq = /** @type {SVGElement} */ (event.target).dataset?.square;
    if (!sq) return;
    const { file, rank } = parseSquare(sq);
    // Screen directions: rotated, "up" is towards rank 0.
    const up = this.flipped ? -1 : 1;
    const right = this.flipped ? -1 : 1;
    const steps = {
      ArrowUp: [0, up], ArrowDown: [0, -up], ArrowLeft: [-right, 0], ArrowRight: [right, 0],
    };
    if (steps[event.key]) {
      event.preventDefault();
      event.stopPropagation();
      const [df, dr] = steps[event.key];
      const f = Math.max(0, Math.min(8, file + df));
      const r = Math.max(0, Math.min(9, rank + dr));
      this.setFocusSquare(squareName(f, r));
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      event.stopPropagation();
      this.activate(sq);
    } else if (event.key === 'Escape' && this.selected) {
      event.stopPropagation();
      this.select(null);
    }
  }

  /**
   * A click (or Enter) on a point: select a piece, move the selected piece, or report an illegal move.
   * @param {string} sq
   */
  activate(sq) {
    if (this.onPoint && this.onPoint(sq)) return; // the position editor takes the point
    if (!this.interactive) return;
    if (this.selected && sq !== this.selected && this.targetsFrom(this.selected).includes(sq)) {
      this.tryMove(this.selected, sq);
    } else if (this.canMoveFrom(sq) && sq !== this.selected) {
      this.select(sq);
    } else if (this.selected && sq !== this.selected) {
      this.onIllegal(this.selected + sq);
      this.select(null);
    } else {
      this.select(null);
    }
  }

  /** @param {string} set 'chinese' or 'western' */
  setPieceSet(set) {
    this.pieceSet = set === 'western' ? 'western' : 'chinese';
    this.renderPieces();
  }

  /**
   * Arrows between ICCS squares; kind picks the colour (best, hint, ...).
   * @param {Arrow[] | null} arrows
   */
  setArrows(arrows) {
    this.arrows = arrows || [];
    this.renderArrows();
  }

  renderArrows() {
    this.arrowLayer.replaceChildren();
    for (const { from, to, kind } of this.arrows) {
      const a = parseSquare(from);
      const b = parseSquare(to);
      const [x1, y1] = this.xy(a.file, a.rank);
      const [x2, y2] = this.xy(b.file, b.rank);
      const len = Math.hypot(x2 - x1, y2 - y1) || 1;
      const shorten = 14; // stop before the centre so the head does not hide the target
      el('line', {
        x1, y1, x2: x2 - ((x2 - x1) / len) * shorten, y2: y2 - ((y2 - y1) / len) * shorten,
        class: `arrow ${kind || 'best'}`, 'marker-end': `url(#${this.arrowHeads[kind] || this.arrowHeads.best})`,
        'data-from': from, 'data-to': to,
      }, this.arrowLayer);
    }
  }

  /**
   * Screen position of a point: rotating by 180 degrees maps (file, rank) to (8 - file, 9 - rank).
   * @param {number} file
   * @param {number} rank
   * @returns {[number, number]}
   */
  xy(file, rank) {
    const f = this.flipped ? 8 - file : file;
    const r = this.flipped ? rank : 9 - rank;
    return [MARGIN + f * STEP, MARGIN + r * STEP];
  }

  drawGrid() {
    const g = this.gridLayer;
    g.replaceChildren();
    el('rect', { x: 0, y: 0, width: WIDTH, height: HEIGHT, rx: 8, class: 'wood' }, g);
    /** @type {(f1: number, r1: number, f2: number, r2: number, cls?: string) => void} */
    const line = (f1, r1, f2, r2, cls = 'line') => {
      const [x1, y1] = this.xy(f1, r1);
      const [x2, y2] = this.xy(f2, r2);
      el('line', { x1, y1, x2, y2, class: cls }, g);
    };
    const [x0, y0] = this.xy(this.flipped ? 8 : 0, this.flipped ? 0 : 9);
    el('rect', { x: x0 - 6, y: y0 - 6, width: STEP * 8 + 12, height: STEP * 9 + 12, class: 'frame' }, g);
    for (let r = 0; r <= 9; r++) line(0, r, 8, r);
    for (let f = 0; f <= 8; f++) {
      if (f === 0 || f === 8) {
        line(f, 0, f, 9);
      } else {
        line(f, 0, f, 4); // the river cuts the inner files
        line(f, 5, f, 9);
      }
    }
    // Palace diagonals.
    line(3, 0, 5, 2);
    line(5, 0, 3, 2);
    line(3, 7, 5, 9);
    line(5, 7, 3, 9);
    // Corner marks where cannons and soldiers start.
    const marks = [[1, 2], [7, 2], [1, 7], [7, 7]];
    for (let f = 0; f <= 8; f += 2) marks.push([f, 3], [f, 6]);
    for (const [f, r] of marks) this.drawStartMark(f, r);
    // River words, upright whichever way the board is turned.
    const [, yTop] = this.xy(0, this.flipped ? 4 : 5);
    const yRiver = yTop + STEP / 2;
    const left = this.flipped ? '漢 界' : '楚 河';
    const right = this.flipped ? '楚 河' : '漢 界';
    el('text', { x: MARGIN + STEP * 2, y: yRiver, class: 'river' }, g).textContent = left;
    el('text', { x: MARGIN + STEP * 6, y: yRiver, class: 'river' }, g).textContent = right;
    // File numbers: Red counts 一..九 from its right, Black 1..9 from its right.
    for (let f = 0; f <= 8; f++) {
      const [xr, yr] = this.xy(f, -0.62);
      el('text', { x: xr, y: yr, class: 'file-label red' }, g).textContent = CN_DIGITS[8 - f];
      const [xb, yb] = this.xy(f, 9.62);
      el('text', { x: xb, y: yb, class: 'file-label black' }, g).textContent = String(f + 1);
    }
  }

  /**
   * @param {number} file
   * @param {number} rank
   */
  drawStartMark(file, rank) {
    const [x, y] = this.xy(file, rank);
    const d = 5;
    const len = 12;
    for (const sx of [-1, 1]) {
      if ((file === 0 && sx === -1) || (file === 8 && sx === 1)) continue;
      for (const sy of [-1, 1]) {
        const px = x + sx * d;
        const py = y + sy * d;
        el('polyline', {
          points: `${px + sx * len},${py} ${px},${py} ${px},${py + sy * len}`,
          class: 'start-mark',
        }, this.gridLayer);
      }
    }
  }

  /** @param {boolean} flipped */
  setFlipped(flipped) {
    if (this.flipped === flipped) return;
    this.flipped = flipped;
    this.sliding = null;
    this.drawGrid();
    this.placePoints();
    this.renderPieces();
    this.renderArrows();
  }

  /** @param {BoardPosition} position */
  setPosition({ pieces, legal, last, checkSquare, slide }) {
    // A piece picked stays picked when the same piece may still move from there: news that
    // changes nothing for it (a spectator arriving, a clock's sync in a room) must not eat the
    // player's first tap.
    const picked = this.selected;
    const keep = picked !== null && pieces[picked] === this.pieces[picked] && (legal || []).some((m) => m.slice(0, 2) === picked);
    this.pieces = pieces;
    this.legal = legal || [];
    this.last = last || null;
    this.checkSquare = checkSquare || null;
    this.selected = keep ? picked : null;
    if (!slide && this.sliding && this.last !== this.sliding.iccs) this.sliding = null;
    this.cancelDrag();
    this.renderPieces();
    if (slide) this.slide(slide);
  }

  /**
   * Shows `iccs` played at once (before the rules have answered): the piece moves, the legal
   * moves are gone until the answer comes.
   * @param {string} iccs
   */
  playLocally(iccs) {
    const from = iccs.slice(0, 2);
    const to = iccs.slice(2, 4);
    const pieces = { ...this.pieces };
    pieces[to] = pieces[from];
    delete pieces[from];
    this.setPosition({ pieces, legal: [], last: iccs, slide: this.dragged === iccs ? null : iccs });
  }

  /** @param {string} iccs */
  slide(iccs) {
    const node = this.pieceLayer.querySelector(`[data-square="${iccs.slice(2, 4)}"]`);
    const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    if (!node || reduced || !node.animate) return;
    const a = parseSquare(iccs.slice(0, 2));
    const b = parseSquare(iccs.slice(2, 4));
    const [x1, y1] = this.xy(a.file, a.rank);
    const [x2, y2] = this.xy(b.file, b.rank);
    this.sliding = { iccs, started: performance.now(), frames: [`translate(${x1}px, ${y1}px)`, `translate(${x2}px, ${y2}px)`] };
    this.animateSlide(node, 0);
  }

  /**
   * @param {Element} node
   * @param {number} elapsed milliseconds of the slide already shown
   */
  animateSlide(node, elapsed) {
    this.pieceLayer.appendChild(node); // above the others while it moves
    const [a, b] = this.sliding.frames;
    const animation = node.animate([{ transform: a }, { transform: b }], { duration: SLIDE_MS, easing: 'ease-out' });
    animation.currentTime = elapsed;
  }

  // A redraw during a slide (the server's answer came quickly) carries the slide on.
  continueSlide() {
    const s = this.sliding;
    if (!s) return;
    const elapsed = performance.now() - s.started;
    const node = this.pieceLayer.querySelector(`[data-square="${s.iccs.slice(2, 4)}"]`);
    if (elapsed >= SLIDE_MS || !node || this.pieces[s.iccs.slice(2, 4)] === undefined) {
      this.sliding = null;
      return;
    }
    this.animateSlide(node, elapsed);
  }

  /** @param {string} square */
  targetsFrom(square) {
    return this.legal.filter((m) => m.slice(0, 2) === square).map((m) => m.slice(2, 4));
  }

  renderPieces() {
    this.markLayer.replaceChildren();
    this.pieceLayer.replaceChildren();
    this.targetLayer.replaceChildren();
    if (this.last) {
      for (const [sq, cls] of [[this.last.slice(0, 2), 'last-from'], [this.last.slice(2, 4), 'last-to']]) {
        const { file, rank } = parseSquare(sq);
        const [x, y] = this.xy(file, rank);
        el('rect', { x: x - 29, y: y - 29, width: 58, height: 58, rx: 6, class: cls, 'data-square': sq }, this.markLayer);
      }
    }
    for (const [sq, letter] of Object.entries(this.pieces)) {
      const { file, rank } = parseSquare(sq);
      const [x, y] = this.xy(file, rank);
      const red = letter === letter.toUpperCase();
      const classes = ['piece', red ? 'red' : 'black'];
      if (sq === this.selected) classes.push('selected');
      if (sq === this.checkSquare) classes.push('in-check');
      const g = el('g', {
        class: classes.join(' '),
        transform: `translate(${x} ${y})`,
        'data-square': sq,
        'data-piece': letter,
      }, this.pieceLayer);
      el('circle', { r: 27, class: 'piece-body' }, g);
      el('circle', { r: 22, class: 'piece-ring' }, g);
      const glyphs = this.pieceSet === 'western' ? WESTERN : GLYPHS;
      el('text', { class: `piece-glyph ${this.pieceSet}`, y: 1 }, g).textContent = glyphs[letter] || '?';
    }
    for (const [sq, node] of Object.entries(this.points || {})) {
      node.setAttribute('aria-label', this.describe(sq, this.pieces[sq]));
      node.classList.toggle('selected', sq === this.selected);
    }
    this.continueSlide();
    if (this.selected) {
      for (const sq of this.targetsFrom(this.selected)) {
        const { file, rank } = parseSquare(sq);
        const [x, y] = this.xy(file, rank);
        const capture = sq in this.pieces;
        el('circle', {
          cx: x, cy: y, r: capture ? 29 : 9,
          class: capture ? 'target capture' : 'target',
          'data-square': sq,
        }, this.targetLayer);
      }
    }
  }

  /**
   * The board point under a pointer event, or null when it is not near one.
   * @param {{ clientX: number, clientY: number }} event
   * @returns {string | null}
   */
  squareAt(event) {
    const ctm = this.svg.getScreenCTM();
    if (!ctm) return null;
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(ctm.inverse());
    const col = Math.round((p.x - MARGIN) / STEP);
    const row = Math.round((p.y - MARGIN) / STEP);
    if (col < 0 || col > 8 || row < 0 || row > 9) return null;
    if (Math.hypot(p.x - (MARGIN + col * STEP), p.y - (MARGIN + row * STEP)) > STEP * 0.48) return null;
    const file = this.flipped ? 8 - col : col;
    const rank = this.flipped ? row : 9 - row;
    return squareName(file, rank);
  }

  /** @param {PointerEvent} event */
  svgPoint(event) {
    const ctm = this.svg.getScreenCTM();
    return new DOMPoint(event.clientX, event.clientY).matrixTransform(ctm.inverse());
  }

  /** @param {string} square */
  canMoveFrom(square) {
    return this.interactive && this.legal.some((m) => m.slice(0, 2) === square);
  }

  /** @param {string | null} square */
  select(square) {
    this.selected = square;
    this.renderPieces();
  }

  /**
   * @param {string} from
   * @param {string} to
   */
  tryMove(from, to) {
    const iccs = from + to;
    if (this.legal.includes(iccs)) {
      this.selected = null;
      this.onMove(iccs);
      return true;
    }
    return false;
  }

  /** @param {PointerEvent} event */
  pointerDown(event) {
    if (event.button > 0) return;
    const sq = this.squareAt(event);
    if (sq && this.onPoint && this.onPoint(sq, event)) return; // the position editor takes the point
    if (!this.interactive) return;
    if (!sq) return;
    event.preventDefault();
    if (this.selected && sq !== this.selected && this.targetsFrom(this.selected).includes(sq)) {
      this.tryMove(this.selected, sq);
      return;
    }
    if (this.canMoveFrom(sq)) {
      this.select(sq);
      const node = this.pieceLayer.querySelector(`[data-square="${sq}"]`);
      this.drag = { from: sq, node, start: this.svgPoint(event), moved: false, pointerId: event.pointerId };
      this.svg.setPointerCapture?.(event.pointerId);
      return;
    }
    if (this.selected) {
      this.onIllegal(this.selected + sq);
      this.select(null);
    }
  }

  /** @param {PointerEvent} event */
  pointerMove(event) {
    if (!this.drag) return;
    const p = this.svgPoint(event);
    const { start, node } = this.drag;
    if (!this.drag.moved && Math.hypot(p.x - start.x, p.y - start.y) < 6) return;
    this.drag.moved = true;
    if (node) {
      node.classList.add('dragging');
      node.setAttribute('transform', `translate(${p.x} ${p.y})`);
      this.pieceLayer.appendChild(node); // on top of the others
    }
  }

  /** @param {PointerEvent} event */
  pointerUp(event) {
    const drag = this.drag;
    if (!drag) return;
    this.drag = null;
    this.svg.releasePointerCapture?.(drag.pointerId);
    if (!drag.moved) return; // a click: the piece stays selected
    const to = this.squareAt(event);
    if (to && to !== drag.from) {
      this.dragged = drag.from + to; // already where it was dropped: no slide
      const moved = this.tryMove(drag.from, to);
      this.dragged = null;
      if (moved) return; // the page redraws with the new position
      this.onIllegal(drag.from + to);
      this.selected = null;
    }
    this.renderPieces();
  }

  cancelDrag() {
    if (!this.drag) return;
    this.drag = null;
    this.renderPieces();
  }
}
