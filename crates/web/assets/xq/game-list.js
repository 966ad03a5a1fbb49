// @ts-check
// The games of a collection (a file or text holding more than one game): one row per game
// (number, red, black, event, date, result, plies, opening), sorted by a click on a column's
// header (again: the other way), narrowed by a filter box (players, event and opening, any
// case); a click on a row opens that game on the board. Loaded with the first collection opened
// (records.js), so the page's first load does not carry it; its few styles come with it. Each
// game's opening (ECCO code and name) fills its column once the explorer's module is loaded
// (explorer-panel.js), and a button adds the collection's games to the user's explorer.

import { htmlEl } from '../dom.js';
import { applyText, onLangChange, t } from '../i18n.js';
import { openingsOf, addCollection } from './explorer-panel.js';

/**
 * A game of the list, as `/api/xq/record/import` gives it (`list`).
 * with the opening named here (empty until it is known, or when the record is too large to
 * carry its games' lines).
 * @typedef {{ index: number, red: string, black: string, event: string, date: string, result: string, moves: number, fen?: string, line?: string, opening: string }} GameRow
 */

/** The columns, in order: the row's key and the header's text. */
const COLUMNS = /** @type {const} */ ([
  ['index', 'games.index'], ['red', 'games.red'], ['black', 'games.black'], ['event', 'games.event'],
  ['date', 'games.date'], ['result', 'games.result'], ['moves', 'games.moves'], ['opening', 'games.opening'],
]);

/** Rows drawn at most: a collection of thousands is narrowed with the filter. */
const MAX_ROWS = 1000;

const STYLE = `
#game-list-box .game-list-scroll { max-height: 22em; overflow: auto; }
#game-list { border-collapse: collapse; width: 100%; font-size: 0.9em; }
#game-list th, #game-list td { padding: 0.2em 0.4em; text-align: start; white-space: nowrap; }
#game-list th button { all: unset; cursor: pointer; font-weight: bold; }
#game-list th[aria-sort="ascending"] button::after { content: " ▲"; }
#game-list th[aria-sort="descending"] button::after { content: " ▼"; }
#game-list tbody tr { cursor: pointer; border-top: 1px solid var(--button-edge, #ccc); }
#game-list tbody tr:hover, #game-list tbody tr[aria-selected="true"] { background: var(--panel, #eee); }
#game-list-filter { width: 100%; box-sizing: border-box; margin-bottom: 0.4em; }
`;

/** Results sort winner first: red, black, a draw, then unknown. */
const RESULT_ORDER = ['1-0', '0-1', '1/2-1/2', '*'];

export class GameList {
  /**
   * @param {Element} after the list is placed after this element
   * @param {(index: number) => void} pick opens a game by its number
   * @param {(message: { key: string, vars?: Record<string, any> } | { error: any }) => void} say shows a message
   */
  constructor(after, pick, say) {
    this.pick = pick;
    this.say = say;
    /** @type {GameRow[]} */
    this.rows = [];
    /** @type {keyof GameRow} */
    this.key = 'index';
    this.descending = false;
    this.chosen = 0;
    document.head.appendChild(htmlEl('style', { text: STYLE }));
    this.filter = htmlEl('input', { id: 'game-list-filter', type: 'search', 'data-i18n-placeholder': 'games.filter', 'data-i18n-label': 'games.filter', oninput: () => this.draw() });
    this.count = htmlEl('p', { id: 'game-list-count' });
    const head = htmlEl('tr', {}, ...COLUMNS.map(([key, text]) => htmlEl('th', { scope: 'col', 'data-key': key },
      htmlEl('button', { type: 'button', 'data-i18n': text, onclick: () => this.sortBy(key) }))));
    this.body = htmlEl('tbody', { onclick: (/** @type {MouseEvent} */ e) => this.onClick(e) });
    this.table = htmlEl('table', { id: 'game-list' }, htmlEl('thead', {}, head), this.body);
    this.add = htmlEl('button', { id: 'game-list-explore', type: 'button', 'data-i18n': 'explorer.add', onclick: () => this.addToExplorer() });
    this.box = htmlEl('section', { id: 'game-list-box' },
      htmlEl('h2', { 'data-i18n': 'games.title' }), this.filter, this.count,
      htmlEl('div', { class: 'game-list-scroll' }, this.table), this.add);
    after.after(this.box);
    applyText(this.box);
    onLangChange(() => this.draw());
  }

