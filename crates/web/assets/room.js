// The room page (/xq?room=ID, with &seat=TOKEN for a player; served as room.html). The server
// owns the game; this page shows its states, sends requests, and never loses a move: a move
// waits, shown as pending, until a state that contains it comes back; it is sent again after a
// reconnect or when no answer comes in time (the server recognises a resend by its ply and
// applies it once).

import { api } from './api.js';
import { XiangqiBoard } from './board.js';
import { t, onLangChange, applyText, setupLangButton } from './i18n.js';
import * as sound from './sound.js';
import { el, linkRow } from './online.js';
import { $ } from './dom.js';


const RESEND_AFTER_MS = 2500;
// A ping every 2 s; no answer within 1.5 s shows "Reconnecting…", and a socket silent for 5 s
// is dropped and opened again.
const PING_EVERY_MS = 2000;
const PONG_LATE_MS = 1500;
const SILENCE_MS = 5000;
const LOW_TIME_MS = 10000;

// A clock's text: whole seconds rounded down (as lichess), tenths under 10 s.
export function formatClock(ms) {
  const left = Math.max(0, ms);
  const total = Math.floor(left / 1000);
  const m = Math.floor(total / 60);
  const sec = String(total % 60).padStart(2, '0');
  return left < LOW_TIME_MS ? `${m}:${sec}.${Math.floor((left % 1000) / 100)}` : `${m}:${sec}`;
}

// A move in Chinese and WXF notation, from the board before it (keys such as "e3", FEN letters),
// for a move shown while the server is out of reach. The usual cases (one piece of its kind
// on its file, or two) are written as the server writes them; rarer ones stay in ICCS.
const GLYPHS = { red: { K: '帅', A: '仕', B: '相', N: '马', R: '车', C: '炮', P: '兵' }, black: { K: '将', A: '士', B: '象', N: '马', R: '车', C: '炮', P: '卒' } };
const WXF_LETTER = { K: 'K', A: 'A', B: 'E', N: 'H', R: 'R', C: 'C', P: 'P' };
const NUMERALS = '一二三四五六七八九';
export function localNotation(board, iccs) {
  const piece = board[iccs.slice(0, 2)];
  if (!piece) return { iccs };
  const colour = piece === piece.toUpperCase() ? 'red' : 'black';
  const kind = piece.toUpperCase();
  const fileOf = (sq) => 'abcdefghi'.indexOf(sq[0]);
  const number = (idx) => (colour === 'red' ? 9 - idx : idx + 1);
  const cn = (n) => (colour === 'red' ? NUMERALS[n - 1] : String(n));
  const [fromFile, fromRank] = [fileOf(iccs), Number(iccs[1])];
  const [toFile, toRank] = [fileOf(iccs.slice(2)), Number(iccs[3])];
  const dr = toRank - fromRank;
  const forward = colour === 'red' ? dr > 0 : dr < 0;
  const straight = 'KRCP'.includes(kind);
  let action;
  let amount;
  if (straight && dr === 0) [action, amount] = ['平', number(toFile)];
  else [action, amount] = [forward ? '进' : '退', straight ? Math.abs(dr) : number(toFile)];
  const wxfSign = { 平: '.', 进: '+', 退: '-' }[action];
  const same = Object.keys(board).filter((sq) => board[sq] === piece && fileOf(sq) === fromFile);
  if (same.length === 1) {
    return { iccs, chinese: `${GLYPHS[colour][kind]}${cn(number(fromFile))}${action}${cn(amount)}`, wxf: `${WXF_LETTER[kind]}${number(fromFile)}${wxfSign}${amount}` };
  }
  if (same.length !== 2 || !'RNCP'.includes(kind)) return { iccs };
  if (kind === 'P') {
    const files = new Set(Object.keys(board).filter((sq) => board[sq] === piece).map(fileOf));
    const crowded = [...files].filter((f) => Object.keys(board).filter((sq) => board[sq] === piece && fileOf(sq) === f).length >= 2);
    if (crowded.length > 1) return { iccs };
  }
  const other = Number(same.find((sq) => sq !== iccs.slice(0, 2))[1]);
  const front = colour === 'red' ? fromRank > other : fromRank < other;
  return { iccs, chinese: `${front ? '前' : '后'}${GLYPHS[colour][kind]}${action}${cn(amount)}`, wxf: `${WXF_LETTER[kind]}${front ? '+' : '-'}${wxfSign}${amount}` };
}

