// @ts-check
// Playing the computer: its move at the chosen level (the engine runs in a Web Worker, see
// engine.js), and a hint: the engine's move drawn as an arrow and named.

import { buzz } from '../vibration.js';
import { api } from '../api.js';
import { $ } from '../dom.js';
import { t, onLangChange } from '../i18n.js';

/** @typedef {import('../tree.js').MoveNode} MoveNode */
/** @typedef {import('./messages.js').Messages} Messages */

/** The computer's thinking time at every level (the levels differ in what they search). */
export const MOVE_TIME_MS = 1000;

/** The level menu's values are the levels' names (`/api/xq/levels`); the number goes to the API. */
const LEVEL_NUMBERS = new Map(/** @type {[string, number][]} */ ([
  ['beginner', 1], ['novice', 2], ['casual', 3], ['club', 4], ['advanced', 5], ['expert', 6], ['master', 7], ['full', 8],
]));

/** Levels of earlier versions, as a saved choice may still name them. */
const OLD_LEVELS = new Map([['easy', 'casual'], ['normal', 'full'], ['strong', 'full']]);

/**
 * What the computer needs of the page.
 * @typedef {object} ComputerPage
 * @property {import('../board.js').XiangqiBoard} board
 * @property {Messages} messages
 * @property {(iccs: string) => Promise<boolean>} play plays the computer's move
 * @property {() => void} render
 * @property {() => void} renderArrows
 */

export class Computer {
  /**
   * @param {import('./game.js').Game} game
   * @param {ComputerPage} page
   */
  constructor(game, page) {
    this.game = game;
    this.page = page;
    /** @type {{ at: MoveNode, iccs: string } | null} the hint shown, and where */
    this.hint = null;
  }

  /** Whether the computer answers the user's moves. */
  get auto() {
    return !!$('engine-auto').checked;
  }

  /** The engine thinks (a bounded time) and its move is played like a click would be. */
  async move() {
    const { game, page } = this;
    if (!game.view || game.view.status.over) return;
    const asked = game.pathMoves();
    const at = game.node;
    $('engine').disabled = true;
    page.board.interactive = false;
    page.messages.say({ key: 'msg.thinking' });
    try {
      const level = LEVEL_NUMBERS.get($('engine-level').value) ?? 8;
      const answer = await api('/api/xq/engine', { fen: game.fen, moves: asked, level, movetime_ms: MOVE_TIME_MS });
      // Only if the game has not changed meanwhile.
      if (answer.bestmove && game.node === at) {
        await page.play(answer.bestmove);
        buzz(60);
      } else if (game.node === at) page.messages.say(null);
    } catch (error) {
      page.messages.say({ error }, 'error');
    } finally {
      $('engine').disabled = false;
      if (game.view) page.render();
    }
  }

  /** A hint while playing the computer: the engine's move, drawn as an arrow and named. */
  async showHint() {
    const { game, page } = this;
    if (!game.view || game.view.status.over) return;
    $('hint').disabled = true;
    page.messages.say({ key: 'msg.thinking' });
    try {
      const moves = game.pathMoves();
      const answer = await api('/api/xq/engine', { fen: game.fen, moves, movetime_ms: MOVE_TIME_MS });
      if (!answer.bestmove) return page.messages.say(null);
      const named = await api('/api/xq/move', { fen: game.fen, moves, text: answer.bestmove });
      this.hint = { at: game.node, iccs: answer.bestmove };
      page.renderArrows();
      page.messages.say({ key: 'msg.hint', vars: { move: named[game.notation] ?? named.iccs } });
    } catch (error) {
      page.messages.say({ error }, 'error');
    } finally {
      $('hint').disabled = false;
    }
  }

  /** The hint's arrow, when it is for the move on view. */
  arrows() {
    const hint = this.hint;
    return hint?.at === this.game.node ? [{ from: hint.iccs.slice(0, 2), to: hint.iccs.slice(2, 4), kind: 'hint' }] : [];
  }

  /** Reads and keeps the chosen level, and shows its rough strength beside the menu. */
  wireLevel() {
    const menu = /** @type {HTMLSelectElement} */ ($('engine-level'));
    const saved = localStorage.getItem('qi-engine-level') ?? 'full';
    menu.value = LEVEL_NUMBERS.has(saved) ? saved : OLD_LEVELS.get(saved) ?? 'full';
    /** @type {Map<string, number>} */
    const ratings = new Map();
    const showRating = () => {
      const rating = ratings.get(menu.value);
      $('engine-rating').textContent = rating ? t('level.rating', { rating }) : '';
    };
    menu.addEventListener('change', () => {
      localStorage.setItem('qi-engine-level', menu.value);
      showRating();
    });
    onLangChange(showRating);
    api('/api/xq/levels').then((/** @type {{ name: string, rating: number }[]} */ levels) => {
      for (const level of levels) ratings.set(level.name, level.rating);
      showRating();
    }, () => {});
  }
}
