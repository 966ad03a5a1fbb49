// @ts-check
// The position editor: drag pieces from a palette onto the board (or pick one and click
// points), drag pieces around or off the board, choose the side to move; clear, start position,
// rotate the board. Every change is checked by the rules, and only a legal position can be confirmed.

/** @typedef {import('./board.js').Pieces} Pieces */

/** @type {Pieces} */
const START = {
  a0: 'R', b0: 'N', c0: 'B', d0: 'A', e0: 'K', f0: 'A', g0: 'B', h0: 'N', i0: 'R', b2: 'C', h2: 'C',
  a3: 'P', c3: 'P', e3: 'P', g3: 'P', i3: 'P',
  a9: 'r', b9: 'n', c9: 'b', d9: 'a', e9: 'k', f9: 'a', g9: 'b', h9: 'n', i9: 'r', b7: 'c', h7: 'c',
  a6: 'p', c6: 'p', e6: 'p', g6: 'p', i6: 'p',
};
export const PALETTE = ['K', 'A', 'B', 'N', 'R', 'C', 'P', 'k', 'a', 'b', 'n', 'r', 'c', 'p'];
const FILES = 'abcdefghi';

/**
 * FEN of a board {square: letter} with `turn` ('w' or 'b') to move.
 * @param {Pieces} pieces
 * @param {string} turn
 */
export function toFen(pieces, turn) {
  const rows = [];
  for (let rank = 9; rank >= 0; rank--) {
    let row = '';
    let empty = 0;
    for (let f = 0; f < 9; f++) {
      const p = pieces[FILES[f] + rank];
      if (p) {
        if (empty) row += empty;
        row += p;
        empty = 0;
      } else {
        empty += 1;
      }
    }
    rows.push(row + (empty ? empty : ''));
  }
  return `${rows.join('/')} ${turn} - - 0 1`;
}

/**
 * The board and side to move of a FEN (the rules have checked it).
 * @param {string} fen
 * @returns {{ pieces: Pieces, turn: 'w' | 'b' }}
 */
export function fromFen(fen) {
  /** @type {Pieces} */
  const pieces = {};
  const [board, side] = fen.split(' ');
  board.split('/').forEach((row, i) => {
    let f = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) f += Number(ch);
      else pieces[FILES[f++] + (9 - i)] = ch;
    }
  });
  return { pieces, turn: side === 'b' ? 'b' : 'w' };
}

export class PositionEditor {
  /**
   * board: the XiangqiBoard; glyph(letter): the text of a palette piece; check(fen): resolves
   * to null when legal, else the error; onChange(state) after each edit.
   * @param {{ board: import('./board.js').XiangqiBoard, palette: HTMLElement, glyph: (letter: string) => string,
   *   check: (fen: string) => Promise<any>, onChange: (state: { checking: boolean, error?: any }) => void }} options
   */
  constructor({ board, palette, glyph, check, onChange }) {
    this.board = board;
    this.palette = palette;
    this.glyph = glyph;
    this.check = check;
    this.onChange = onChange;
    /** @type {Pieces} */
    this.pieces = {};
    /** @type {'w' | 'b'} */
    this.turn = 'w';
    /** @type {string | null} a palette letter, 'erase', or null */
    this.tool = null;
    this.active = false;
    /** @type {{ letter: string, from: string | null, ghost: HTMLElement, moved: boolean, x: number, y: number } | null} */
    this.drag = null;
    this.seq = 0;
    this.valid = false;
    this.buildPalette();
    document.addEventListener('pointermove', (e) => this.dragMove(e));
    document.addEventListener('pointerup', (e) => this.dragEnd(e));
  }

