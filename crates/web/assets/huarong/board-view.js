// @ts-check
// The Huarong Dao board in SVG: the tray with its exit, the pieces named after the generals,
// the selected piece's places to go (the hint's marked), and pointer input: drag a piece to
// where it can go, or click it and then a highlighted place; in the editor, a click on a cell.

import { svgEl as el } from '../dom.js';
import { t } from '../i18n.js';
import { SIZE, covers } from './state.js';

const CELL = 100;
const MARGIN = 20;
const WIDTH = MARGIN * 2 + CELL * 4;
const HEIGHT = MARGIN * 2 + CELL * 5;

/**
 * The top-left corner of a cell (0..19, row by row) on the board.
 * @param {number} cell
 * @returns {[number, number]}
 */
function cellXY(cell) {
  return [MARGIN + (cell % 4) * CELL, MARGIN + Math.floor(cell / 4) * CELL];
}

// The apps' names: 关羽 is the first horizontal general, 张飞, 赵云, 马超 and 黄忠 the vertical
// ones in board order, any further general takes a name left over. Names follow the pieces as
// they move (the label is set when the pieces are laid out, never on a slide).
const GENERALS = ['guan', 'zhang', 'zhao', 'ma', 'huang'];

/** @param {{ piece: string, cell: number }[]} pieces */
function pieceNames(pieces) {
  const names = new Map();
  const left = [...GENERALS];
  /** @param {string} name */
  const take = (name) => {
    const i = left.indexOf(name);
    return i >= 0 ? left.splice(i, 1)[0] : left.shift();
  };
  const firstH = pieces.find((p) => p.piece === 'H');
  if (firstH) names.set(firstH.cell, take('guan'));
  for (const p of pieces.filter((q) => q.piece === 'V')) names.set(p.cell, take('zhang'));
  for (const p of pieces.filter((q) => q.piece === 'H' && q !== firstH)) names.set(p.cell, take('guan'));
  return (/** @type {{ piece: string, cell: number }} */ p) => (p.piece === 'C' || p.piece === 'S' ? p.piece : names.get(p.cell) ?? null);
}

/** @param {string | null} name */
function label(name) {
  return name ? t(`hr.name.${name}`) : '将';
}

/**
 * @param {SVGElement} node
 * @param {number} cell
 */
function placeNode(node, cell) {
  const [x, y] = cellXY(cell);
  node.dataset.cell = String(cell);
  node.style.transform = `translate(${x}px, ${y}px)`;
}

/**
 * @param {string} piece its shape: C, V, H or S
 * @param {number} cell its top-left cell
 * @param {string | null} name
 */
function pieceNode(piece, cell, name) {
  const [h, w] = SIZE[piece];
  const g = el('g', { class: `block ${piece}`, 'data-piece': piece, 'data-cell': cell, 'data-name': name ?? '' });
  el('rect', { x: 4, y: 4, width: w * CELL - 8, height: h * CELL - 8, rx: 12 }, g);
  const text = el('text', { x: (w * CELL) / 2, y: (h * CELL) / 2 }, g);
  text.textContent = label(name);
  if (piece === 'H' || piece === 'V') text.classList.add(piece === 'V' ? 'vertical' : 'horizontal');
  placeNode(g, cell);
  return g;
}

/**
 * @typedef {object} BoardHooks
 * @property {(move: import('./state.js').HrMove) => void} play a move chosen on the board
 * @property {(cell: number | null) => void} editAt a click on a cell in the editor
 */

