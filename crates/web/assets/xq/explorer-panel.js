// @ts-check
// The opening explorer and the opening's name, from the explorer's own WebAssembly module
// (packages/qi/explorer, built from crates/wasm-explorer): loaded on first use, when the
// explorer is opened or a game with moves is on the board, so the page's first load does not
// carry the master games. The explorer lists the moves the master games (and the user's own,
// added from the collections they open) played from the position on the board: a click on a
// move plays it, a typical game opens. The user's games are kept in the browser (local storage,
// packed: about one byte a move), at most MAX_MY_GAMES of them.

import { $, htmlEl } from '../dom.js';
import { applyText, currentLang, t } from '../i18n.js';
import { loadExplorer, explore, classify, addGames, myGames, myGamesCount, loadMyGames, clearMyGames } from '../qi/explorer/index.js';

/** The most games of the user's explorer (crates/wasm-explorer's MAX_MY_GAMES). */
export const MAX_MY_GAMES = 5000;

const KEY = 'qi-explorer-mine';
const SOURCE_KEY = 'qi-explorer-source';

const STYLE = `
#explorer .explorer-scroll { max-height: 24em; overflow: auto; }
#explorer .explorer-table { border-collapse: collapse; width: 100%; font-size: 0.9em; }
#explorer .explorer-table th, #explorer .explorer-table td { padding: 0.2em 0.4em; text-align: start; white-space: nowrap; }
#explorer .explorer-table tbody tr { border-top: 1px solid var(--button-edge, #ccc); }
#explorer .explorer-table button { font: inherit; }
#explorer .bar { display: flex; min-width: 8em; height: 1.2em; border: 1px solid var(--button-edge, #ccc); font-size: 0.8em; line-height: 1.2em; }
#explorer .bar span { overflow: hidden; text-align: center; }
#explorer .bar .red { background: #c0392b; color: #fff; }
#explorer .bar .draw { background: #bbb; color: #000; }
#explorer .bar .black { background: #222; color: #fff; }
#opening { margin: 0.2em 0; }
`;

