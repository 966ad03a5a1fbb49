// @ts-check
// The game as text and files: records in and out (headers, variations, comments), the position
// as FEN, the move record as people paste it into chats, record files ("Open file…" and a file
// or text dropped anywhere on the page) and "Save image".
//
// A file opens in any format the Qi library reads (XQF, PGN, DhtmlXQ, text pasted from a
// forum): its bytes go to the WebAssembly reader as base64 (`/api/xq/record/import` with
// `bytes`), which tells the format by its content: XQF is binary, and text comes in UTF-8 or
// GBK. A record of several games (a PGN collection, a page of DhtmlXQ boards) also shows the
// list of its games to pick from (./game-list.js, loaded with the first such record). "Save
// image" loads the drawing code (../save-image.js) only when it is first used, so the page's
// first load carries neither.

import { api, ApiError } from '../api.js';
import { $, copyText } from '../dom.js';
import { t } from '../i18n.js';
import { GameTree } from '../tree.js';
import { numbering } from './game.js';

/**
 * What the records need of the page.
 * @typedef {object} RecordsPage
 * @property {import('./messages.js').Messages} messages
 * @property {() => void} render
 * @property {() => void} clearReview
 * @property {() => void} showBoard brings the board back into view (after a record opened)
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

/** What the reader takes (as `MAX_RECORD_BYTES` in crates/api/src/record.rs). */
const MAX_BYTES = 2 * 1024 * 1024;

/**
 * The bytes as base64, in slices (a spread of a whole file would overflow the call stack).
 * @param {Uint8Array} bytes
 */
export function toBase64(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * A text file as text for the record box: UTF-8, or GBK from older Chinese programs.
 * @param {Uint8Array} bytes
 */
function decodeText(bytes) {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('gbk').decode(bytes);
  }
}

/** @param {DragEvent} e whether a drag carries a file or text */
const carries = (e) => !!e.dataTransfer && [...e.dataTransfer.types].some((type) => type === 'Files' || type === 'text/plain');

export class Records {
  /**
   * @param {import('./game.js').Game} game
   * @param {RecordsPage} page
   */
  constructor(game, page) {
    this.game = game;
    this.page = page;
    /** @type {import('./game-list.js').GameList | null} made with the first collection */
    this.list = null;
    /** @type {{ pgn?: string, bytes?: string }} the collection the list shows */
    this.listed = {};
  }

  /**
   * Shows the list of a record's games when it holds several (`record.list`), or hides it; a
   * game picked from the list keeps the list, marking that game.
   * @param {any} record the API's answer
   * @param {{ pgn?: string, bytes?: string, game?: number }} request what was read
   */
  async showList(record, request) {
    if (!record.list?.length) {
      this.list?.hide();
      return;
    }
    if (request.game && this.list) {
      this.list.mark(record.game);
      return;
    }
    if (!this.list) {
      const { GameList } = await import('./game-list.js');
      const say = (/** @type {any} */ message) => this.page.messages.say(message, 'error' in message ? 'error' : 'info');
      this.list ??= new GameList($('pgn-box'), (index) => this.importRecord({ ...this.listed, game: index }), say);
    }
    this.listed = { pgn: request.pgn, bytes: request.bytes };
    this.list.show(record.list, record.game);
  }

  /**
   * Opens a record (`{pgn: text}` or a file's `{bytes: base64}`, any format; `game`: which of
   * its games, from 1): tags, variations and comments, and the list of its games when it holds
   * several. Returns the API's answer, or null when it did not open (the reason is shown).
   * @param {{ pgn?: string, bytes?: string, game?: number }} request
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
        page.showBoard();
        await this.showList(record, request);
        return record;
      }
    } catch (error) {
      page.messages.say({ error }, 'error');
    }
    return null;
  }

  /**
   * Opens a record file; a text record also fills the record box, to be edited and imported again.
   * @param {File} file
   */
  async openFile(file) {
    if (file.size > MAX_BYTES) {
      this.page.messages.say({ error: new ApiError(`${file.name}: too large`, { code: 'too_large', vars: { limit: String(MAX_BYTES) } }) }, 'error');
      return null;
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    const game = await this.importRecord({ bytes: toBase64(bytes) });
    if (game && game.format !== 'xqf') $('pgn').value = decodeText(bytes);
    return game;
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

  /** "Open file…", drag and drop (a file anywhere on the page opens it; dropped text is read as a pasted record), "Save image". */
  wireFiles() {
    const say = this.page.messages.say.bind(this.page.messages);
    $('pgn-file').addEventListener('change', async (/** @type {Event} */ e) => {
      const input = /** @type {HTMLInputElement} */ (e.target);
      const file = input.files?.[0];
      input.value = '';
      if (file) await this.openFile(file);
    });
    let depth = 0;
    const dropping = (/** @type {boolean} */ on) => {
      document.body.classList.toggle('dropping', on);
      $('board').title = on ? t('msg.dropHere') : '';
    };
    document.addEventListener('dragenter', (e) => {
      if (!carries(e) || /** @type {Element} */ (e.target).closest?.('input, textarea')) return;
      depth += 1;
      dropping(true);
    });
    document.addEventListener('dragleave', () => {
      depth = Math.max(0, depth - 1);
      if (!depth) dropping(false);
    });
    document.addEventListener('dragover', (e) => {
      if (!carries(e) || /** @type {Element} */ (e.target).closest?.('input, textarea')) return;
      e.preventDefault(); // allows the drop
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    });
    document.addEventListener('drop', async (e) => {
      if (!e.dataTransfer || /** @type {Element} */ (e.target).closest?.('input, textarea')) return;
      depth = 0;
      dropping(false);
      const file = e.dataTransfer.files[0];
      const text = file ? null : e.dataTransfer.getData('text/plain');
      if (!file && !text) return;
      e.preventDefault(); // the browser would otherwise open the file itself
      if (file) {
        await this.openFile(file);
      } else if (text) {
        $('pgn').value = text;
        await this.importRecord({ pgn: text });
      }
    });
    // "Save image": the drawing code comes with the first use.
    $('image-box').hidden = false;
    $('save-image').addEventListener('click', async () => {
      const button = /** @type {HTMLButtonElement} */ ($('save-image'));
      button.disabled = true;
      try {
        const { saveImage } = await import('../save-image.js');
        await saveImage(/** @type {'png' | 'svg' | 'gif'} */ ($('image-format').value), { coordinates: $('image-coords').checked });
      } catch (error) {
        say({ error }, 'error');
      } finally {
        button.disabled = false;
      }
    });
  }

  /** The FEN, PGN and record-text controls, and the files (wireFiles). */
  wire() {
    this.wireFiles();
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
