// @ts-check
// The keyboard: arrow keys, Home and End walk the game (outside fields and the board, whose
// points take their own keys), and a move typed in any notation is played.

import { api } from '../api.js';
import { $ } from '../dom.js';

/**
 * @param {import('./game.js').Game} game
 * @param {{ replay: import('./replay.js').Replay, messages: import('./messages.js').Messages,
 *   editing: () => boolean, play: (iccs: string) => Promise<boolean> }} page
 */
export function wireKeys(game, { replay, messages, editing, play }) {
  $('move-form').addEventListener('submit', async (/** @type {SubmitEvent} */ e) => {
    e.preventDefault();
    const text = $('move-input').value.trim();
    if (!text || !game.view) return;
    try {
      const m = await api('/api/xq/move', { fen: game.fen, moves: game.pathMoves(), text });
      if (await play(m.iccs)) $('move-input').value = '';
    } catch (error) {
      messages.say({ error }, 'error');
    }
  });
  document.addEventListener('keydown', (e) => {
    const target = /** @type {Element} */ (e.target);
    if (target.closest('input, textarea, select, .xq-board .points') || e.altKey || e.ctrlKey || e.metaKey) return;
    if (editing()) return;
    /** @type {Record<string, () => void>} */
    const actions = {
      ArrowLeft: () => replay.goTo(game.node.parent),
      ArrowRight: () => replay.goTo(game.node.children[0]),
      ArrowUp: () => replay.goToPly(0),
      Home: () => replay.goToPly(0),
      ArrowDown: () => replay.goToPly(Infinity),
      End: () => replay.goToPly(Infinity),
    };
    if (actions[e.key] && game.view) {
      e.preventDefault();
      actions[e.key]();
    }
  });
}
