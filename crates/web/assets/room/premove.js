// @ts-check
// Premoves (as lichess's): a move queued while the opponent is to move, its two squares marked
// on the board, played when the opponent's move comes if the rules still allow it. Where a
// premove may go comes from the WebAssembly rules (Board.premoveMoves).

import { $, svgEl } from '../dom.js';
import { t } from '../i18n.js';
import { load as loadRules, Board, moveToIccs } from '../qi/index.js';

/**
 * Where the player not to move in `fen` may premove (ICCS): their moves as if it were their
 * turn, and recaptures onto their own pieces. Whether a premove is legal once the opponent has
 * moved is judged again then.
 * @param {string} fen
 * @returns {Promise<string[]>}
 */
export async function premoveTargets(fen) {
  await loadRules();
  const board = new Board(fen);
  try {
    return Array.from(board.premoveMoves(), moveToIccs);
  } finally {
    board.free();
  }
}

export class Premove {
  /** @param {import('./controller.js').Room} room */
  constructor(room) {
    this.room = room;
    /** @type {string | null} the queued move (ICCS) */
    this.move = null;
    /** @type {string | null} the FEN the targets were found for */
    this.fen = null;
    /** @type {string[]} */
    this.targets = [];
    const board = room.board;
    this.layer = svgEl('g', { class: 'premove-marks' });
    board.svg.insertBefore(this.layer, board.pieceLayer);
    // A queued premove is cancelled by a click on the board (which does nothing else then) or a
    // right-click; Escape too (the controller's keys).
    board.svg.addEventListener('pointerdown', (/** @type {Event} */ e) => {
      if (!this.move) return;
      e.stopPropagation();
      e.preventDefault();
      this.cancel();
    }, true);
    board.svg.addEventListener('contextmenu', (/** @type {Event} */ e) => {
      if (!this.move && !board.selected) return;
      e.preventDefault();
      this.cancel();
    });
  }

  /** @param {string} iccs */
  set(iccs) {
    this.move = iccs;
    this.room.renderBoard();
    this.render();
  }

  cancel() {
    if (!this.move && !this.room.board.selected) return;
    this.move = null;
    this.room.board.select(null);
    this.room.renderBoard();
    this.render();
  }

  /** Forgets the queued move without redrawing (a takeback, another room). */
  drop() {
    this.move = null;
  }

  /**
   * Whether the targets of the live position `fen` are known; asks for them (once per
   * position) when not, and redraws when they come.
   * @param {string} fen
   */
  ready(fen) {
    if (this.fen !== fen) this.load(fen);
    return this.fen === fen;
  }

  /** @param {string} fen */
  async load(fen) {
    this.fen = fen;
    this.targets = [];
    try {
      const targets = await premoveTargets(fen);
      if (this.fen === fen) {
        this.targets = targets;
        this.room.renderBoard();
      }
    } catch {
      // The rules did not load: no premoves, the game goes on.
    }
  }

  // Once the opponent's move is in (the view is the server's latest, with the player to move):
  // the premove is played if the rules still allow it, dropped otherwise.
  fire() {
    const room = this.room;
    const s = room.state;
    const move = this.move;
    if (!move || !s || !room.view) return;
    if (s.status.outcome !== 'ongoing' || !s.you) {
      this.move = null;
      this.render();
      return;
    }
    if (s.turn !== s.you || room.pending || room.view.plies !== s.moves.length) return;
    this.move = null;
    if (room.view.legal.includes(move)) {
      if (room.viewPly !== null) room.goLive();
      room.play(move);
    } else {
      room.ui.notice.textContent = t('online.premoveDropped', { move: room.moveText(move) });
      room.renderBoard();
    }
    this.render();
  }

  /** The marks on the board, the board's data-premove and the note under the status. */
  render() {
    const layer = this.layer;
    layer.replaceChildren();
    const move = this.move;
    $('board').dataset.premove = move || '';
    const note = $('online-premove');
    if (note) note.hidden = !move;
    if (note && move) note.textContent = t('online.premove', { move: this.room.moveText(move) });
    if (!move) return;
    for (const sq of [move.slice(0, 2), move.slice(2, 4)]) {
      const [x, y] = this.room.board.xy('abcdefghi'.indexOf(sq[0]), Number(sq[1]));
      svgEl('rect', { x: x - 29, y: y - 29, width: 58, height: 58, rx: 6, class: 'premove-mark', 'data-square': sq }, layer);
    }
  }
}
