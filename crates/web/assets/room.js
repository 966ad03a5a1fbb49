// The room page (/xq?room=ID, with &seat=TOKEN for a player; served as room.html). The server
// owns the game; this page shows its states, sends requests, and never loses a move: a move
// waits, shown as pending, until a state that contains it comes back; it is sent again after a
// reconnect or when no answer comes in time (the server recognises a resend by its ply and
// applies it once).

import { api } from './api.js';
import { XiangqiBoard } from './board.js';
import { t, onLangChange, applyText, setupLangButton } from './i18n.js';
import * as sound from './sound.js';
import { el, linkRow, playerName, setPlayerName } from './online.js';
import { $, svgEl } from './dom.js';
import { load as loadRules, Board, moveToIccs } from './qi/index.js';


const RESEND_AFTER_MS = 2500;
// A ping every 2 s; no answer within 1.5 s shows "Reconnecting…", and a socket silent for 5 s
// is dropped and opened again.
const PING_EVERY_MS = 2000;
const PONG_LATE_MS = 1500;
const SILENCE_MS = 5000;
const LOW_TIME_MS = 10000;
// The server's limit on a chat line, and the lines the page keeps (the server sends its last 50).
const CHAT_MAX_CHARS = 200;
const CHAT_KEPT = 200;

// A clock's text: whole seconds rounded down (as lichess), tenths under 10 s.
export function formatClock(ms) {
  const left = Math.max(0, ms);
  const total = Math.floor(left / 1000);
  const m = Math.floor(total / 60);
  const sec = String(total % 60).padStart(2, '0');
  return left < LOW_TIME_MS ? `${m}:${sec}.${Math.floor((left % 1000) / 100)}` : `${m}:${sec}`;
}

// A move in Chinese (both scripts), Vietnamese and WXF notation, from the board before it (keys
// such as "e3", FEN letters), for a move shown while the server is out of reach. The usual cases
// (one piece of its kind on its file, or two) are written as the server writes them; rarer
// ones stay in ICCS.
const GLYPHS = { red: { K: '帅', A: '仕', B: '相', N: '马', R: '车', C: '炮', P: '兵' }, black: { K: '将', A: '士', B: '象', N: '马', R: '车', C: '炮', P: '卒' } };
const TRADITIONAL = { red: { K: '帥', A: '仕', B: '相', N: '傌', R: '俥', C: '炮', P: '兵' }, black: { K: '將', A: '士', B: '象', N: '馬', R: '車', C: '炮', P: '卒' } };
const WXF_LETTER = { K: 'K', A: 'A', B: 'E', N: 'H', R: 'R', C: 'C', P: 'P' };
const VI_LETTER = { K: 'Tg', A: 'S', B: 'T', N: 'M', R: 'X', C: 'P', P: 'B' };
const NUMERALS = '一二三四五六七八九';
export function localNotation(board, iccs) {
  const piece = board[iccs.slice(0, 2)];
  if (!piece) return { iccs };
  const colour = piece === piece.toUpperCase() ? 'red' : 'black';
  const kind = piece.toUpperCase();
  const fileOf = (sq) => 'abcdefghi'.indexOf(sq[0]);
  const number = (idx) => (colour === 'red' ? 9 - idx : idx + 1);
  const cn = (n) => (colour === 'red' ? NUMERALS[n - 1] : String(n));
  // Traditional: Black's numbers full-width (馬８進７).
  const tw = (n) => (colour === 'red' ? NUMERALS[n - 1] : String.fromCharCode(0xff10 + n));
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
  const viSign = { 平: '-', 进: '.', 退: '/' }[action];
  const twAction = action === '进' ? '進' : action;
  const same = Object.keys(board).filter((sq) => board[sq] === piece && fileOf(sq) === fromFile);
  if (same.length === 1) {
    return {
      iccs,
      chinese: `${GLYPHS[colour][kind]}${cn(number(fromFile))}${action}${cn(amount)}`,
      traditional: `${TRADITIONAL[colour][kind]}${tw(number(fromFile))}${twAction}${tw(amount)}`,
      vietnamese: `${VI_LETTER[kind]}${number(fromFile)}${viSign}${amount}`,
      wxf: `${WXF_LETTER[kind]}${number(fromFile)}${wxfSign}${amount}`,
    };
  }
  if (same.length !== 2 || !'RNCP'.includes(kind)) return { iccs };
  if (kind === 'P') {
    const files = new Set(Object.keys(board).filter((sq) => board[sq] === piece).map(fileOf));
    const crowded = [...files].filter((f) => Object.keys(board).filter((sq) => board[sq] === piece && fileOf(sq) === f).length >= 2);
    if (crowded.length > 1) return { iccs };
  }
  const other = Number(same.find((sq) => sq !== iccs.slice(0, 2))[1]);
  const front = colour === 'red' ? fromRank > other : fromRank < other;
  return {
    iccs,
    chinese: `${front ? '前' : '后'}${GLYPHS[colour][kind]}${action}${cn(amount)}`,
    traditional: `${front ? '前' : '後'}${TRADITIONAL[colour][kind]}${twAction}${tw(amount)}`,
    vietnamese: `${VI_LETTER[kind]}${front ? 't' : 's'}${viSign}${amount}`,
    wxf: `${WXF_LETTER[kind]}${front ? '+' : '-'}${wxfSign}${amount}`,
  };
}

