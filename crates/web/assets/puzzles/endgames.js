// @ts-check
// The endgame track on the puzzle page: a classic position (puzzles/endgame-set.js) played out
// against the engine at full strength in the page's Web Worker (the board page's computer:
// `/api/xq/engine` at level `full`), the game judged by the rules of the WebAssembly (mate,
// stalemate, repetition rulings, the move limit): won, held or lost. Solved positions are
// kept in the browser; `?endgame=ID` links one, `?fen=…&goal=win|draw` any position.

import { api } from '../api.js';
import { $, copyText } from '../dom.js';
import { t } from '../i18n.js';
import { kingInCheck, playSound } from '../xq/board-view.js';
import { MOVE_TIME_MS } from '../xq/computer.js';
import { judge, loadSolved, loadTrack, markSolved } from './endgame-set.js';

/** @typedef {import('./endgame-set.js').Endgame} Endgame */
/** @typedef {import('../qi/index.js').GameView} GameView */

/** The computer's level: its full strength (the board page's `full`). */
const FULL_STRENGTH = 8;

export class Endgames {
  /** @param {import('../board.js').XiangqiBoard} board */
  constructor(board) {
    this.board = board;
    /** @type {Endgame[]} */
    this.track = [];
    /** @type {Endgame | null} */
    this.endgame = null;
    /** @type {string[]} the game's moves from the endgame's position */
    this.moves = [];
    /** @type {GameView | null} */
    this.view = null;
    this.solved = loadSolved();
    /** Bumped by every new game, so a pending engine answer of an old one does nothing. */
    this.epoch = 0;
    /** @type {{ key: string, vars: Record<string, string | number>, kind: string }} */
    this.message = { key: '', vars: {}, kind: '' };
    $('endgame-grade').addEventListener('change', () => this.fillPicker());
    $('endgame-pick').addEventListener('change', () => {
      const picked = this.track.find((e) => e.id === /** @type {HTMLSelectElement} */ ($('endgame-pick')).value);
      if (picked) this.start(picked);
    });
    $('endgame-retry').addEventListener('click', () => this.endgame && this.start(this.endgame));
    $('endgame-next').addEventListener('click', () => this.next());
    $('endgame-analyse').addEventListener('click', () => {
      if (!this.endgame) return;
      location.href = `/xq?fen=${encodeURIComponent(this.view ? this.view.fen : this.endgame.fen)}`;
    });
    $('endgame-share').addEventListener('click', async () => {
      const e = this.endgame;
      if (!e) return;
      const query = e.id ? `endgame=${e.id}` : `fen=${encodeURIComponent(e.fen)}&goal=${e.goal}`;
      const link = `${location.origin}/puzzles?${query}`;
      $('share-link').value = link;
      $('share-row').hidden = false;
      await copyText(link, /** @type {HTMLInputElement} */ ($('share-link')));
      this.say('puzzle.copied');
    });
  }

  /** Reads the track (once) and fills the grade menu. */
  async load() {
    if (this.track.length) return;
    this.track = await loadTrack();
    const grades = /** @type {HTMLSelectElement} */ ($('endgame-grade'));
    grades.replaceChildren();
    for (const grade of [...new Set(this.track.map((e) => e.grade))].sort()) {
      grades.append(new Option('', String(grade)));
    }
    this.renderLabels();
  }

  /** The positions of the chosen grade in the position menu, solved ones marked. */
  fillPicker() {
    const grade = Number(/** @type {HTMLSelectElement} */ ($('endgame-grade')).value);
    const pick = /** @type {HTMLSelectElement} */ ($('endgame-pick'));
    pick.replaceChildren();
    const zh = document.documentElement.lang.startsWith('zh');
    for (const e of this.track.filter((x) => x.grade === grade)) {
      const mark = this.solved.has(e.id) ? '✓ ' : '';
      pick.append(new Option(`${mark}${zh ? e.nameZh : `${e.nameZh} · ${e.nameEn}`}`, e.id));
    }
    if (this.endgame && this.endgame.grade === grade) pick.value = this.endgame.id;
    else pick.selectedIndex = -1;
  }

  /** Texts that follow the language. */
  renderLabels() {
    for (const option of /** @type {HTMLSelectElement} */ ($('endgame-grade')).options) {
      option.textContent = t('endgame.gradeN', { n: option.value });
    }
    this.fillPicker();
    this.renderPanel();
    if (this.message.key) this.say(this.message.key, this.message.vars, this.message.kind);
  }

  /** The side the player has: the side to move at the start. */
  player() {
    return this.endgame && this.endgame.fen.split(' ')[1] === 'b' ? 'black' : 'red';
  }

  /**
   * Says something under the board.
   * @param {string} key
   * @param {Record<string, string | number>} [vars]
   * @param {string} [kind] '', 'good' or 'bad'
   */
  say(key, vars = {}, kind = '') {
    this.message = { key, vars, kind };
    const node = $('endgame-message');
    node.textContent = key ? t(key, vars) : '';
    node.className = kind;
    node.dataset.key = key;
  }

