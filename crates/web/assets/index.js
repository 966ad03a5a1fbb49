// @ts-check
// The home page: the language button, and a live preview of the famous game (its last
// position, from the same address the card opens: a share link or fen + moves).

import { api } from './api.js';
import { XiangqiBoard } from './board.js';
import { setupLangButton } from './i18n.js';

setupLangButton();

/** Draws the example game's last position on its card. */
async function preview() {
  const card = /** @type {HTMLAnchorElement} */ (document.getElementById('example-game'));
  const link = new URL(card.href).searchParams;
  try {
    const game = link.has('g') || link.has('p')
      ? await api('/api/xq/link', { link: `?${link}` })
      : { start_fen: link.get('fen'), moves: (link.get('moves') || '').split(/[.,\s]+/).filter(Boolean) };
    const view = await api('/api/xq/game', { fen: game.start_fen, moves: game.moves });
    const board = new XiangqiBoard(document.getElementById('example-board'));
    board.interactive = false;
    board.pointLayer.remove(); // a picture, not a control
    board.setPosition({ pieces: view.board, legal: [], last: view.last });
    card.dataset.plies = String(view.plies);
  } catch {
    // the card still links to the game
  }
}
preview();