  buildPalette() {
    this.palette.replaceChildren();
    for (const letter of [...PALETTE, 'erase']) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = letter === 'erase' ? 'tool erase' : `tool piece-tool ${letter === letter.toUpperCase() ? 'red' : 'black'}`;
      button.dataset.tool = letter;
      button.textContent = letter === 'erase' ? '✕' : this.glyph(letter);
      button.setAttribute('aria-pressed', 'false');
      button.addEventListener('pointerdown', (e) => {
        if (letter === 'erase' || e.button > 0) return;
        e.preventDefault();
        this.startDrag(letter, null, e);
      });
      button.addEventListener('click', () => this.setTool(this.tool === letter ? null : letter));
      this.palette.appendChild(button);
    }
  }

  /**
   * Names the palette's tools for screen readers and tooltips.
   * @param {(letter: string) => string} names
   */
  relabel(names) {
    for (const node of this.palette.querySelectorAll('.tool')) {
      const button = /** @type {HTMLElement} */ (node);
      const letter = button.dataset.tool;
      if (letter !== 'erase') button.textContent = this.glyph(letter);
      button.title = names(letter);
      button.setAttribute('aria-label', names(letter));
    }
  }

  /** @param {string | null} tool */
  setTool(tool) {
    this.tool = tool;
    for (const b of this.palette.querySelectorAll('.tool')) b.setAttribute('aria-pressed', String(/** @type {HTMLElement} */ (b).dataset.tool === tool));
  }

  /** @param {string} fen the position to start from */
  open(fen) {
    const { pieces, turn } = fromFen(fen);
    this.active = true;
    this.pieces = pieces;
    this.turn = turn;
    this.setTool(null);
    this.board.interactive = false;
    this.board.onPoint = (sq, event) => this.point(sq, event);
    this.changed();
  }

  close() {
    this.active = false;
    this.board.onPoint = null;
    this.cancelDrag();
  }

  /**
   * A pointer press (event) or Enter (no event) on a board point.
   * @param {string} sq
   * @param {PointerEvent} [event]
   */
  point(sq, event) {
    if (!this.active) return false;
    if (this.tool === 'erase') {
      this.set(sq, null);
    } else if (this.tool) {
      this.set(sq, this.pieces[sq] === this.tool ? null : this.tool);
    } else if (this.pieces[sq] && event) {
      event.preventDefault();
      this.startDrag(this.pieces[sq], sq, event);
    } else if (this.pieces[sq]) {
      this.set(sq, null);
    }
    return true;
  }

  /**
   * @param {string} sq
   * @param {string | null} letter null: empty
   */
  set(sq, letter) {
    if (letter) this.pieces[sq] = letter;
    else delete this.pieces[sq];
    this.changed();
  }

  /**
   * @param {string} letter
   * @param {string | null} from the point it leaves, null from the palette
   * @param {PointerEvent} event
   */
  startDrag(letter, from, event) {
    this.cancelDrag();
    const ghost = document.createElement('div');
    ghost.className = `drag-ghost ${letter === letter.toUpperCase() ? 'red' : 'black'}`;
    ghost.textContent = this.glyph(letter);
    document.body.appendChild(ghost);
    this.drag = { letter, from, ghost, moved: false, x: event.clientX, y: event.clientY };
    this.place(event);
  }

  /** @param {PointerEvent} event */
  place(event) {
    const { ghost } = this.drag;
    ghost.style.left = `${event.clientX}px`;
    ghost.style.top = `${event.clientY}px`;
  }

  /** @param {PointerEvent} event */
  dragMove(event) {
    if (!this.drag) return;
    if (Math.hypot(event.clientX - this.drag.x, event.clientY - this.drag.y) > 4) this.drag.moved = true;
    this.place(event);
  }

  /** @param {PointerEvent} event */
  dragEnd(event) {
    const drag = this.drag;
    if (!drag) return;
    this.cancelDrag();
    if (!drag.moved) return; // a click: the palette's click handler or the point handler decides
    const to = this.board.squareAt(event);
    if (drag.from) delete this.pieces[drag.from]; // dropped off the board: removed
    if (to) this.pieces[to] = drag.letter;
    this.changed();
  }

  cancelDrag() {
    if (this.drag) this.drag.ghost.remove();
    this.drag = null;
  }

  clear() {
    this.pieces = {};
    this.changed();
  }

  start() {
    this.pieces = { ...START };
    this.turn = 'w';
    this.changed();
  }

  /** @param {string} turn 'w' or 'b' */
  setTurn(turn) {
    this.turn = turn === 'b' ? 'b' : 'w';
    this.changed();
  }

  fen() {
    return toFen(this.pieces, this.turn);
  }

  /** Redraws and has the new position checked. */
  async changed() {
    this.board.setPosition({ pieces: { ...this.pieces }, legal: [] });
    this.valid = false;
    const seq = ++this.seq;
    this.onChange({ checking: true });
    const error = await this.check(this.fen());
    if (seq !== this.seq || !this.active) return;
    this.valid = !error;
    this.onChange({ checking: false, error });
  }
}