  /**
   * Plays `endgame` from its position.
   * @param {Endgame} endgame
   */
  async start(endgame) {
    this.epoch += 1;
    this.endgame = endgame;
    this.moves = [];
    this.view = null;
    this.board.setArrows([]);
    this.board.setFlipped(this.player() === 'black');
    const url = new URL(location.href);
    url.search = endgame.id ? `?endgame=${endgame.id}` : `?fen=${encodeURIComponent(endgame.fen)}&goal=${endgame.goal}`;
    history.replaceState(null, '', url);
    if (endgame.grade) {
      /** @type {HTMLSelectElement} */ ($('endgame-grade')).value = String(endgame.grade);
      this.fillPicker();
    }
    this.say('puzzle.yourMove');
    document.body.dataset.state = 'playing';
    await this.render();
  }

  /** The next unsolved endgame after this one (easiest first). */
  async next() {
    const from = this.endgame ? this.track.findIndex((e) => e.id === this.endgame?.id) + 1 : 0;
    const rest = [...this.track.slice(from), ...this.track.slice(0, from)];
    const picked = rest.find((e) => !this.solved.has(e.id)) || rest[0];
    if (picked) await this.start(picked);
  }

  /**
   * Shows the game's position; the player may move when it is their turn and the game goes on.
   * @param {string | null} [slide]
   */
  async render(slide = null) {
    const endgame = this.endgame;
    if (!endgame) return;
    const epoch = this.epoch;
    /** @type {GameView} */
    const view = await api('/api/xq/game', { fen: endgame.fen, moves: this.moves });
    if (epoch !== this.epoch) return;
    const before = this.view;
    this.view = view;
    const yourTurn = !view.status.over && view.turn === this.player();
    this.board.setPosition({ pieces: view.board, legal: yourTurn ? view.legal : [], last: view.last, checkSquare: kingInCheck(view), slide });
    if (slide) playSound(before, view);
    const node = $('board');
    node.dataset.fen = view.fen;
    node.dataset.ply = String(this.moves.length);
    node.dataset.moves = this.moves.join(' ');
    node.dataset.legal = yourTurn ? view.legal.join(' ') : '';
    node.dataset.ready = 'true';
    this.renderPanel();
  }

  renderPanel() {
    const e = this.endgame;
    if (!e) return;
    const side = t(`turn.${this.player()}`);
    $('endgame-goal').textContent = t(e.goal === 'win' ? 'endgame.goalWin' : 'endgame.goalDraw', { side });
    $('endgame-name').textContent = e.id ? `${e.nameZh} — ${e.nameEn}` : '';
    $('endgame-source').textContent = e.source;
    $('endgame-solved').textContent = t('endgame.solvedCount', { solved: this.solved.size, total: this.track.length });
    document.body.dataset.endgame = e.id || 'custom';
  }

  /**
   * The player's move, then the engine's answer, until the rules end the game.
   * @param {string} iccs
   */
  async move(iccs) {
    const view = this.view;
    if (!this.endgame || !view || view.status.over || view.turn !== this.player() || !view.legal.includes(iccs)) return;
    const epoch = this.epoch;
    this.moves.push(iccs);
    await this.render(this.board.dragged === iccs ? null : iccs);
    if (epoch !== this.epoch || this.finished()) return;
    this.say('msg.thinking');
    document.body.dataset.state = 'thinking';
    try {
      const answer = await api('/api/xq/engine', {
        fen: this.endgame.fen, moves: this.moves, level: FULL_STRENGTH, movetime_ms: MOVE_TIME_MS,
      });
      if (epoch !== this.epoch || !answer.bestmove) return;
      this.moves.push(answer.bestmove);
      await this.render(answer.bestmove);
      if (epoch !== this.epoch || this.finished()) return;
      this.say('puzzle.yourMove');
      document.body.dataset.state = 'playing';
    } catch (error) {
      if (epoch === this.epoch) this.say('puzzle.unavailable', { why: String(/** @type {Error} */ (error).message) }, 'bad');
    }
  }

  /** Judges a finished game (and remembers a solved track position); whether it is over. */
  finished() {
    const view = this.view;
    const endgame = this.endgame;
    if (!view || !endgame || !view.status.over) return false;
    const { result, reached } = judge(view.status, this.player(), endgame.goal);
    if (reached && endgame.id) this.solved = markSolved(endgame.id);
    const reason = view.status.reason ? t(`reason.${view.status.reason.replace(/ /g, '_')}`) : '';
    this.say(reached ? `endgame.${result}` : `endgame.${result}Missed`, { reason }, reached ? 'good' : 'bad');
    document.body.dataset.state = result;
    this.fillPicker();
    this.renderPanel();
    return true;
  }
}