export class BoardView {
  /**
   * @param {HTMLElement} root the board's place on the page
   * @param {import('./state.js').HrState} state read for the selection, the moves and the mode
   * @param {BoardHooks} hooks
   */
  constructor(root, state, hooks) {
    this.state = state;
    this.hooks = hooks;
    // The board: a tray with the exit below the middle two columns.
    const svg = el('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'hr-board', role: 'img', 'aria-label': 'Huarong Dao board' });
    this.svg = svg;
    root.appendChild(svg);
    el('rect', { x: 0, y: 0, width: WIDTH, height: HEIGHT, rx: 14, class: 'tray' }, svg);
    el('rect', { x: MARGIN + CELL, y: HEIGHT - MARGIN, width: CELL * 2, height: MARGIN, class: 'exit' }, svg);
    const cellLayer = el('g', {}, svg);
    for (let cell = 0; cell < 20; cell++) {
      const [x, y] = cellXY(cell);
      el('rect', { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, class: 'cell', 'data-cell': cell }, cellLayer);
    }
    this.ghostLayer = el('g', {}, svg);
    this.pieceLayer = el('g', {}, svg);
    /** @type {{ node: any, cell: number, start: DOMPoint, moved: boolean } | null} */
    this.drag = null;
    svg.addEventListener('pointerdown', (/** @type {PointerEvent} */ e) => this.down(e));
    svg.addEventListener('pointermove', (/** @type {PointerEvent} */ e) => this.move(e));
    svg.addEventListener('pointerup', (/** @type {PointerEvent} */ e) => this.up(e));
  }

  /** @param {{ piece: string, cell: number }[]} pieces laid out anew (names given again) */
  renderPieces(pieces) {
    const nameOf = pieceNames(pieces);
    this.pieceLayer.replaceChildren(...pieces.map((p) => pieceNode(p.piece, p.cell, nameOf(p))));
    this.renderSelection();
  }

  /** The names in the language chosen. */
  relabel() {
    for (const node of this.pieceLayer.children) node.querySelector('text').textContent = label(node.dataset.name || null);
  }

  renderSelection() {
    const state = this.state;
    this.ghostLayer.replaceChildren();
    for (const node of this.pieceLayer.children) node.classList.toggle('selected', Number(node.dataset.cell) === state.selected);
    if (state.selected === null || !state.view) return;
    for (const m of state.view.moves.filter((/** @type {any} */ mv) => mv.from === state.selected)) {
      const [h, w] = SIZE[m.piece];
      const [x, y] = cellXY(m.to);
      el('rect', {
        x: x + 6, y: y + 6, width: w * CELL - 12, height: h * CELL - 12, rx: 12,
        class: m.to === state.hint ? 'ghost hint' : 'ghost', 'data-to': m.to,
      }, this.ghostLayer);
    }
  }

  /**
   * The piece whose top-left cell is `cell`, if any.
   * @param {number} cell
   * @returns {any}
   */
  pieceAt(cell) {
    return [...this.pieceLayer.children].find((n) => Number(n.dataset.cell) === cell);
  }

  /**
   * Moves one piece on screen (animated by CSS) from one top-left cell to another.
   * @param {number} from
   * @param {number} to
   */
  slide(from, to) {
    const node = this.pieceAt(from);
    if (node) placeNode(node, to);
  }

  /** @param {PointerEvent} event */
  point(event) {
    return new DOMPoint(event.clientX, event.clientY).matrixTransform(this.svg.getScreenCTM().inverse());
  }

  /**
   * @param {DOMPoint} p
   * @returns {number | null}
   */
  cellAt(p) {
    const col = Math.floor((p.x - MARGIN) / CELL);
    const row = Math.floor((p.y - MARGIN) / CELL);
    return col >= 0 && col < 4 && row >= 0 && row < 5 ? row * 4 + col : null;
  }

  /** @param {PointerEvent} event */
  down(event) {
    const state = this.state;
    if (state.playing || !state.view) return;
    const p = this.point(event);
    if (state.editing) {
      this.hooks.editAt(this.cellAt(p));
      return;
    }
    const target = /** @type {Element} */ (event.target);
    const ghost = /** @type {SVGElement | null} */ (target.closest('.ghost'));
    const block = /** @type {SVGElement | null} */ (target.closest('.block'));
    if (!block || ghost) {
      // A click on an empty place while a piece is selected: go there if the piece can.
      const cell = ghost ? Number(ghost.dataset.to) : this.cellAt(p);
      if (state.selected !== null && cell !== null) {
        const moves = state.view.moves.filter((/** @type {any} */ m) => m.from === state.selected);
        const exact = moves.find((/** @type {any} */ m) => m.to === cell);
        const covering = moves.find((/** @type {any} */ m) => covers(m.piece, m.to, cell));
        if (exact || covering) this.hooks.play(exact || covering);
      }
      return;
    }
    event.preventDefault();
    const cell = Number(block.dataset.cell);
    state.selected = cell;
    this.renderSelection();
    this.drag = { node: block, cell, start: p, moved: false };
    this.svg.setPointerCapture?.(event.pointerId);
  }

  /** @param {PointerEvent} event */
  move(event) {
    const drag = this.drag;
    if (!drag) return;
    const p = this.point(event);
    const dx = p.x - drag.start.x;
    const dy = p.y - drag.start.y;
    if (!drag.moved && Math.hypot(dx, dy) < 8) return;
    drag.moved = true;
    const [x, y] = cellXY(drag.cell);
    drag.node.classList.add('dragging');
    drag.node.style.transition = 'none';
    drag.node.style.transform = `translate(${x + dx}px, ${y + dy}px)`;
  }

  /** @param {PointerEvent} event */
  up(event) {
    const d = this.drag;
    if (!d) return;
    this.drag = null;
    d.node.classList.remove('dragging');
    d.node.style.transition = '';
    if (!d.moved) return;
    const p = this.point(event);
    const col = (d.cell % 4) + Math.round((p.x - d.start.x) / CELL);
    const row = Math.floor(d.cell / 4) + Math.round((p.y - d.start.y) / CELL);
    const to = col >= 0 && col < 4 && row >= 0 && row < 5 ? row * 4 + col : null;
    const move = this.state.view.moves.find((/** @type {any} */ m) => m.from === d.cell && m.to === to);
    if (move) {
      this.hooks.play(move);
    } else {
      placeNode(d.node, d.cell);
    }
  }
}