/** Base64 of bytes, and back (local storage keeps text). */
const toBase64 = (/** @type {Uint8Array} */ bytes) => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(''));
const fromBase64 = (/** @type {string} */ text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** @type {Promise<void> | null} */
let ready = null;

/** Loads the module and the user's kept games, once. */
export function loadOpenings() {
  ready ??= loadExplorer().then(() => {
    const kept = localStorage.getItem(KEY);
    if (kept) {
      try {
        loadMyGames(fromBase64(kept));
      } catch {
        // A damaged copy is dropped, not kept failing.
        localStorage.removeItem(KEY);
      }
    }
  });
  ready.catch(() => { ready = null; });
  return ready;
}

/**
 * An opening as the page shows it: the code and the name in the page's language (English
 * where the table has an English name; Chinese in the two Chinese scripts and where it has none).
 * @param {{ code: string, name_zh: string, name_en: string | null } | null} ecco
 */
export function openingText(ecco) {
  if (!ecco) return '';
  const chinese = currentLang().startsWith('zh');
  return `${ecco.code} ${chinese || !ecco.name_en ? ecco.name_zh : ecco.name_en}`;
}

/**
 * The opening of each game of a collection that carries its line: the list's column.
 * @param {{ fen?: string, line?: string }[]} rows
 * @returns {Promise<string[]>}
 */
export async function openingsOf(rows) {
  await loadOpenings();
  return rows.map((r) => {
    if (r.line === undefined) return '';
    try {
      return openingText(classify({ fen: r.fen, moves: r.line ? r.line.split(' ') : [] }));
    } catch {
      return '';
    }
  });
}

/**
 * Adds a collection's games to the user's explorer and keeps them: how many were added.
 * @param {{ index: number, red: string, black: string, event: string, result: string, fen?: string, line?: string }[]} rows
 * @returns {Promise<{ key: string, vars?: Record<string, any> }>} what to tell the user
 */
export async function addCollection(rows) {
  await loadOpenings();
  if (rows.some((r) => r.line === undefined)) return { key: 'explorer.noLines', vars: { max: MAX_MY_GAMES } };
  const have = myGamesCount();
  if (have + rows.length > MAX_MY_GAMES) return { key: 'explorer.full', vars: { n: have, max: MAX_MY_GAMES } };
  const games = rows.map((r) => ({
    id: [[r.red, r.black].filter(Boolean).join(' – '), r.event].filter(Boolean).join(', ') || `#${r.index}`,
    fen: r.fen,
    moves: r.line ? r.line.split(' ') : [],
    result: r.result,
  }));
  const { added, games: total } = addGames(games);
  localStorage.setItem(KEY, toBase64(myGames()));
  return { key: 'explorer.added', vars: { n: added, total } };
}

/**
 * @typedef {object} ExplorerHooks
 * @property {(iccs: string) => void} play plays a move on the board
 * @property {(game: { fen: string, moves: string[], ply: number }) => void} open opens a game at a ply
 * @property {(error: any) => void} failed shows an error
 */

export class ExplorerPanel {
  /**
   * @param {import('./game.js').Game} game
   * @param {ExplorerHooks} hooks
   */
  constructor(game, hooks) {
    this.game = game;
    this.hooks = hooks;
    /** @type {any} the report on view */
    this.report = null;
    document.head.appendChild(htmlEl('style', { text: STYLE }));
    const kept = localStorage.getItem(SOURCE_KEY);
    this.source = htmlEl('select', { id: 'explorer-source', 'data-i18n-label': 'explorer.sources', onchange: () => {
      localStorage.setItem(SOURCE_KEY, this.source.value);
      this.update();
    } }, ...['all', 'master', 'mine'].map((v) => htmlEl('option', { value: v, 'data-i18n': `explorer.${v}` })));
    if (kept && ['all', 'master', 'mine'].includes(kept)) this.source.value = kept;
    this.summary = htmlEl('p', { id: 'explorer-summary' });
    this.body = htmlEl('tbody', { onclick: (/** @type {MouseEvent} */ e) => this.onClick(e) });
    this.table = htmlEl('table', { class: 'explorer-table', id: 'explorer-moves' },
      htmlEl('thead', {}, htmlEl('tr', {}, ...['explorer.move', 'explorer.games', 'explorer.results', 'explorer.typical']
        .map((key) => htmlEl('th', { scope: 'col', 'data-i18n': key })))),
      this.body);
    this.mine = htmlEl('p', { id: 'explorer-mine', class: 'muted' });
    this.clear = htmlEl('button', { id: 'explorer-clear', type: 'button', 'data-i18n': 'explorer.clear', onclick: () => {
      clearMyGames();
      localStorage.removeItem(KEY);
      this.update();
    } });
    const box = $('explorer');
    box.replaceChildren(
      htmlEl('label', {}, htmlEl('span', { 'data-i18n': 'explorer.sources' }), ' ', this.source),
      this.summary, htmlEl('div', { class: 'explorer-scroll' }, this.table), htmlEl('div', { class: 'row wrap' }, this.mine, this.clear));
    applyText(box);
  }

  /** Whether the explorer is open (its box in the analysis tools). */
  open() {
    return /** @type {HTMLDetailsElement} */ ($('explorer-box')).open;
  }

  /** The opening by the move list, and the explorer when open, for the move on view. */
  update() {
    const game = this.game;
    const request = { fen: game.fen, moves: game.pathMoves() };
    const opening = $('opening');
    try {
      const ecco = request.moves.length ? classify(request) : null;
      opening.hidden = !ecco;
      opening.textContent = ecco ? t('explorer.opening', { name: openingText(ecco) }) : '';
      opening.dataset.code = ecco?.code ?? '';
      if (!this.open()) return;
      this.report = explore(request, /** @type {any} */ (this.source.value));
    } catch (error) {
      this.hooks.failed(error);
      return;
    }
    this.draw();
  }

  /** The text of a move in the page's notation. @param {any} m */
  moveText(m) {
    const notation = this.game.moveNotation();
    return notation === 'iccs' ? m.move : m[notation];
  }

  draw() {
    const r = this.report;
    const percent = (/** @type {number} */ n, /** @type {number} */ of) => (of ? Math.round((100 * n) / of) : 0);
    this.summary.textContent = r.total
      ? t('explorer.total', { n: r.total, red: percent(r.red, r.total), draw: percent(r.draw, r.total), black: percent(r.black, r.total) })
      : t('explorer.none', { depth: r.depth });
    this.table.hidden = !r.moves.length;
    this.body.replaceChildren(...r.moves.map((/** @type {any} */ m, /** @type {number} */ i) => {
      const shares = [['red', m.red], ['draw', m.draw], ['black', m.black]].map(([side, n]) => [side, percent(/** @type {number} */ (n), m.games)]);
      const bar = htmlEl('div', { class: 'bar', title: t('explorer.shares', { red: shares[0][1], draw: shares[1][1], black: shares[2][1] }) },
        ...shares.filter(([, p]) => p).map(([side, p]) => htmlEl('span', { class: String(side), style: `width: ${p}%`, text: `${p}%` })));
      return htmlEl('tr', { 'data-move': m.move },
        htmlEl('td', {}, htmlEl('button', { type: 'button', class: 'explore-move', 'data-i': String(i), text: this.moveText(m) })),
        htmlEl('td', { text: String(m.games) }),
        htmlEl('td', {}, bar),
        htmlEl('td', {}, htmlEl('button', { type: 'button', class: 'explore-typical', 'data-i': String(i), text: m.typical.id })));
    }));
    const n = myGamesCount();
    this.mine.textContent = t('explorer.myCount', { n, max: MAX_MY_GAMES });
    this.clear.hidden = !n;
  }

  /** @param {MouseEvent} e */
  onClick(e) {
    const button = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest('button[data-i]'));
    if (!button || !this.report) return;
    const m = this.report.moves[Number(button.dataset.i)];
    if (button.classList.contains('explore-move')) this.hooks.play(m.move);
    else this.hooks.open({ fen: m.typical.fen, moves: m.typical.moves.split(' '), ply: m.typical.ply });
  }
}