// Where a premove may go while the opponent is to move, by the page's WebAssembly rules: the
// moves of the same position with the player to move, and the moves onto each of the player's
// own pieces as if an opponent's piece stood there (a recapture). Whether the premove is legal
// once the opponent has moved is judged again then.
export async function premoveTargets(fen) {
  await loadRules();
  const [placement, turn, ...rest] = fen.split(' ');
  const mine = turn === 'w' ? 'b' : 'w';
  const flipped = [placement, mine, ...rest].join(' ');
  const found = new Set();
  const collect = (position, onto = null) => {
    let board;
    try {
      board = new Board(position);
    } catch {
      return; // an impossible position (e.g. the opponent in check): nothing from it
    }
    for (const m of board.legalMoves()) {
      const iccs = moveToIccs(m);
      if (onto === null || iccs.slice(2, 4) === onto) found.add(iccs);
    }
    board.free();
  };
  collect(flipped);
  const rows = placement.split('/').map((row) => [...row.replace(/\d/g, (n) => '.'.repeat(Number(n)))]);
  const own = (ch) => ch !== '.' && (mine === 'w' ? ch === ch.toUpperCase() : ch === ch.toLowerCase());
  rows.forEach((row, r) => row.forEach((ch, f) => {
    if (!own(ch) || 'Kk'.includes(ch)) return;
    const square = `${'abcdefghi'[f]}${9 - r}`;
    // An opponent's rook, horse or cannon stands in for the piece (the first one the rules take).
    for (const kind of 'rnc') {
      const letter = mine === 'w' ? kind : kind.toUpperCase();
      const swapped = rows.map((rw, i) => (i === r ? rw.map((c, j) => (j === f ? letter : c)) : rw));
      const text = swapped.map((rw) => rw.join('').replace(/\.+/g, (dots) => String(dots.length))).join('/');
      const before = found.size;
      collect([text, mine, ...rest].join(' '), square);
      if (found.size > before) break;
    }
  }));
  return [...found];
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
    this.premove = null; // a move queued while the opponent is to move (ICCS), or null
    this.premoveFor = null; // the FEN the premove targets were found for
    this.premoveTargets = [];
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
    // A seat's name: optional, shown to everyone and written in the PGN.
    const nameInput = el('input', { id: 'online-name', maxlength: '24', autocomplete: 'nickname', 'data-i18n-placeholder': 'online.name', placeholder: t('online.name'), 'aria-label': t('online.name') });
    this.nameForm = el('form', { id: 'online-name-form', class: 'row', hidden: '' }, nameInput,
      el('button', { type: 'submit', id: 'online-name-set', 'data-i18n': 'online.setName', text: t('online.setName') }));
    this.nameForm.addEventListener('submit', (e) => {
      e.preventDefault();
      setPlayerName(nameInput.value);
      this.send({ type: 'name', name: nameInput.value });
    });
    this.nameSent = false;
    this.abortNote = el('p', { id: 'online-abort-note', class: 'online-note', hidden: '' });
    this.goneNote = el('div', { id: 'online-gone', hidden: '' });
    this.offers = el('div', { id: 'online-offers', class: 'buttons' });
    this.notice = el('p', { id: 'online-notice', class: 'online-note', 'aria-live': 'polite' });
    this.premoveNote = el('p', { id: 'online-premove', class: 'online-note', hidden: '' });
    this.actions = el('div', { class: 'buttons', id: 'online-actions' },
      button('online-resign', 'online.resign', () => { if (confirm(t('online.confirmResign'))) this.send({ type: 'resign' }); }),
      button('online-draw', 'online.offerDraw', () => this.send({ type: 'draw', action: 'offer' })),
      button('online-takeback', 'online.takeback', () => this.send({ type: 'takeback', action: 'request' })),
      button('online-abort', 'online.abort', () => this.send({ type: 'abort' })),
      button('online-rematch', 'online.rematch', () => this.send({ type: 'rematch' })),
      button('online-flip', 'online.flip', () => { this.flipped = !this.flippedNow(); this.renderBoard(); }));
    const notation = el('select', { id: 'notation' },
      ...['chinese', 'traditional', 'vietnamese', 'wxf', 'iccs'].map((n) => el('option', { value: n, 'data-i18n': `notation.${n}`, text: t(`notation.${n}`) })));
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
    this.chat = this.buildChat();
    this.links = el('section', { id: 'online-links' });
    this.over = el('section', { id: 'online-over', hidden: '' });
    const panel = el('aside', { class: 'panel' }, this.conn, this.status, this.message, this.players, this.nameForm, this.abortNote,
      this.goneNote, this.offers, this.notice, this.premoveNote, this.actions, this.over,
      el('div', { class: 'moves-head' }, el('h2', { 'data-i18n': 'label.moves', text: t('label.moves') }),
        el('label', {}, el('span', { 'data-i18n': 'label.notation', text: t('label.notation') }), ' ', notation)),
      this.movesList,
      el('label', { class: 'online-mute' }, mute, ' ', el('span', { 'data-i18n': 'online.mute', text: t('online.mute') })),
      this.chat.section);
    // The links first: on a phone the invite is above the fold.
    main.replaceChildren(this.links, boardWrap, panel);
    this.board = new XiangqiBoard(boardNode, {
      onMove: (iccs) => (this.view && this.state && this.view.turn !== this.state.you ? this.setPremove(iccs) : this.play(iccs)),
      onIllegal: (iccs) => this.say(t('msg.illegal', { move: iccs }), 'error'),
    });
    this.board.interactive = false;
    // A queued premove is cancelled by a click on the board (which does nothing else then) or a
    // right-click; Escape too (see key()).
    this.premoveLayer = svgEl('g', { class: 'premove-marks' });
    this.board.svg.insertBefore(this.premoveLayer, this.board.pieceLayer);
    this.board.svg.addEventListener('pointerdown', (e) => {
      if (!this.premove) return;
      e.stopPropagation();
      e.preventDefault();
      this.cancelPremove();
    }, true);
    this.board.svg.addEventListener('contextmenu', (e) => {
      if (!this.premove && !this.board.selected) return;
      e.preventDefault();
      this.cancelPremove();
    });
    const saved = JSON.parse(localStorage.getItem(`qi-room-${this.roomId}`) || 'null');
    const watch = `${location.origin}/xq?room=${this.roomId}`;
    if (saved && saved.invite && this.seatToken) this.links.append(linkRow('online.invite', saved.invite, 'online-invite'));
    this.links.append(linkRow('online.watch', saved && saved.watch ? saved.watch : watch, 'online-watch'));
  }

  // The players' chat: lines as plain text (never HTML), a switch that hides it (remembered),
  // a form for the players only (spectators read).
  buildChat() {
    const lines = el('ol', { id: 'chat-lines', class: 'chat-lines', 'aria-live': 'polite' });
    const input = el('input', { id: 'chat-input', maxlength: String(CHAT_MAX_CHARS), autocomplete: 'off', 'data-i18n-placeholder': 'online.chatPlaceholder', placeholder: t('online.chatPlaceholder') });
    const error = el('p', { id: 'chat-error', class: 'online-note error' });
    const form = el('form', { id: 'chat-form', class: 'row' }, input,
      el('button', { type: 'submit', id: 'chat-send', 'data-i18n': 'online.send', text: t('online.send') }));
    const readOnly = el('p', { id: 'chat-readonly', class: 'online-note', 'data-i18n': 'online.chatReadOnly', text: t('online.chatReadOnly'), hidden: '' });
    const body = el('div', { id: 'chat-body' }, lines, form, readOnly, error);
    const hide = el('input', { type: 'checkbox', id: 'chat-hide' });
    hide.checked = localStorage.getItem('qi-chat-hidden') === '1';
    body.hidden = hide.checked;
    hide.addEventListener('change', () => {
      body.hidden = hide.checked;
      localStorage.setItem('qi-chat-hidden', hide.checked ? '1' : '0');
    });
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      if (this.send({ type: 'chat', text })) {
        input.value = '';
        error.textContent = '';
      }
    });
    const section = el('section', { id: 'online-chat' },
      el('div', { class: 'moves-head' }, el('h2', { 'data-i18n': 'online.chat', text: t('online.chat') }),
        el('label', {}, hide, ' ', el('span', { 'data-i18n': 'online.hideChat', text: t('online.hideChat') }))),
      body);
    return { section, lines, form, readOnly, error, fresh: false };
  }

  // A chat line from the server: `from` is a colour, `text` plain text, `at` wall-clock ms.
  addChatLine(msg) {
    const c = this.chat;
    if (c.fresh) {
      // A new socket sends the room's recent history again: it replaces what was shown.
      c.lines.replaceChildren();
      c.fresh = false;
    }
    const from = msg.from === 'red' || msg.from === 'black' ? msg.from : 'red';
    const time = new Date(msg.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    const who = `${this.nameOf(from)}${this.you === from ? ` (${t('online.you')})` : ''}`;
    c.lines.append(el('li', { class: `chat-line ${from}`, 'data-from': from },
      el('time', { class: 'chat-at', text: time }), ' ',
      el('span', { class: 'chat-from', text: `${who}:` }), ' ',
      el('span', { class: 'chat-text', text: String(msg.text) })));
    while (c.lines.children.length > CHAT_KEPT) c.lines.firstChild.remove();
    c.lines.scrollTop = c.lines.scrollHeight;
  }

  // A seat gives its stored name once, if the room has none for it; the form changes it.
  renderName(s) {
    const mine = s.you && s.names ? s.names[s.you] : null;
    this.nameForm.hidden = !s.you;
    const input = $('online-name');
    if (s.you && !mine && !this.nameSent && playerName()) {
      this.nameSent = true;
      this.send({ type: 'name', name: playerName() });
    }
    if (mine && document.activeElement !== input) input.value = mine;
  }

  // A colour as shown: the player's name if one was given, else "Red" / "Black".
  nameOf(colour) {
    const names = this.state && this.state.names;
    return (names && names[colour]) || t(`online.${colour}`);
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
      this.chat.fresh = true;
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
    if (msg.type === 'chat') {
      this.addChatLine(msg);
      return;
    }
    if (msg.type === 'error' && msg.about === 'chat') {
      this.chat.error.textContent = msg.error;
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
    if (this.chat.fresh) {
      // The history follows the first state of a socket; none at all: the room has none.
      this.chat.lines.replaceChildren();
      this.chat.fresh = false;
    }
    this.chat.form.hidden = !msg.you;
    this.renderName(msg);
    this.chat.readOnly.hidden = Boolean(msg.you);
    if (msg.next && this.seatToken !== undefined) {
      const next = `/xq?room=${encodeURIComponent(msg.next)}${this.seatToken ? `&seat=${encodeURIComponent(this.seatToken)}` : ''}`;
      location.assign(next);
      return;
    }
    if (before && this.premove && (msg.room !== before.room || msg.moves.length < before.moves.length)) this.premove = null; // a takeback
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
      this.firePremove();
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

  // ------------------------------------------------------------ premoves

  setPremove(iccs) {
    this.premove = iccs;
    this.renderBoard();
    this.renderPremove();
  }

  cancelPremove() {
    if (!this.premove && !this.board.selected) return;
    this.premove = null;
    this.board.select(null);
    this.renderBoard();
    this.renderPremove();
  }

  // Once the opponent's move is in (the view is the server's latest, with the player to move):
  // the premove is played if the rules still allow it, dropped otherwise.
  firePremove() {
    const s = this.state;
    const move = this.premove;
    if (!move || !s || !this.view) return;
    if (s.status.outcome !== 'ongoing' || !s.you) {
      this.premove = null;
      this.renderPremove();
      return;
    }
    if (s.turn !== s.you || this.pending || this.view.plies !== s.moves.length) return;
    this.premove = null;
    if (this.view.legal.includes(move)) {
      if (this.viewPly !== null) this.goLive();
      this.play(move);
    } else {
      this.notice.textContent = t('online.premoveDropped', { move: this.moveText(move) });
      this.renderBoard();
    }
    this.renderPremove();
  }

  moveText(iccs) {
    if (this.notation === 'iccs' || !this.view) return iccs;
    return localNotation(this.view.board, iccs)[this.notation] || iccs;
  }

  // Finds where a premove may go in the live position (once per position), then redraws.
  async loadPremoveTargets(fen) {
    this.premoveFor = fen;
    this.premoveTargets = [];
    try {
      const targets = await premoveTargets(fen);
      if (this.premoveFor === fen) {
        this.premoveTargets = targets;
        this.renderBoard();
      }
    } catch {
      // The rules did not load: no premoves, the game goes on.
    }
  }

  renderPremove() {
    const layer = this.premoveLayer;
    layer.replaceChildren();
    const move = this.premove;
    $('board').dataset.premove = move || '';
    const note = $('online-premove');
    if (note) note.hidden = !move;
    if (note && move) note.textContent = t('online.premove', { move: this.moveText(move) });
    if (!move) return;
    for (const sq of [move.slice(0, 2), move.slice(2, 4)]) {
      const [x, y] = this.board.xy('abcdefghi'.indexOf(sq[0]), Number(sq[1]));
      svgEl('rect', { x: x - 29, y: y - 29, width: 58, height: 58, rx: 6, class: 'premove-mark', 'data-square': sq }, layer);
    }
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
    if (e.key === 'Escape' && this.premove) {
      e.preventDefault();
      this.cancelPremove();
      return;
    }
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
    // The opponent to move (the view may hold one's own pending move): a premove may be queued.
    const theirTurn = !viewing && s.you && live.turn !== s.you && s.status.outcome === 'ongoing' && live.fen;
    if (theirTurn && this.premoveFor !== live.fen) this.loadPremoveTargets(live.fen);
    const premoving = Boolean(theirTurn && !this.premove && this.premoveFor === live.fen);
    this.board.interactive = Boolean(myTurn || premoving);
    let check = null;
    if (view.check) {
      const king = view.turn === 'red' ? 'K' : 'k';
      check = Object.keys(view.board).find((sq) => view.board[sq] === king) || null;
    }
    const legal = myTurn ? view.legal : premoving ? this.premoveTargets : [];
    this.board.setPosition({ pieces: view.board, legal, last: view.last, checkSquare: check });
    this.renderPremove();
    const node = $('board');
    node.dataset.fen = view.fen;
    node.dataset.ply = String(viewing ? this.viewPly : live.ply);
    node.dataset.plies = String(live.plies);
    node.dataset.viewing = String(Boolean(viewing));
    node.dataset.flipped = String(flipped);
    node.dataset.you = s.you || '';
    node.dataset.pending = this.pending ? 'true' : 'false';
    node.dataset.premoving = String(premoving);
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
    const named = (c) => (s.names && s.names[c] ? `${t(`online.${c}`)} ${s.names[c]}` : t(`online.${c}`));
    const who = (c) => `${named(c)}${s.you === c ? ` (${t('online.you')})` : ''}: ${t(p[c].connected ? 'online.online' : 'online.offline')}`;
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
