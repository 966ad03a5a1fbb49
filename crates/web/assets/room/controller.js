// @ts-check
// The room page's controller (as lichess's round controller): the server's state, the live
// view and the ply looked at, the pending move, and what the page sends. The server owns the
// game; a move waits, shown as pending, until a state that contains it comes back; it is sent
// again after a reconnect or when no answer comes in time (the server recognises a resend by
// its ply and applies it once).

import { api } from '../api.js';
import { $ } from '../dom.js';
import { t, onLangChange } from '../i18n.js';
import * as sound from '../sound.js';
import { Chat } from './chat.js';
import { renderClocks } from './clock.js';
import { Connection } from './connection.js';
import { handlers } from './handlers.js';
import { notate } from './notation.js';
import { Premove } from './premove.js';
import * as views from './views.js';

const RESEND_AFTER_MS = 2500;

export class Room {
  /**
   * @param {string} roomId
   * @param {string | null} seat the player's seat token; null for a spectator
   */
  constructor(roomId, seat) {
    this.roomId = roomId;
    this.seatToken = seat;
    /** @type {any} the server's latest state */
    this.state = null;
    /** @type {any} /api/xq/game's answer for the live moves */
    this.view = null;
    /** @type {any} the same for an earlier ply being looked at, or null (live) */
    this.past = null;
    /** @type {number | null} the ply looked at, or null (live) */
    this.viewPly = null;
    /** @type {{ ply: number, move: string, sentAt: number } | null} */
    this.pending = null;
    this.receivedAt = 0;
    /** @type {boolean | null} the orientation chosen, or null (one's own side at the bottom) */
    this.flipped = null;
    this.notation = localStorage.getItem('qi-notation') || 'chinese';
    this.viewSeq = 0;
    this.pastSeq = 0;
    this.lowTimeWarned = false;
    /** A socket just opened: its first state may need the pending move again. */
    this.fresh = false;
    this.nameSent = false;
    this.connState = 'connecting';
    /** @type {string | null} */
    this.overKey = null;
    /** @type {string | null} */
    this.goneKey = null;
    this.chat = new Chat({
      send: (message) => this.send(message),
      who: (colour) => `${this.nameOf(colour)}${this.you === colour ? ` (${t('online.you')})` : ''}`,
    });
    const { board, ...nodes } = views.build(this);
    this.board = board;
    this.ui = nodes;
    this.premove = new Premove(this);
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const query = seat ? `?seat=${encodeURIComponent(seat)}` : '';
    this.connection = new Connection(`${scheme}://${location.host}/api/rooms/${encodeURIComponent(roomId)}/ws${query}`, {
      onConnecting: () => this.setConn(this.state ? 'reconnecting' : 'connecting'),
      onRetrying: () => this.setConn('reconnecting'),
      onOpen: () => {
        this.fresh = true;
        this.chat.fresh = true;
      },
      onMessage: (msg) => this.receive(msg),
      onLate: () => {
        if (this.connState === 'connected') this.setConn('reconnecting');
      },
      mayRetry: () => this.roomExists(),
    });
    this.connection.open();
    setInterval(() => this.tick(), 100);
    window.addEventListener('online', () => this.connection.now());
    // Reconnect and resync when the page shows again: a phone's sleeping tab is woken with
    // `visibilitychange`, a page restored from the back-forward cache with `pageshow`.
    let hiddenAt = document.visibilityState === 'visible' ? 0 : Date.now();
    document.addEventListener('visibilitychange', () => {
      views.renderTitle(this);
      if (document.visibilityState !== 'visible') hiddenAt = Date.now();
      else if (hiddenAt) {
        this.connection.wake(Date.now() - hiddenAt);
        hiddenAt = 0;
      }
    });
    window.addEventListener('pageshow', (e) => {
      if (e.persisted) this.connection.wake(Infinity);
    });
    document.addEventListener('keydown', (e) => this.key(e));
    onLangChange(() => this.render());
  }

  get you() {
    return this.state ? this.state.you : null;
  }

  // ------------------------------------------------------------ the connection

  /** Before a retry, when the page never connected: perhaps the room does not exist; then say only that. */
  async roomExists() {
    if (this.state) return true;
    try {
      await api(`/api/rooms/${encodeURIComponent(this.roomId)}`);
    } catch (err) {
      if (/no such room/.test(/** @type {Error} */ (err).message)) {
        this.ui.conn.hidden = true;
        this.say(t('online.notFound'), 'error');
        return false;
      }
    }
    return true;
  }

  // Called often: keeps the socket honest, resends an unacknowledged move, runs the clocks.
  tick() {
    const open = this.connection.isOpen;
    this.connection.tick();
    if (open && this.pending && Date.now() - this.pending.sentAt > RESEND_AFTER_MS) this.sendPending();
    renderClocks(this);
    views.renderCountdowns(this);
  }

  /** @param {string} kind `connecting`, `connected` or `reconnecting` */
  setConn(kind) {
    this.connState = kind;
    this.ui.conn.dataset.state = kind;
    this.ui.conn.textContent = t(`online.${kind}`);
  }

  /**
   * Sends `message`; false when the socket is down.
   * @param {object} message
   */
  send(message) {
    return this.connection.send(message);
  }

  sendPending() {
    const p = /** @type {{ ply: number, move: string, sentAt: number }} */ (this.pending);
    p.sentAt = Date.now();
    this.send({ type: 'move', ply: p.ply, move: p.move });
  }

