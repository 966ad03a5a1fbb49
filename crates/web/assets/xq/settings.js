// @ts-check
// Look and sound: the piece set, the board's theme and size, the mute and vibration switches,
// kept in localStorage.

import { $ } from '../dom.js';
import { applyBoardSize, boardSize, setBoardSize } from '../board-size.js';
import * as sound from '../sound.js';
import * as vibration from '../vibration.js';

/** @param {import('../board.js').XiangqiBoard} board */
export function wireSettings(board) {
  const set = localStorage.getItem('qi-piece-set') || 'chinese';
  $('piece-set').value = set;
  board.setPieceSet(set);
  const theme = localStorage.getItem('qi-theme') || 'wood';
  $('theme').value = theme;
  document.body.dataset.theme = theme;
  $('mute').checked = sound.isMuted();
  $('piece-set').addEventListener('change', (/** @type {any} */ e) => {
    localStorage.setItem('qi-piece-set', e.target.value);
    board.setPieceSet(e.target.value);
  });
  $('theme').addEventListener('change', (/** @type {any} */ e) => {
    localStorage.setItem('qi-theme', e.target.value);
    document.body.dataset.theme = e.target.value;
  });
  $('mute').addEventListener('change', (/** @type {any} */ e) => sound.setMuted(e.target.checked));
  $('board-size').value = boardSize();
  applyBoardSize();
  $('board-size').addEventListener('change', (/** @type {any} */ e) => setBoardSize(e.target.value));
  $('vibrate').checked = vibration.isOn();
  $('vibrate').closest('label').hidden = !vibration.available();
  $('vibrate').addEventListener('change', (/** @type {any} */ e) => vibration.setOn(e.target.checked));
}
