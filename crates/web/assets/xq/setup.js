// @ts-check
// Setting up a position: the editor panel around the board (editor.js), each change checked by
// the rules; a legal position starts a new game from it, to play or to analyse. The editor's
// code is loaded when the panel first opens: it is not part of the page's first load.

import { api } from '../api.js';
import { $ } from '../dom.js';
import { PIECE_NAMES } from '../board.js';
import { t } from '../i18n.js';
import { GameTree } from '../tree.js';

/**
 * What the set-up panel needs of the page.
 * @typedef {object} SetupPage
 * @property {import('../board.js').XiangqiBoard} board
 * @property {import('./messages.js').Messages} messages
 * @property {import('./analysis-panel.js').AnalysisPanel} analysis
 * @property {() => void} render
 * @property {() => void} flip
 */

const WESTERN = { K: 'K', A: 'A', B: 'E', N: 'H', R: 'R', C: 'C', P: 'P' };
const CHINESE = '帥仕相傌俥炮兵將士象馬車砲卒';

export class SetupPanel {
  /**
   * @param {import('./game.js').Game} game
   * @param {SetupPage} page
   */
  constructor(game, page) {
    this.game = game;
    this.page = page;
    /** @type {import('../editor.js').PositionEditor | null} made on the first opening */
    this.editor = null;
  }

  /** The editor, made (and its code loaded) on first use. */
  async loadEditor() {
    if (this.editor) return this.editor;
    const { PositionEditor } = await import('../editor.js');
    const page = this.page;
    const board = page.board;
    const editor = this.editor ?? new PositionEditor({
      board,
      palette: $('palette'),
      glyph: (letter) => (board.pieceSet === 'western' ? WESTERN[letter.toUpperCase()] : CHINESE['KABNRCPkabnrcp'.indexOf(letter)]),
      check: async (fen) => {
        try {
          await api('/api/xq/game', { fen, moves: [] });
          return null;
        } catch (error) {
          return error;
        }
      },
      onChange: ({ checking, error }) => {
        const node = $('editor-status');
        node.textContent = checking ? '' : error ? page.messages.errorText(error, { bare: true }) : t('editor.legal');
        node.className = error ? 'error' : '';
        $('editor-play').disabled = $('editor-analyse').disabled = checking || !!error;
        $('board').dataset.editorFen = editor.fen();
        for (const r of document.querySelectorAll('input[name="editor-turn"]')) {
          const radio = /** @type {HTMLInputElement} */ (r);
          radio.checked = radio.value === editor.turn;
        }
      },
    });
    this.editor = editor;
    return editor;
  }

  get active() {
    return this.editor?.active ?? false;
  }

  async open() {
    const editor = await this.loadEditor();
    this.page.analysis.live.stop();
    document.body.classList.add('editing');
    $('editor').hidden = false;
    this.page.board.setArrows([]);
    this.relabel();
    editor.open(this.game.view.fen);
    this.page.messages.say(null);
  }

  relabel() {
    this.editor?.relabel((letter) => letter === 'erase' ? t('editor.erase') : `${t(`side.${letter === letter.toUpperCase() ? 'red' : 'black'}`)} ${t(`piece.${PIECE_NAMES[letter.toLowerCase()]}`)}`);
  }

  close() {
    this.editor?.close();
    document.body.classList.remove('editing');
    $('editor').hidden = true;
  }

  /** @param {boolean} analyse start analysing the new position */
  async confirm(analyse) {
    const editor = this.editor;
    if (!editor?.valid) return;
    const fen = editor.fen();
    this.close();
    if (await this.game.show({ startFen: fen, tree: new GameTree(), node: null })) {
      if (analyse && !$('analyse').checked) {
        $('analyse').checked = true;
        this.page.analysis.update();
      }
    } else {
      this.page.render();
    }
  }

  /** The language changed while editing. */
  relabelAll() {
    this.relabel();
    this.editor?.changed();
  }

  wire() {
    $('edit').addEventListener('click', () => this.open());
    $('editor-cancel').addEventListener('click', () => {
      this.close();
      this.page.render();
    });
    $('editor-clear').addEventListener('click', () => this.editor?.clear());
    $('editor-start').addEventListener('click', () => this.editor?.start());
    $('editor-flip').addEventListener('click', () => this.page.flip());
    for (const r of document.querySelectorAll('input[name="editor-turn"]')) {
      const radio = /** @type {HTMLInputElement} */ (r);
      radio.addEventListener('change', () => this.editor?.setTurn(radio.value));
    }
    $('editor-play').addEventListener('click', () => this.confirm(false));
    $('editor-analyse').addEventListener('click', () => this.confirm(true));
  }
}
