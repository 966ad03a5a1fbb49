// @ts-check
// The game on view: its start, its tree of moves and the move on view, the orientation, the
// notation and the PGN headers. `show` asks the rules (api.js) about a line and takes it only
// when they accept it; what follows (drawing, sound, the address) is the page's, through hooks.

import { api } from '../api.js';
import { GameTree } from '../tree.js';

/** @typedef {import('../tree.js').MoveNode} MoveNode */
/** @typedef {import('../qi/index.js').GameView} GameView */

export const STANDARD_FEN = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';

/** @typedef {'chinese' | 'traditional' | 'vietnamese' | 'wxf' | 'iccs'} Notation */
const NOTATIONS = ['chinese', 'traditional', 'vietnamese', 'wxf', 'iccs'];

/**
 * What `show` is asked to show; absent fields stay as they are.
 * @typedef {object} Candidate
 * @property {string | null} [startFen]
 * @property {GameTree} [tree]
 * @property {MoveNode | null} [node] null: the tree's root
 */

/**
 * @typedef {object} ShowOptions
 * @property {string | null} [slide] an ICCS move to animate
 * @property {boolean} [sound] play the move's sound (by default when sliding)
 * @property {boolean} [user] the user acted (false: the address stays as given)
 * @property {boolean} [keepMessage] leave the message line as it is
 */

/**
 * What the page does around a `show`.
 * @typedef {object} GameHooks
 * @property {() => void} asking a request has gone out
 * @property {(before: GameView | null, options: Required<ShowOptions>) => void} shown the line was accepted and taken
 * @property {(error: unknown) => void} failed the newest request was refused
 */

export class Game {
  /** @param {GameHooks} hooks */
  constructor(hooks) {
    this.hooks = hooks;
    /** @type {string | null} null: the standard start */
    this.startFen = null;
    this.tree = new GameTree();
    /** @type {MoveNode} the move on view (the tree's root = the start) */
    this.node = this.tree.root;
    this.flipped = false;
    /** @type {string} the user's choice (see `moveNotation`) */
    this.notation = localStorage.getItem('qi-notation') || 'chinese';
    /** @type {GameView | null} the API's answer for the line on view */
    this.view = null;
    /** @type {[string, string][]} PGN headers, in order */
    this.tags = [];
    this.seq = 0;
  }

  /** The start as the API takes it: undefined for the standard one. */
  get fen() {
    return this.startFen ?? undefined;
  }

  /**
   * The ICCS moves from the start to `node`.
   * @param {MoveNode} [node]
   */
  pathMoves(node = this.node) {
    return this.tree.path(node).map((n) => /** @type {string} */ (n.iccs));
  }

  /**
   * The notation moves are named in (all but ICCS come with the notation library).
   * @returns {Notation}
   */
  moveNotation() {
    return /** @type {Notation} */ (NOTATIONS.includes(this.notation) ? this.notation : 'iccs');
  }

  /**
   * A move's name in the notation on view.
   * @param {{ iccs: string | null, wxf?: string | null, chinese?: string | null, traditional?: string | null, vietnamese?: string | null }} move
   */
  moveText(move) {
    return move[this.moveNotation()] || move.iccs || '';
  }

  /**
   * A PGN header's value, or undefined.
   * @param {string} key
   */
  tag(key) {
    return this.tags.find(([k]) => k === key)?.[1];
  }

  /**
   * @param {string} key
   * @param {string} value
   */
  setTag(key, value) {
    const i = this.tags.findIndex(([k]) => k === key);
    if (i >= 0) this.tags[i][1] = value;
    else this.tags.push([key, value]);
  }

  /**
   * Asks the rules about the line through `next.node` (in `next.tree`, from `next.startFen`);
   * takes it when accepted, keeps the current game when not (the hooks say why). Only the
   * newest request counts. Returns whether it was accepted.
   * @param {Candidate} [next]
   * @param {ShowOptions} [options]
   */
  async show(next = {}, { slide = null, sound = !!slide, user = true, keepMessage = false } = {}) {
    const candidate = { startFen: this.startFen, tree: this.tree, node: this.node, ...next };
    if (!candidate.node) candidate.node = candidate.tree.root;
    const line = candidate.tree.line(candidate.node);
    const ply = candidate.tree.ply(candidate.node);
    const seq = ++this.seq;
    this.hooks.asking();
    try {
      /** @type {GameView} */
      const view = await api('/api/xq/game', {
        fen: candidate.startFen ?? undefined,
        moves: line.map((n) => n.iccs),
        ply,
      });
      if (seq !== this.seq) return false; // a newer request has taken over
      const before = this.view;
      view.moves.forEach((m, i) => Object.assign(line[i], names(m)));
      this.startFen = candidate.startFen;
      this.tree = candidate.tree;
      this.node = candidate.node;
      this.view = view;
      if (view.start_fen === STANDARD_FEN) this.startFen = null;
      this.hooks.shown(before, { slide, sound, user, keepMessage });
      return true;
    } catch (error) {
      if (seq === this.seq) this.hooks.failed(error);
      return false;
    }
  }

  /**
   * Names every move of the main line (they are named as the board shows them, so a line
   * never on view may have only its ICCS).
   */
  async nameMainLine() {
    const main = this.tree.mainLine();
    if (main.every((n) => n.chinese)) return main;
    /** @type {GameView} */
    const view = await api('/api/xq/game', { fen: this.fen, moves: main.map((n) => n.iccs) });
    view.moves.forEach((m, i) => Object.assign(main[i], names(m)));
    return main;
  }
}

/**
 * A move's names in the notations the server writes.
 * @param {import('../qi/index.js').MoveView} m
 */
function names(m) {
  return { wxf: m.wxf, chinese: m.chinese, traditional: m.traditional, vietnamese: m.vietnamese };
}

/**
 * Move numbers as the FEN counts them; Black may move first in a set-up position.
 * @param {string} startFen
 */
export function numbering(startFen) {
  const [, side, , , , full] = startFen.split(' ');
  const blackFirst = side === 'b';
  const first = Number(full) || 1;
  return {
    /** @param {number} ply */
    isRed: (ply) => (ply - 1 + (blackFirst ? 1 : 0)) % 2 === 0,
    /** @param {number} ply */
    number: (ply) => first + Math.floor((ply - 1 + (blackFirst ? 1 : 0)) / 2),
  };
}
