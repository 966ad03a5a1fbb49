// @ts-check
// What the position on view says besides the pieces: the status line (whose turn, check, the
// result), the description for screen readers, the king in check, and the move's sound.

import { $ } from '../dom.js';
import { PIECE_NAMES } from '../board.js';
import { t } from '../i18n.js';
import * as sound from '../sound.js';

/** @typedef {import('../qi/index.js').GameView} GameView */

/**
 * The square of the king in check, or null.
 * @param {GameView} view
 */
export function kingInCheck(view) {
  if (!view.check) return null;
  const king = view.turn === 'red' ? 'K' : 'k';
  return Object.keys(view.board).find((sq) => view.board[sq] === king) || null;
}

/**
 * The sound of the step from `before` to `view`.
 * @param {GameView | null} before
 * @param {GameView} view
 */
export function playSound(before, view) {
  if (view.status.over) sound.play('end');
  else if (view.check) sound.play('check');
  else if (before && Object.keys(view.board).length < Object.keys(before.board).length) sound.play('capture');
  else sound.play('move');
}

/** @param {GameView} view */
export function renderStatus(view) {
  const status = view.status;
  const node = $('status');
  if (status.over) {
    const reason = status.reason ? t(`reason.${status.reason.replace(/ /g, '_')}`) : '';
    node.textContent = t(`end.${status.winner || 'draw'}`) + (reason ? ` — ${reason}` : '');
    node.className = 'over';
  } else {
    node.textContent = t(`turn.${view.turn}`) + (view.check ? ` ${t('check')}` : '');
    node.className = view.check ? 'check' : '';
  }
}

/**
 * A piece in words ("Red king").
 * @param {string} letter a FEN letter
 */
function pieceWords(letter) {
  const side = letter === letter.toUpperCase() ? 'red' : 'black';
  return { side, name: t(`piece.${PIECE_NAMES[letter.toLowerCase()]}`) };
}

/**
 * For screen readers: the side to move, the last move and every piece by point.
 * @param {import('../board.js').XiangqiBoard} board
 * @param {GameView} view
 * @param {string | null} last the last move's name
 */
export function renderDescription(board, view, last) {
  const pieces = { red: [], black: [] };
  for (const [sq, letter] of Object.entries(view.board)) {
    const { side, name } = pieceWords(letter);
    pieces[side].push(`${name} ${sq}`);
  }
  const parts = [$('status').textContent];
  if (last) parts.push(t('a11y.last', { move: last }));
  parts.push(`${t('side.red')}: ${pieces.red.join(', ')}.`, `${t('side.black')}: ${pieces.black.join(', ')}.`);
  $('board-desc').textContent = parts.join(' ');
  board.svg.setAttribute('aria-label', t('a11y.board'));
  board.svg.setAttribute('aria-describedby', 'board-desc');
}

/**
 * Each point's label for screen readers ("e0 Red king"), in the page's language.
 * @param {string} sq
 * @param {string | undefined} letter
 */
export function describePoint(sq, letter) {
  if (!letter) return `${sq} ${t('a11y.empty')}`;
  const { side, name } = pieceWords(letter);
  return `${sq} ${t(`side.${side}`)} ${name}`;
}