  /**
   * Shows the games of a new collection, `chosen` being the one on the board.
   * @param {GameRow[]} rows
   * @param {number} chosen
   */
  show(rows, chosen) {
    for (const r of rows) r.opening ??= '';
    this.rows = rows;
    this.chosen = chosen;
    delete this.box.dataset.openings;
    this.filter.value = '';
    this.key = 'index';
    this.descending = false;
    this.box.hidden = false;
    this.draw();
    this.nameOpenings(rows);
  }

  /**
   * Names each game's opening (the explorer's module loads for it), then redraws.
   * @param {GameRow[]} rows
   */
  async nameOpenings(rows) {
    try {
      const names = await openingsOf(rows);
      rows.forEach((r, i) => { r.opening = names[i]; });
    } catch {
      // Offline before the module was ever kept: the column stays empty.
      return;
    }
    if (rows === this.rows) this.draw();
    this.box.dataset.openings = 'true';
  }

  /** Adds the collection's games to the user's explorer. */
  async addToExplorer() {
    try {
      this.say(await addCollection(this.rows));
    } catch (error) {
      this.say({ error });
    }
  }

  hide() {
    this.box.hidden = true;
  }

  /** Marks the game now on the board. @param {number} index */
  mark(index) {
    this.chosen = index;
    for (const tr of this.body.rows) tr.setAttribute('aria-selected', String(Number(tr.dataset.game) === index));
  }

  /** Sorts by `key`, or the other way when it already is. @param {keyof GameRow} key */
  sortBy(key) {
    this.descending = this.key === key ? !this.descending : false;
    this.key = key;
    this.draw();
  }

  /** @param {MouseEvent} e */
  onClick(e) {
    const tr = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest('tr[data-game]'));
    if (tr) this.pick(Number(tr.dataset.game));
  }

  /** The rows that pass the filter, in the chosen order. */
  visible() {
    const needle = this.filter.value.trim().toLowerCase();
    const rows = this.rows.filter((r) => !needle || [r.red, r.black, r.event, r.opening].some((f) => f.toLowerCase().includes(needle)));
    const key = this.key;
    /** @param {GameRow} r */
    const value = (r) => (key === 'result' ? RESULT_ORDER.indexOf(r.result) : r[key]);
    rows.sort((a, b) => {
      const [x, y] = [value(a), value(b)];
      // Empty text goes last whichever way: a game without a date is not the oldest.
      if (typeof x === 'string' && typeof y === 'string' && (!x || !y)) return (x ? 0 : 1) - (y ? 0 : 1);
      const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      return (this.descending ? -order : order) || a.index - b.index;
    });
    return rows;
  }

  draw() {
    const rows = this.visible();
    for (const th of this.table.tHead.rows[0].cells) {
      th.setAttribute('aria-sort', th.dataset.key === this.key ? (this.descending ? 'descending' : 'ascending') : 'none');
    }
    this.body.replaceChildren(...rows.slice(0, MAX_ROWS).map((r) => htmlEl('tr', { 'data-game': String(r.index), 'aria-selected': String(r.index === this.chosen) },
      ...COLUMNS.map(([key]) => htmlEl('td', { text: String(r[key]) })))));
    this.count.textContent = rows.length > MAX_ROWS
      ? t('games.more', { shown: MAX_ROWS, n: rows.length })
      : t('games.count', { shown: rows.length, n: this.rows.length });
  }
}