class RoomPage {
  constructor(roomId, seat) {
    this.roomId = roomId;
    this.seatToken = seat;
    this.state = null; // the server's latest state
    this.view = null; // /api/xq/game's answer for the live moves
    this.past = null; // the same for an earlier ply being looked at, or null (live)
    this.viewPly = null; // the ply looked at, or null (live)
    this.pending = null; // { ply, move, sentAt }
    this.socket = null;
    this.backoff = 500;
    this.lastHeard = 0;
    this.pingSentAt = 0;
    this.receivedAt = 0;
    this.flipped = null;
    this.notation = localStorage.getItem('qi-notation') || 'chinese';
    this.viewSeq = 0;
    this.pastSeq = 0;
    this.lowTimeWarned = false;
    this.gone = false; // the room does not exist
    this.build();
    this.connect();
    setInterval(() => this.tick(), 100);
    window.addEventListener('online', () => this.reconnectNow());
    document.addEventListener('visibilitychange', () => this.renderTitle());
    document.addEventListener('keydown', (e) => this.key(e));
    onLangChange(() => this.render());
  }

  get you() {
    return this.state ? this.state.you : null;
  }

  build() {
    const main = document.querySelector('main');
    const boardNode = el('div', { id: 'board', 'data-ready': 'false', 'data-plies': '0', 'data-viewing': 'false' });
    this.clockTop = el('div', { class: 'online-clock', id: 'clock-top' });
    this.clockBottom = el('div', { class: 'online-clock', id: 'clock-bottom' });
    const button = (id, key, fn, attrs = {}) => el('button', { type: 'button', id, 'data-i18n': key, text: t(key), onclick: fn, ...attrs });
    const icon = (id, key, glyph, fn) => el('button', { type: 'button', id, 'data-i18n-title': key, title: t(key), 'aria-label': t(key), text: glyph, onclick: fn });
    this.replay = el('div', { class: 'buttons replay', id: 'online-replay' },
      icon('replay-first', 'online.first', '⏮', () => this.goTo(0)),
      icon('replay-prev', 'online.prev', '◀', () => this.step(-1)),
      icon('replay-next', 'online.next', '▶', () => this.step(1)),
      icon('replay-last', 'online.last', '⏭', () => this.goLive()));
    this.viewing = el('p', { id: 'online-viewing', hidden: '' });
    const boardWrap = el('section', { class: 'board-wrap' }, this.clockTop, boardNode, this.clockBottom, this.replay, this.viewing);
    this.conn = el('p', { id: 'online-conn', 'data-state': 'connecting', 'aria-live': 'polite' });
    this.status = el('p', { id: 'status', 'aria-live': 'polite' });
    this.message = el('p', { id: 'message', role: 'alert' });
    this.players = el('p', { id: 'online-players' });
    this.abortNote = el('p', { id: 'online-abort-note', class: 'online-note', hidden: '' });
    this.goneNote = el('div', { id: 'online-gone', hidden: '' });
    this.offers = el('div', { id: 'online-offers', class: 'buttons' });
    this.notice = el('p', { id: 'online-notice', class: 'online-note', 'aria-live': 'polite' });
    this.actions = el('div', { class: 'buttons', id: 'online-actions' },
      button('online-resign', 'online.resign', () => { if (confirm(t('online.confirmResign'))) this.send({ type: 'resign' }); }),
      button('online-draw', 'online.offerDraw', () => this.send({ type: 'draw', action: 'offer' })),
      button('online-takeback', 'online.takeback', () => this.send({ type: 'takeback', action: 'request' })),
      button('online-abort', 'online.abort', () => this.send({ type: 'abort' })),
      button('online-rematch', 'online.rematch', () => this.send({ type: 'rematch' })),
      button('online-flip', 'online.flip', () => { this.flipped = !this.flippedNow(); this.renderBoard(); }));
    const notation = el('select', { id: 'notation' },
      ...['chinese', 'wxf', 'iccs'].map((n) => el('option', { value: n, 'data-i18n': `notation.${n}`, text: t(`notation.${n}`) })));
    notation.value = this.notation;
    notation.addEventListener('change', () => {
      this.notation = notation.value;
      localStorage.setItem('qi-notation', this.notation);
      this.renderMoves();
    });
    const mute = el('input', { type: 'checkbox', id: 'mute' });
    mute.checked = sound.isMuted();
    mute.addEventListener('change', () => sound.setMuted(mute.checked));
    this.movesList = el('ol', { id: 'moves' });
    this.movesList.addEventListener('click', (e) => {
      const node = e.target.closest('.move');
      if (node) this.goTo(Number(node.dataset.ply));
    });
    this.links = el('section', { id: 'online-links' });
    this.over = el('section', { id: 'online-over', hidden: '' });
    const panel = el('aside', { class: 'panel' }, this.conn, this.status, this.message, this.players, this.abortNote,
      this.goneNote, this.offers, this.notice, this.actions, this.over,
      el('div', { class: 'moves-head' }, el('h2', { 'data-i18n': 'label.moves', text: t('label.moves') }),
        el('label', {}, el('span', { 'data-i18n': 'label.notation', text: t('label.notation') }), ' ', notation)),
      this.movesList,
      el('label', { class: 'online-mute' }, mute, ' ', el('span', { 'data-i18n': 'online.mute', text: t('online.mute') })));
    // The links first: on a phone the invite is above the fold.
    main.replaceChildren(this.links, boardWrap, panel);
    this.board = new XiangqiBoard(boardNode, {
      onMove: (iccs) => this.play(iccs),
      onIllegal: (iccs) => this.say(t('msg.illegal', { move: iccs }), 'error'),
    });
    this.board.interactive = false;
    const saved = JSON.parse(localStorage.getItem(`qi-room-${this.roomId}`) || 'null');
    const watch = `${location.origin}/xq?room=${this.roomId}`;
    if (saved && saved.invite && this.seatToken) this.links.append(linkRow('online.invite', saved.invite, 'online-invite'));
    this.links.append(linkRow('online.watch', saved && saved.watch ? saved.watch : watch, 'online-watch'));
  }

