// @ts-check
// A move's notation before the server writes it (a move shown while the server is out of
// reach): every notation from the page's WebAssembly rules, the code the server runs too.

import { Board, iccsToMove } from '../qi/index.js';

/** @typedef {{ iccs: string, chinese?: string, traditional?: string, vietnamese?: string, wxf?: string }} Notated */

const NOTATIONS = /** @type {const} */ (['chinese', 'traditional', 'vietnamese', 'wxf']);

/**
 * Move `iccs` in every notation, from the position `fen` before it; only `iccs` when the rules
 * are not loaded yet or the move is not legal there.
 * @param {string} fen
 * @param {string} iccs
 * @returns {Notated}
 */
export function notate(fen, iccs) {
  /** @type {Notated} */
  const out = { iccs };
  let board = null;
  try {
    board = new Board(fen);
    const m = iccsToMove(iccs);
    for (const n of NOTATIONS) out[n] = board.notate(m, n);
    return out;
  } catch {
    return { iccs };
  } finally {
    board?.free();
  }
}

/**
 * The same from a board as the API describes it (square → FEN letter, `{ e3: 'P' }`), the
 * side to move being the moving piece's.
 * @param {Record<string, string>} board
 * @param {string} iccs
 * @returns {Notated}
 */
export function localNotation(board, iccs) {
  const piece = board[iccs.slice(0, 2)];
  if (!piece) return { iccs };
  const rows = [];
  for (let rank = 9; rank >= 0; rank--) {
    let row = '';
    let gap = 0;
    for (const file of 'abcdefghi') {
      const p = board[`${file}${rank}`];
      if (!p) {
        gap += 1;
        continue;
      }
      row += (gap ? String(gap) : '') + p;
      gap = 0;
    }
    rows.push(row + (gap ? String(gap) : ''));
  }
  const turn = piece === piece.toUpperCase() ? 'w' : 'b';
  return notate(`${rows.join('/')} ${turn} - - 0 1`, iccs);
}
