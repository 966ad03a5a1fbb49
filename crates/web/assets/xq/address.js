// @ts-check
// The address bar and the share link: the main line's link (compact or the seed's form when
// there is one, else fen + ICCS moves), the ply on view when on the main line and not at its
// end, and the orientation when rotated (and the language, when the sharer ticks the box); and
// opening the game an address holds.

import { api } from '../api.js';
import { $ } from '../dom.js';
import { GameTree } from '../tree.js';
import { currentLang, t } from '../i18n.js';

/** @type {Promise<typeof import('../qr.js')> | null} the QR module, once asked for */
let qrModule = null;

/** The embedded board's size in the snippet (as the server's oEmbed answer gives it). */
const EMBED_SIZE = { width: 400, height: 600 };
/** The fields of a link: what the embedded board and the QR code carry. */
const LINK_FIELDS = ['g', 'p', 'r', 's', 'fen', 'moves'];

export class Address {
  /**
   * @param {import('./game.js').Game} game
   * @param {import('./messages.js').Messages} messages
   */
  constructor(game, messages) {
    this.game = game;
    this.messages = messages;
    /** The address holds a link that did not fully load: keep it as given until the user acts. */
    this.locked = false;
    /** @type {string | null} the main line's share query while a variation is on view */
    this.mainLink = null;
    /** @type {string | null} the main line `mainLink` is for */
    this.mainLinkKey = null;
    $('share-more').addEventListener('toggle', () => this.drawQr());
  }

  /**
   * The share link as a QR code, while its panel is open. The encoder is loaded on the first
   * opening: it is not part of the page's first load.
   */
  drawQr() {
    if (!(/** @type {HTMLDetailsElement} */ ($('share-more')).open)) return;
    const link = $('share-link').value;
    qrModule ??= import('../qr.js');
    qrModule.then(({ showQr }) => showQr($('share-qr'), link, t('share.qr')));
  }

  /** The query of the game's address ('' for a new game). */
  query() {
    const game = this.game;
    const onMain = game.tree.isMain(game.node);
    const main = game.tree.mainLine();
    const link = onMain ? game.view.link : this.mainLink;
    const params = new URLSearchParams(link || '');
    if (!link) {
      if (game.startFen) params.set('fen', game.startFen);
      if (main.length) params.set('moves', main.map((n) => n.iccs).join('.'));
    }
    const ply = game.tree.ply(game.node);
    if (onMain && ply !== main.length) params.set('ply', String(ply));
    if (game.flipped) params.set('flip', '1');
    const query = params.toString();
    return query ? `?${query}` : '';
  }

  /** Writes the address (unless locked) and the share link. */
  async update() {
    const game = this.game;
    if (!game.tree.isMain(game.node)) {
      const moves = game.tree.mainLine().map((n) => n.iccs);
      const key = JSON.stringify([game.startFen, moves]);
      if (this.mainLinkKey !== key) {
        this.mainLinkKey = key;
        this.mainLink = null;
        try {
          const links = await api('/api/xq/link/encode', { fen: game.fen, moves });
          if (this.mainLinkKey === key) this.mainLink = links.compact || links.seed || null;
        } catch {
          // fen + moves it is
        }
      }
    }
    const path = `/xq${this.query()}`;
    if (!this.locked) history.replaceState(null, '', path);
    // `lang` only when the sharer asks (the address bar never keeps it: see i18n.js).
    const lang = /** @type {HTMLInputElement} */ ($('share-lang')).checked ? `${path.includes('?') ? '&' : '?'}lang=${currentLang()}` : '';
    const link = `${location.origin}${path}${lang}`;
    $('share-link').value = link;
    this.drawQr();
    $('embed-code').value = this.embedCode(path);
  }

  /**
   * The <iframe> that shows the game of `path` on another site: the embeddable board at the
   * link's last move.
   * @param {string} path
   */
  embedCode(path) {
    const params = new URLSearchParams(path.split('?')[1] || '');
    const link = new URLSearchParams();
    for (const key of LINK_FIELDS) if (params.has(key)) link.set(key, params.get(key) || '');
    const query = link.toString();
    const src = `${location.origin}/embed${query ? `?${query}` : ''}`.replace(/&/g, '&amp;');
    return `<iframe src="${src}" width="${EMBED_SIZE.width}" height="${EMBED_SIZE.height}" title="Xiangqi · Qi" style="border:0;max-width:100%" loading="lazy"></iframe>`;
  }

  /**
   * Opens the game in the address: a compact (g=) or seed (p=, r=, s=) link, or fen + moves.
   * What is valid is kept, what is not is said, and the address stays as the user gave it.
   */
  async load() {
    const game = this.game;
    const params = new URLSearchParams(location.search);
    let startFen = null;
    /** @type {string[]} */
    let moves = [];
    let problem = null;
    if (params.has('g') || params.has('p')) {
      try {
        const decoded = await api('/api/xq/link', { link: location.search });
        startFen = decoded.start_fen;
        moves = decoded.moves;
      } catch (error) {
        problem = error;
      }
    } else {
      startFen = params.get('fen');
      moves = (params.get('moves') || '').split(/[.,\s]+/).filter(Boolean);
    }
    game.flipped = params.get('flip') === '1';
    const wanted = params.has('ply') ? Number(params.get('ply')) || 0 : Infinity;
    /**
     * @param {string | null} fen
     * @param {string[]} list
     */
    const open = (fen, list) => {
      const tree = GameTree.fromMoves(list);
      const line = tree.mainLine();
      const ply = Math.max(0, Math.min(line.length, wanted));
      return game.show({ startFen: fen, tree, node: ply === 0 ? tree.root : line[ply - 1] }, { user: false, keepMessage: true });
    };
    if (!problem && (await open(startFen, moves))) return;
    problem = problem || this.messages.message?.error;
    this.locked = true; // until the user acts, the address stays as given
    // Keep the moves before the first bad one.
    const bad = problem?.code === 'illegal_move' || problem?.code === 'bad_move' ? Number(problem.vars.ply) : 0;
    let ok = false;
    if (bad > 1) ok = await open(startFen, moves.slice(0, bad - 1));
    if (!ok) ok = await open(problem?.code === 'bad_fen' ? null : startFen, []);
    if (!ok) await open(null, []);
    this.messages.say({ key: 'msg.linkProblem', vars: { why: this.messages.errorText(problem), kept: bad > 1 ? bad - 1 : 0 } }, 'error');
  }
}