  say(text, kind = 'info') {
    this.message.textContent = text || '';
    this.message.className = text ? kind : '';
  }

  // ------------------------------------------------------------ the connection

  connect() {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const query = this.seatToken ? `?seat=${encodeURIComponent(this.seatToken)}` : '';
    const socket = new WebSocket(`${scheme}://${location.host}/api/rooms/${encodeURIComponent(this.roomId)}/ws${query}`);
    this.socket = socket;
    this.setConn(this.state ? 'reconnecting' : 'connecting');
    socket.addEventListener('open', () => {
      if (socket !== this.socket) return;
      this.lastHeard = Date.now();
      this.pingSentAt = 0;
      this.backoff = 500;
      this.fresh = true;
    });
    socket.addEventListener('message', (e) => {
      if (socket !== this.socket) return;
      this.lastHeard = Date.now();
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      this.receive(msg);
    });
    socket.addEventListener('close', () => {
      if (socket !== this.socket) return;
      this.socket = null;
      this.scheduleReconnect();
    });
  }

  async scheduleReconnect() {
    if (!this.state) {
      // Never connected: perhaps the room does not exist. Then say only that.
      try {
        await api(`/api/rooms/${encodeURIComponent(this.roomId)}`);
      } catch (err) {
        if (/no such room/.test(err.message)) {
          this.gone = true;
          this.conn.hidden = true;
          this.say(t('online.notFound'), 'error');
          return;
        }
      }
    }
    this.setConn('reconnecting');
    const wait = this.backoff * (0.75 + Math.random() * 0.5);
    this.backoff = Math.min(this.backoff * 2, 8000);
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => this.connect(), wait);
  }

  reconnectNow() {
    if (this.gone || (this.socket && this.socket.readyState === WebSocket.OPEN)) return;
    clearTimeout(this.reconnectTimer);
    this.backoff = 500;
    if (!this.socket) this.connect();
  }

  // Called often: keeps the socket honest, resends an unacknowledged move, runs the clocks.
  tick() {
    const now = Date.now();
    const open = this.socket && this.socket.readyState === WebSocket.OPEN;
    if (open && now - this.lastHeard > SILENCE_MS) {
      // The network went away without a close: drop this socket and start again.
      const dead = this.socket;
      this.socket = null;
      dead.close();
      this.scheduleReconnect();
    } else if (open && this.pingSentAt > this.lastHeard && now - this.pingSentAt > PONG_LATE_MS) {
      if (this.connState === 'connected') this.setConn('reconnecting');
    } else if (open && now - this.pingSentAt > PING_EVERY_MS) {
      this.pingSentAt = now;
      this.socket.send(JSON.stringify({ type: 'ping' }));
    }
    if (open && this.pending && now - this.pending.sentAt > RESEND_AFTER_MS) this.sendPending();
    this.renderClocks();
    this.renderCountdowns();
  }

  setConn(kind) {
    this.connState = kind;
    this.conn.dataset.state = kind;
    this.conn.textContent = t(`online.${kind}`);
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  sendPending() {
    const p = this.pending;
    p.sentAt = Date.now();
    this.send({ type: 'move', ply: p.ply, move: p.move });
  }

  receive(msg) {
    if (msg.type === 'pong') {
      if (this.connState !== 'connected' && this.state) this.setConn('connected');
      return;
    }
    if (msg.type === 'error') {
      if (this.pending) {
        this.pending = null;
        this.showMoves();
      }
      this.say(msg.error, 'error');
      return;
    }
    if (msg.type !== 'state') return;
    if (this.state && msg.room === this.state.room && msg.v < this.state.v) return; // an older state
    const before = this.state;
    this.state = msg;
    this.receivedAt = performance.now();
    this.setConn('connected');
    if (this.pending && msg.moves.length !== this.pending.ply) {
      this.pending = null; // acknowledged, or overtaken (a takeback): the server's state wins
    } else if (this.pending && this.fresh) {
      this.sendPending(); // the move may have been lost with the old socket: send it again
    }
    this.fresh = false;
    if (msg.next && this.seatToken !== undefined) {
      const next = `/xq?room=${encodeURIComponent(msg.next)}${this.seatToken ? `&seat=${encodeURIComponent(this.seatToken)}` : ''}`;
      location.assign(next);
      return;
    }
    if (!before) this.say('');
    if (before && before.room === msg.room) this.noticeChanges(before, msg);
    if (!before || before.status.outcome === 'ongoing' || msg.moves.length !== before.moves.length) this.lowTimeWarned = false;
    const newMove = before && msg.moves.length === before.moves.length + 1 && msg.moves.length > 0 ? msg.moves.at(-1) : null;
    const mine = newMove && msg.you && msg.turn !== msg.you; // my own move, already heard when played
    const ended = before && before.status.outcome === 'ongoing' && msg.status.outcome !== 'ongoing';
    this.showMoves({ sound: ended ? 'end' : newMove && !mine ? 'move' : null });
  }

  // Tells the player what the opponent did with their offer.
  noticeChanges(before, now) {
    const you = now.you;
    if (!you) return;
    let text = '';
    const sameMoves = before.moves.length === now.moves.length && now.status.outcome === 'ongoing';
    if (before.offers.draw === you && now.offers.draw === null && sameMoves) text = t('online.declinedDraw');
    if (before.offers.takeback === you && now.offers.takeback === null && sameMoves) text = t('online.declinedTakeback');
    if (text) this.notice.textContent = text;
    else if (now.v !== before.v && now.moves.length !== before.moves.length) this.notice.textContent = '';
  }

  // ------------------------------------------------------------ moves

  movesOnView() {
    const moves = this.state.moves.slice();
    if (this.pending && this.pending.ply === moves.length) moves.push(this.pending.move);
    return moves;
  }

  // Fetches the live view; `sound` is played once it is known whether the move captured or checked.
  async showMoves({ sound: kind = null } = {}) {
    const seq = ++this.viewSeq;
    const moves = this.movesOnView();
    const before = this.view;
    $('board').dataset.ready = 'false';
    try {
      const view = await api('/api/xq/game', { fen: this.state.start_fen, moves });
      if (seq !== this.viewSeq) return;
      this.view = view;
      if (this.message.className === 'error' && /fetch|network/i.test(this.message.textContent)) this.say('');
      if (kind) this.playSound(kind, before, view);
      if (this.viewPly !== null && this.viewPly >= view.plies) this.viewPly = null;
      this.render();
    } catch (err) {
      // Out of reach: the next state brings a new attempt.
      if (seq === this.viewSeq && this.connState === 'connected') this.say(err.message, 'error');
      if (seq === this.viewSeq && this.view) $('board').dataset.ready = 'true';
    }
  }

  playSound(kind, before, view) {
    if (kind === 'end') sound.play('end');
    else if (view.check) sound.play('check');
    else if (before && Object.keys(view.board).length < Object.keys(before.board).length) sound.play('capture');
    else sound.play('move');
  }

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
  // the piece moves; notation and the rest follow with the next answer.
  showPendingNow() {
    const { view, pending } = this;
    if (!view || !pending) return;
    const from = pending.move.slice(0, 2);
    const to = pending.move.slice(2, 4);
    const board = { ...view.board, [to]: view.board[from] };
    delete board[from];
    const moves = view.moves.slice(0, pending.ply).concat([localNotation(view.board, pending.move)]);
    this.view = { ...view, board, last: pending.move, check: false, legal: [], moves, ply: pending.ply + 1, plies: pending.ply + 1 };
    this.render();
  }

  // ------------------------------------------------------------ looking back

  livePlies() {
    return this.view ? this.view.plies : 0;
  }

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
      this.say(err.message, 'error');
    }
  }

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

  key(e) {
    if (e.target.closest && e.target.closest('input, select, textarea')) return;
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
    if (!this.state || !this.view) return;
    applyText(document.querySelector('main'));
    this.renderBoard();
    this.renderStatus();
    this.renderMoves();
    this.renderClocks();
    this.renderCountdowns();
    this.renderTitle();
  }

  renderBoard() {
    const live = this.view;
    const s = this.state;
    if (!live) return;
    const viewing = this.viewPly !== null && this.past;
    const view = viewing ? this.past : live;
    const flipped = this.flippedNow();
    this.board.setFlipped(flipped);
    const myTurn = !viewing && s.you && s.you === s.turn && s.status.outcome === 'ongoing' && !this.pending;
    this.board.interactive = Boolean(myTurn);
    let check = null;
    if (view.check) {
      const king = view.turn === 'red' ? 'K' : 'k';
      check = Object.keys(view.board).find((sq) => view.board[sq] === king) || null;
    }
    this.board.setPosition({ pieces: view.board, legal: myTurn ? view.legal : [], last: view.last, checkSquare: check });
    const node = $('board');
    node.dataset.fen = view.fen;
    node.dataset.ply = String(viewing ? this.viewPly : live.ply);
    node.dataset.plies = String(live.plies);
    node.dataset.viewing = String(Boolean(viewing));
    node.dataset.flipped = String(flipped);
    node.dataset.you = s.you || '';
    node.dataset.pending = this.pending ? 'true' : 'false';
    node.dataset.ready = 'true';
    this.viewing.hidden = !viewing;
    if (viewing) {
      this.viewing.replaceChildren(t('online.viewing', { ply: this.viewPly, plies: live.plies }), ' ',
        el('button', { type: 'button', id: 'replay-live', 'data-i18n': 'online.backToGame', text: t('online.backToGame'), onclick: () => this.goLive() }));
    }
    $('replay-first').disabled = $('replay-prev').disabled = (viewing ? this.viewPly : live.plies) === 0;
    $('replay-next').disabled = $('replay-last').disabled = !viewing;
  }

  endText() {
    const st = this.state.status;
    if (st.outcome === 'aborted') return t('online.aborted');
    const reason = st.reason ? t(`reason.${st.reason.replace(/ /g, '_')}`) : '';
    const winner = st.outcome === 'red wins' ? 'red' : st.outcome === 'black wins' ? 'black' : 'draw';
    return t(`end.${winner}`) + (reason ? ` — ${reason}` : '');
  }

  renderStatus() {
    const s = this.state;
    const st = s.status;
    if (st.outcome !== 'ongoing') {
      this.status.textContent = this.endText();
      this.status.className = 'over';
    } else if (s.you) {
      this.status.textContent = t(s.you === s.turn ? 'online.yourTurn' : 'online.theirTurn') + (this.pending ? ` (${t('online.pending')})` : '');
      this.status.className = this.view && this.view.check ? 'check' : '';
    } else {
      this.status.textContent = t(s.turn === 'red' ? 'online.redTurn' : 'online.blackTurn');
      this.status.className = '';
    }
    this.status.dataset.outcome = st.outcome;
    const p = s.players;
    const who = (c) => `${t(`online.${c}`)}${s.you === c ? ` (${t('online.you')})` : ''}: ${t(p[c].connected ? 'online.online' : 'online.offline')}`;
    this.players.replaceChildren(
      el('span', { class: `online-player ${p.red.connected ? 'on' : 'off'}`, id: 'player-red' }, who('red')), ' · ',
      el('span', { class: `online-player ${p.black.connected ? 'on' : 'off'}`, id: 'player-black' }, who('black')),
      p.watchers ? ` · ${t('online.spectators', { n: p.watchers })}` : '',
      s.you ? '' : ` · ${t('online.watching')}`);
    this.renderOffers();
    this.renderOver();
  }

  renderOffers() {
    const s = this.state;
    const over = s.status.outcome !== 'ongoing';
    const seated = Boolean(s.you);
    const them = s.you === 'red' ? 'black' : 'red';
    this.actions.hidden = !seated;
    $('online-resign').disabled = over;
    $('online-resign').hidden = s.abort_in_ms != null;
    $('online-abort').hidden = over || s.abort_in_ms == null;
    $('online-draw').disabled = over || s.offers.draw === s.you;
    $('online-takeback').disabled = over || s.offers.takeback === s.you || s.moves.length === 0;
    $('online-rematch').hidden = !over;
    $('online-rematch').disabled = s.offers.rematch === s.you;
    const button = (id, key, msg) => el('button', { type: 'button', id, 'data-i18n': key, text: t(key), onclick: () => this.send(msg) });
    const rows = [];
    if (seated && !over && s.offers.draw === them) {
      rows.push(el('p', { id: 'draw-offered' }, t('online.drawOffered'), ' ',
        button('draw-accept', 'online.accept', { type: 'draw', action: 'accept' }),
        button('draw-decline', 'online.decline', { type: 'draw', action: 'decline' })));
    }
    if (seated && !over && s.offers.takeback === them) {
      rows.push(el('p', { id: 'takeback-asked' }, t('online.takebackAsked'), ' ',
        button('takeback-accept', 'online.accept', { type: 'takeback', action: 'accept' }),
        button('takeback-decline', 'online.decline', { type: 'takeback', action: 'decline' })));
    }
    if (seated && over && s.offers.rematch === them) rows.push(el('p', { id: 'rematch-asked' }, t('online.rematchAsked')));
    if (seated && (s.offers.draw === s.you || s.offers.takeback === s.you || s.offers.rematch === s.you)) {
      rows.push(el('p', { class: 'online-note' }, t('online.youOffered')));
    }
    this.offers.replaceChildren(...rows);
  }

  // The game-over panel: how it ended, rematch, analysis, the share link and the PGN.
  renderOver() {
    const s = this.state;
    const over = s.status.outcome !== 'ongoing';
    this.over.hidden = !over;
    if (!over) return;
    const key = `${s.v}:${s.offers.rematch}`;
    if (this.overKey === key) return;
    this.overKey = key;
    const link = `${location.origin}${s.link}`;
    const rematch = s.you
      ? el('button', { type: 'button', id: 'over-rematch', 'data-i18n': 'online.rematch', text: t('online.rematch'), onclick: () => this.send({ type: 'rematch' }) })
      : '';
    if (rematch && s.offers.rematch === s.you) rematch.disabled = true;
    this.over.replaceChildren(
      el('h2', { 'data-i18n': 'online.over', text: t('online.over') }),
      el('p', { id: 'over-result', text: this.endText() }),
      el('div', { class: 'buttons' }, rematch,
        el('a', { class: 'button', id: 'over-analyse', href: `${s.link}${s.link.includes('?') ? '&' : '?'}analyse=1`, 'data-i18n': 'online.analyse', text: t('online.analyse') }),
        el('a', { class: 'button', id: 'over-pgn', href: `/api/rooms/${encodeURIComponent(s.room)}/pgn`, download: `${s.room}.pgn`, 'data-i18n': 'online.pgn', text: t('online.pgn') })),
      linkRow('online.share', link, 'online-share-link'));
  }

  renderMoves() {
    const view = this.view;
    if (!view) return;
    const list = this.movesList;
    list.replaceChildren();
    const [, side, , , , full] = view.start_fen.split(' ');
    let number = Number(full) || 1;
    let item = null;
    const shown = this.viewPly ?? view.plies;
    view.moves.forEach((m, i) => {
      const red = (i + (side === 'b' ? 1 : 0)) % 2 === 0;
      if (red || !item) {
        item = el('li', {}, el('span', { class: 'num', text: `${number}.` }));
        if (!red) item.append(el('span', { class: 'move-gap', text: '…' }));
        list.append(item);
      }
      const pending = this.pending && i === this.pending.ply;
      const classes = `move${pending ? ' pending' : ''}${i + 1 === shown ? ' current' : ''}`;
      item.append(el('span', { class: classes, 'data-ply': String(i + 1), role: 'button', tabindex: '0', text: m[this.notation] ?? m.iccs }));
      if (!red) {
        item = null;
        number += 1;
      }
    });
    if (this.viewPly === null) list.scrollTop = list.scrollHeight;
  }

  clockLeft(c) {
    const s = this.state;
    const elapsed = performance.now() - this.receivedAt;
    return Math.max(0, s.clock[`${c}_ms`] - (s.clock.running === c ? elapsed : 0));
  }

  renderClocks() {
    const s = this.state;
    const bottomColour = this.flippedNow() ? 'black' : 'red';
    const topColour = bottomColour === 'red' ? 'black' : 'red';
    if (!s || !s.clock) {
      this.clockTop.hidden = this.clockBottom.hidden = true;
      return;
    }
    for (const [node, c] of [[this.clockTop, topColour], [this.clockBottom, bottomColour]]) {
      const left = this.clockLeft(c);
      node.hidden = false;
      node.dataset.colour = c;
      node.dataset.ms = String(Math.round(left));
      node.classList.toggle('running', s.clock.running === c);
      node.classList.toggle('low', left < LOW_TIME_MS);
      node.textContent = `${t(`online.${c}`)} ${formatClock(left)}`;
    }
    // One warning when my own clock runs under 10 s.
    if (s.you && s.clock.running === s.you && s.status.outcome === 'ongoing' && !this.lowTimeWarned
        && this.clockLeft(s.you) < LOW_TIME_MS && s.clock.initial_s * 1000 > LOW_TIME_MS) {
      this.lowTimeWarned = true;
      sound.play('lowtime');
    }
  }

  // The first-move countdown (a game nobody started is aborted) and the opponent-gone one.
  renderCountdowns() {
    const s = this.state;
    if (!s) return;
    const elapsed = performance.now() - this.receivedAt;
    const abortIn = s.abort_in_ms == null || s.status.outcome !== 'ongoing' ? null : Math.max(0, s.abort_in_ms - elapsed);
    this.abortNote.hidden = abortIn === null;
    if (abortIn !== null) {
      const side = s.you === s.turn ? t('online.you') : t(`online.${s.turn}`);
      this.abortNote.textContent = t('online.abortIn', { side, s: Math.ceil(abortIn / 1000) });
    }
    const claimIn = s.claim_in_ms == null || s.status.outcome !== 'ongoing' || !s.you ? null : Math.max(0, s.claim_in_ms - elapsed);
    this.goneNote.hidden = claimIn === null;
    if (claimIn === null) {
      this.goneKey = null;
      return;
    }
    const ready = claimIn <= 0;
    if (ready && this.goneKey === 'ready') return;
    if (ready) {
      this.goneKey = 'ready';
      const claim = (result, id, key) => el('button', { type: 'button', id, 'data-i18n': key, text: t(key), onclick: () => this.send({ type: 'claim', result }) });
      this.goneNote.replaceChildren(el('p', { text: t('online.claimNow') }),
        el('div', { class: 'buttons' }, claim('win', 'claim-win', 'online.claimWin'), claim('draw', 'claim-draw', 'online.claimDraw')));
    } else {
      this.goneKey = 'waiting';
      this.goneNote.replaceChildren(el('p', { id: 'gone-countdown', text: t('online.opponentGone', { s: Math.ceil(claimIn / 1000) }) }));
    }
  }

  // In a background tab the title says whose move it is.
  renderTitle() {
    const s = this.state;
    if (!s) return;
    if (document.hidden && s.status.outcome === 'ongoing') {
      const key = s.you ? (s.you === s.turn ? 'online.yourTurn' : 'online.theirTurn') : s.turn === 'red' ? 'online.redTurn' : 'online.blackTurn';
      document.title = `${t(key)} · ${t('nav.home')}`;
    } else if (document.hidden) {
      document.title = `${this.endText()} · ${t('nav.home')}`;
    } else {
      document.title = `${t('online.roomTitle')} · ${t('nav.home')}`;
    }
  }
}

// ---------------------------------------------------------------- start

setupLangButton();
const params = new URLSearchParams(location.search);
if (params.has('room')) new RoomPage(params.get('room'), params.get('seat') || null);