  /** @param {any} msg a message from the socket, handled by its type (handlers.js) */
  receive(msg) {
    const handler = Object.hasOwn(handlers, msg?.type) ? handlers[msg.type] : null;
    if (handler) handler(this, msg);
  }

  // ------------------------------------------------------------ moves

  movesOnView() {
    const moves = this.state.moves.slice();
    if (this.pending && this.pending.ply === moves.length) moves.push(this.pending.move);
    return moves;
  }

  /**
   * Fetches the live view; `sound` is played once it is known whether the move captured or checked.
   * @param {{ sound?: string | null }} [options]
   */
  async showMoves({ sound: kind = null } = {}) {
    const seq = ++this.viewSeq;
    const moves = this.movesOnView();
    const before = this.view;
    $('board').dataset.ready = 'false';
    try {
      const view = await api('/api/xq/game', { fen: this.state.start_fen, moves });
      if (seq !== this.viewSeq) return;
      this.view = view;
      const message = this.ui.message;
      if (message.className === 'error' && /fetch|network/i.test(message.textContent)) this.say('');
      if (kind) this.playSound(kind, before, view);
      if (this.viewPly !== null && this.viewPly >= view.plies) this.viewPly = null;
      this.render();
      this.premove.fire();
    } catch (err) {
      // Out of reach: the next state brings a new attempt.
      if (seq === this.viewSeq && this.connState === 'connected') this.say(/** @type {Error} */ (err).message, 'error');
      if (seq === this.viewSeq && this.view) $('board').dataset.ready = 'true';
    }
  }

  /**
   * @param {string} kind
   * @param {any} before
   * @param {any} view
   */
  playSound(kind, before, view) {
    if (kind === 'end') sound.play('end');
    else if (view.check) sound.play('check');
    else if (before && Object.keys(view.board).length < Object.keys(before.board).length) sound.play('capture');
    else sound.play('move');
  }

  /** @param {string} iccs */
  play(iccs) {
    const s = this.state;
    if (!s || s.you !== s.turn || s.status.outcome !== 'ongoing' || this.pending || this.viewPly !== null) return;
    this.pending = { ply: s.moves.length, move: iccs, sentAt: Date.now() };
    this.send({ type: 'move', ply: this.pending.ply, move: iccs });
    this.say('');
    const captured = this.view && this.view.board[iccs.slice(2, 4)];
    sound.play(captured ? 'capture' : 'move');
    this.showPendingNow();
    this.showMoves();
  }

  // Shows the pending move at once, without asking the server (which may be out of reach):
  // the piece moves, written in every notation by the page's rules; the rest follows with the
  // next answer.
  showPendingNow() {
    const { view, pending } = this;
    if (!view || !pending) return;
    const from = pending.move.slice(0, 2);
    const to = pending.move.slice(2, 4);
    const board = { ...view.board, [to]: view.board[from] };
    delete board[from];
    const moves = view.moves.slice(0, pending.ply).concat([notate(view.fen, pending.move)]);
    this.view = { ...view, board, last: pending.move, check: false, legal: [], moves, ply: pending.ply + 1, plies: pending.ply + 1 };
    this.render();
  }

  /**
   * A move in the notation chosen, in the live position (ICCS when that cannot be written).
   * @param {string} iccs
   */
  moveText(iccs) {
    if (this.notation === 'iccs' || !this.view) return iccs;
    return notate(this.view.fen, iccs)[/** @type {'chinese'} */ (this.notation)] || iccs;
  }

  // ------------------------------------------------------------ looking back

  livePlies() {
    return this.view ? this.view.plies : 0;
  }

  /** @param {number} ply */
  async goTo(ply) {
    if (!this.view) return;
    const plies = this.livePlies();
    if (ply >= plies) return this.goLive();
    this.viewPly = Math.max(0, ply);
    const seq = ++this.pastSeq;
    try {
      const past = await api('/api/xq/game', { fen: this.state.start_fen, moves: this.state.moves, ply: this.viewPly });
      if (seq !== this.pastSeq || this.viewPly === null) return;
      this.past = past;
      this.render();
    } catch (err) {
      this.say(/** @type {Error} */ (err).message, 'error');
    }
  }

  /** @param {number} delta */
  step(delta) {
    const at = this.viewPly ?? this.livePlies();
    this.goTo(at + delta);
  }

  goLive() {
    this.viewPly = null;
    this.past = null;
    ++this.pastSeq;
    this.render();
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    const target = /** @type {Element} */ (e.target);
    if (target.closest && target.closest('input, select, textarea')) return;
    if (e.key === 'Escape' && this.premove.move) {
      e.preventDefault();
      this.premove.cancel();
      return;
    }
    /** @type {Record<string, () => void>} */
    const moves = { ArrowLeft: () => this.step(-1), ArrowRight: () => this.step(1), Home: () => this.goTo(0), End: () => this.goLive() };
    if (moves[e.key] && this.view) {
      e.preventDefault();
      moves[e.key]();
    }
  }

  // ------------------------------------------------------------ drawing

  flippedNow() {
    return this.flipped ?? this.you === 'black';
  }

  render() {
    views.render(this);
  }

  renderBoard() {
    views.renderBoard(this);
  }

  /**
   * A colour as shown: the player's name if one was given, else "Red" / "Black".
   * @param {string} colour
   */
  nameOf(colour) {
    const names = this.state && this.state.names;
    return (names && names[colour]) || t(`online.${colour}`);
  }

  /**
   * The message line.
   * @param {string} text
   * @param {string} [kind]
   */
  say(text, kind = 'info') {
    this.ui.message.textContent = text || '';
    this.ui.message.className = text ? kind : '';
  }
}
