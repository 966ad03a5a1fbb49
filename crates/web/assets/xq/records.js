// @ts-check
// The game as text: records in and out (headers, variations, comments; files are opened by
// ../records.js),
// the position as FEN, and the move record as people paste it into chats.

import { api } from '../api.js';
import { $, copyText } from '../dom.js';
import { GameTree } from '../tree.js';
import { numbering } from './game.js';

/**
 * What the records need of the page.
 * @typedef {object} RecordsPage
 * @property {import('./messages.js').Messages} messages
 * @property {() => void} render
 * @property {() => void} clearReview
 */

/** Tags the record writes itself (the position, the format): not kept as headers. */
const OWN_TAGS = ['Game', 'Format', 'FEN'];

/**
 * How a record's text is written in each script: the moves' notation, the players' line and
 * the results (ICCS and WXF records are written in simplified Chinese, as before).
 * @type {Record<string, { notation: 'chinese' | 'traditional' | 'vietnamese', red: string, black: string, players: (red: string, black: string) => string, results: Record<string, string> }>}
 */
const RECORD_WORDS = {
  chinese: {
    notation: 'chinese', red: '红方', black: '黑方',
    players: (red, black) => `${red}（红）对 ${black}（黑）`,
    results: { '1-0': '红胜', '0-1': '黑胜', '1/2-1/2': '和棋' },
  },
  traditional: {
    notation: 'traditional', red: '紅方', black: '黑方',
    players: (red, black) => `${red}（紅）對 ${black}（黑）`,
    results: { '1-0': '紅勝', '0-1': '黑勝', '1/2-1/2': '和棋' },
  },
  vietnamese: {
    notation: 'vietnamese', red: 'Đỏ', black: 'Đen',
    players: (red, black) => `${red} (Đỏ) – ${black} (Đen)`,
    results: { '1-0': 'Đỏ thắng', '0-1': 'Đen thắng', '1/2-1/2': 'Hòa' },
  },
};

export class Records {
  /**
   * @param {import('./game.js').Game} game
   * @param {RecordsPage} page
   */
  constructor(game, page) {
    this.game = game;
    this.page = page;
  }

  /**
   * Opens a record (`{pgn: text}` or a file's `{bytes: base64}`, any format): tags, variations
   * and comments. Returns the API's answer, or null when it did not open (the reason is shown).
   * @param {{ pgn?: string, bytes?: string }} request
   * @returns {Promise<any>}
   */
  async importRecord(request) {
    const { game, page } = this;
    try {
      const record = await api('/api/xq/record/import', request);
      const tree = GameTree.fromRecord(record.tree, record.comment);
      /** @type {[string, string][]} */
      const tags = record.tags.filter((/** @type {[string, string]} */ [k]) => !OWN_TAGS.includes(k));
      if (record.result && !tags.some(([k]) => k === 'Result')) tags.push(['Result', record.result]);
      const line = tree.mainLine();
      if (await game.show({ startFen: record.start_fen, tree, node: line.at(-1) || tree.root })) {
        game.tags = tags;
        page.clearReview();
        page.render();
        page.messages.say({ key: 'msg.pgnLoaded' });
        return record;
      }
    } catch (error) {
      page.messages.say({ error }, 'error');
    }
    return null;
  }

  /** The game as PGN, in the notation on view. @returns {Promise<string>} */
  async exportPgn() {
    const game = this.game;
    const { pgn } = await api('/api/xq/record/export', {
      fen: game.fen,
      tags: game.tags.filter(([, v]) => v),
      comment: game.tree.root.comment || undefined,
      tree: game.tree.toRecord(),
      notation: game.moveNotation(),
    });
    return pgn;
  }

  /**
   * The move record as people paste it into chats: numbered lines in Chinese notation, in the
   * script picked for moves (simplified unless traditional is), or in Vietnamese notation.
   */
  async recordText() {
    const game = this.game;
    const main = await game.nameMainLine();
    const words = RECORD_WORDS[game.notation] || RECORD_WORDS.chinese;
    /** @param {string} k */
    const tag = (k) => game.tag(k);
    const lines = [];
    if (tag('Red') || tag('Black')) lines.push(words.players(tag('Red') || words.red, tag('Black') || words.black));
    if (tag('Event')) lines.push(tag('Event'));
    const { isRed, number } = numbering(game.view.start_fen);
    let row = '';
    main.forEach((n, i) => {
      const ply = i + 1;
      const name = n[words.notation] || n.iccs;
      if (isRed(ply)) row = `${number(ply)}. ${name}`;
      else {
        row = row ? `${row} ${name}` : `${number(ply)}. … ${name}`;
        lines.push(row);
        row = '';
      }
    });
    if (row) lines.push(row);
    const result = tag('Result');
    if (result && result !== '*') lines.push(words.results[result] || result);
    return lines.join('\n');
  }

  /** Saves the game as a .pgn file named after the players. */
  async download() {
    const game = this.game;
    const pgn = await this.exportPgn();
    const name = [game.tag('Red'), game.tag('Black')].filter(Boolean).join('-') || 'xiangqi';
    const url = URL.createObjectURL(new Blob([pgn], { type: 'application/x-chess-pgn;charset=utf-8' }));
    const a = Object.assign(document.createElement('a'), { href: url, download: `${name}.pgn` });
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  /** The FEN, PGN and record-text controls. */
  wire() {
    const { game, page } = this;
    const say = page.messages.say.bind(page.messages);
    $('copy-text').addEventListener('click', async () => {
      try {
        const text = await this.recordText();
        $('pgn').value = text;
        say({ key: (await copyText(text, $('pgn'))) ? 'msg.recordCopied' : 'msg.copyFailed' });
      } catch (error) {
        say({ error }, 'error');
      }
    });
    $('fen-load').addEventListener('click', async () => {
      if (await game.show({ startFen: $('fen').value.trim(), tree: new GameTree(), node: null })) say({ key: 'msg.fenLoaded' });
    });
    $('fen').addEventListener('keydown', (/** @type {KeyboardEvent} */ e) => {
      if (e.key === 'Enter') $('fen-load').click();
    });
    $('fen-copy').addEventListener('click', async () => {
      if (await copyText($('fen').value, $('fen'))) say({ key: 'msg.fenCopied' });
    });
    $('pgn-box').hidden = false;
    $('pgn-import').addEventListener('click', () => this.importRecord({ pgn: $('pgn').value }));
    $('pgn-export').addEventListener('click', async () => {
      try {
        $('pgn').value = await this.exportPgn();
        say(null);
      } catch (error) {
        say({ error }, 'error');
      }
    });
    $('pgn-download').addEventListener('click', async () => {
      try {
        await this.download();
      } catch (error) {
        say({ error }, 'error');
      }
    });
  }
}
