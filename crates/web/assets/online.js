// Play a friend by link: the "Play a friend" dialog on /xq, and the room page (/xq?room=ID,
// with &seat=TOKEN for a player). The server owns the game; this page shows its states, sends
// requests, and never loses a move: a move waits, shown as pending, until a state that contains
// it comes back; it is sent again after a reconnect or when no answer comes in time (the server
// recognises a resend by its ply and applies it once).

import { api } from './api.js';
import { XiangqiBoard } from './board.js';
import { t, addText, onLangChange, applyText } from './i18n.js';

addText({
  en: {
    'online.play': 'Play a friend', 'online.title': 'Play a friend', 'online.colour': 'My colour',
    'online.red': 'Red', 'online.black': 'Black', 'online.random': 'Random', 'online.clock': 'Clock',
    'online.noClock': 'No clock', 'online.minutes': 'minutes', 'online.increment': 'seconds per move',
    'online.fromHere': 'Start from the position on the board', 'online.create': 'Create the game',
    'online.cancel': 'Cancel', 'online.invite': 'Send this link to your friend', 'online.watch': 'Link for spectators',
    'online.copy': 'Copy', 'online.copied': 'Copied.', 'online.connecting': 'Connecting…',
    'online.connected': 'Connected', 'online.reconnecting': 'Reconnecting…', 'online.you': 'you',
    'online.online': 'online', 'online.offline': 'offline', 'online.watching': 'You are watching.',
    'online.spectators': '{n} watching', 'online.yourTurn': 'Your move', 'online.theirTurn': 'Waiting for your opponent',
    'online.redTurn': 'Red to move', 'online.blackTurn': 'Black to move', 'online.resign': 'Resign',
    'online.confirmResign': 'Resign this game?', 'online.offerDraw': 'Offer a draw', 'online.takeback': 'Ask to take back',
    'online.accept': 'Accept', 'online.decline': 'Decline', 'online.drawOffered': 'Your opponent offers a draw.',
    'online.takebackAsked': 'Your opponent asks to take a move back.', 'online.youOffered': 'Offer sent.',
    'online.rematch': 'Rematch', 'online.rematchAsked': 'Your opponent wants a rematch.',
    'online.share': 'Share the finished game', 'online.pending': 'sending…', 'online.flip': 'Rotate board',
    'online.leave': 'Leave the room', 'online.notFound': 'This room does not exist (any more).',
    'reason.resignation': 'resignation', 'reason.agreement': 'agreed draw', 'reason.flag': 'time ran out',
  },
  zh: {
    'online.play': '约朋友下棋', 'online.title': '约朋友下棋', 'online.colour': '我执', 'online.red': '红方',
    'online.black': '黑方', 'online.random': '随机', 'online.clock': '计时', 'online.noClock': '不计时',
    'online.minutes': '分钟', 'online.increment': '每步加秒', 'online.fromHere': '从棋盘上的局面开始',
    'online.create': '开局', 'online.cancel': '取消', 'online.invite': '把这个链接发给朋友',
    'online.watch': '观战链接', 'online.copy': '复制', 'online.copied': '已复制。', 'online.connecting': '连接中…',
    'online.connected': '已连接', 'online.reconnecting': '重新连接中…', 'online.you': '我', 'online.online': '在线',
    'online.offline': '离线', 'online.watching': '观战中。', 'online.spectators': '{n} 人观战',
    'online.yourTurn': '轮到你走', 'online.theirTurn': '等待对手走棋', 'online.redTurn': '红方走',
    'online.blackTurn': '黑方走', 'online.resign': '认输', 'online.confirmResign': '确定认输？',
    'online.offerDraw': '提和', 'online.takeback': '请求悔棋', 'online.accept': '同意', 'online.decline': '拒绝',
    'online.drawOffered': '对手提和。', 'online.takebackAsked': '对手请求悔棋。', 'online.youOffered': '已发送。',
    'online.rematch': '再来一局', 'online.rematchAsked': '对手想再来一局。', 'online.share': '分享这盘棋',
    'online.pending': '发送中…', 'online.flip': '翻转棋盘', 'online.leave': '离开', 'online.notFound': '这个房间不存在（或已清理）。',
    'reason.resignation': '认输', 'reason.agreement': '议和', 'reason.flag': '超时',
  },
});

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') node.textContent = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  node.append(...children);
  return node;
}

async function copy(input, say) {
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand && document.execCommand('copy');
  }
  say(t('online.copied'));
}

function linkRow(labelKey, value, id) {
  const input = el('input', { readonly: '', id, 'aria-label': t(labelKey) });
  input.value = value;
  const note = el('span', { class: 'online-note' });
  return el('div', { class: 'online-link' },
    el('label', { for: id, 'data-i18n': labelKey, text: t(labelKey) }),
    el('div', { class: 'row' }, input,
      el('button', { type: 'button', 'data-i18n': 'online.copy', text: t('online.copy'), onclick: () => copy(input, (m) => { note.textContent = m; }) })),
    note);
}

// ---------------------------------------------------------------- the "Play a friend" dialog

function friendDialog() {
  const dialog = el('dialog', { id: 'friend-dialog', class: 'online-dialog' });
  const colour = el('select', { id: 'friend-colour' },
    ...['red', 'black', 'random'].map((c) => el('option', { value: c, 'data-i18n': `online.${c}`, text: t(`online.${c}`) })));
  const clockOn = el('input', { type: 'checkbox', id: 'friend-clock', checked: '' });
  const minutes = el('input', { type: 'number', id: 'friend-minutes', min: '1', max: '180', value: '10' });
  const increment = el('input', { type: 'number', id: 'friend-increment', min: '0', max: '180', value: '5' });
  const fromHere = el('input', { type: 'checkbox', id: 'friend-from-here' });
  const error = el('p', { class: 'error', role: 'alert' });
  const form = el('form', { method: 'dialog' },
    el('h2', { 'data-i18n': 'online.title', text: t('online.title') }),
    el('label', {}, el('span', { 'data-i18n': 'online.colour', text: t('online.colour') }), ' ', colour),
    el('label', {}, clockOn, ' ', el('span', { 'data-i18n': 'online.clock', text: t('online.clock') }), ' ', minutes, ' ',
      el('span', { 'data-i18n': 'online.minutes', text: t('online.minutes') }), ' + ', increment, ' ',
      el('span', { 'data-i18n': 'online.increment', text: t('online.increment') })),
    el('label', {}, fromHere, ' ', el('span', { 'data-i18n': 'online.fromHere', text: t('online.fromHere') })),
    error,
    el('div', { class: 'buttons' },
      el('button', { type: 'submit', id: 'friend-create', value: 'create', 'data-i18n': 'online.create', text: t('online.create') }),
      el('button', { type: 'button', 'data-i18n': 'online.cancel', text: t('online.cancel'), onclick: () => dialog.close() })));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    error.textContent = '';
    const body = {};
    if (clockOn.checked) body.clock = { initial_s: Math.round(Number(minutes.value) * 60), increment_s: Math.round(Number(increment.value)) };
    const fen = $('board') && $('board').dataset.fen;
    if (fromHere.checked && fen) body.fen = fen;
    try {
      const room = await api('/api/rooms', body);
      let mine = colour.value;
      if (mine === 'random') mine = Math.random() < 0.5 ? 'red' : 'black';
      const theirs = mine === 'red' ? 'black' : 'red';
      localStorage.setItem(`qi-room-${room.room}`, JSON.stringify({ invite: room.links[theirs], watch: room.links.watch }));
      location.href = room.links[mine];
    } catch (err) {
      error.textContent = err.message;
    }
  });
  dialog.append(form);
  document.body.append(dialog);
  return dialog;
}

function addFriendButton() {
  if ($('play-friend')) return $('play-friend');
  const button = el('button', { type: 'button', id: 'play-friend', 'data-i18n': 'online.play', text: t('online.play') });
  const place = document.querySelector('.panel .buttons') || document.querySelector('.panel') || document.body;
  place.append(button);
  return button;
}

// ---------------------------------------------------------------- the room page

const RESEND_AFTER_MS = 2500;
const PING_EVERY_MS = 4000;
const SILENCE_MS = 10000;

class RoomPage {
  constructor(roomId, seat) {
    this.roomId = roomId;
    this.seatToken = seat;
    this.state = null; // the server's latest state
    this.view = null; // /api/xq/game's answer for the moves on view
    this.pending = null; // { ply, move, sentAt }
    this.socket = null;
    this.backoff = 500;
    this.lastHeard = 0;
    this.receivedAt = 0;
    this.flipped = null;
    this.notation = localStorage.getItem('qi-notation') || 'chinese';
    this.viewSeq = 0;
    this.build();
    this.connect();
    setInterval(() => this.tick(), 200);
    window.addEventListener('online', () => this.reconnectNow());
    onLangChange(() => this.render());
  }

  get you() {
    return this.state ? this.state.you : null;
  }

  build() {
    document.body.classList.add('online-page');
    const main = document.querySelector('main') || document.body.appendChild(el('main'));
    main.className = 'layout online';
    const boardNode = el('div', { id: 'board', 'data-ready': 'false', 'data-plies': '0' });
    this.clockTop = el('div', { class: 'online-clock', id: 'clock-top' });
    this.clockBottom = el('div', { class: 'online-clock', id: 'clock-bottom' });
    const boardWrap = el('section', { class: 'board-wrap' }, this.clockTop, boardNode, this.clockBottom);
    this.conn = el('p', { id: 'online-conn', 'data-state': 'connecting', 'aria-live': 'polite' });
    this.status = el('p', { id: 'status', 'aria-live': 'polite' });
    this.message = el('p', { id: 'message', role: 'alert' });
    this.players = el('p', { id: 'online-players' });
    this.offers = el('div', { id: 'online-offers', class: 'buttons' });
    const button = (id, key, fn) => el('button', { type: 'button', id, 'data-i18n': key, text: t(key), onclick: fn });
    this.actions = el('div', { class: 'buttons', id: 'online-actions' },
      button('online-resign', 'online.resign', () => { if (confirm(t('online.confirmResign'))) this.send({ type: 'resign' }); }),
      button('online-draw', 'online.offerDraw', () => this.send({ type: 'draw', action: 'offer' })),
      button('online-takeback', 'online.takeback', () => this.send({ type: 'takeback', action: 'request' })),
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
    this.movesList = el('ol', { id: 'moves' });
    this.links = el('section', { id: 'online-links' });
    this.share = el('section', { id: 'online-share', hidden: '' });
    const panel = el('aside', { class: 'panel' }, this.conn, this.status, this.message, this.players, this.offers, this.actions,
      el('div', { class: 'moves-head' }, el('h2', { 'data-i18n': 'label.moves', text: t('label.moves') }),
        el('label', {}, el('span', { 'data-i18n': 'label.notation', text: t('label.notation') }), ' ', notation)),
      this.movesList, this.share, this.links);
    main.replaceChildren(boardWrap, panel);
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
    this.setConn('reconnecting');
    if (!this.state) {
      // Never connected: perhaps the room does not exist.
      try {
        await api(`/api/rooms/${encodeURIComponent(this.roomId)}`);
      } catch (err) {
        if (/no such room/.test(err.message)) {
          this.say(t('online.notFound'), 'error');
          return;
        }
      }
    }
    const wait = this.backoff * (0.75 + Math.random() * 0.5);
    this.backoff = Math.min(this.backoff * 2, 8000);
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => this.connect(), wait);
  }

  reconnectNow() {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) return;
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
    } else if (open && now - (this.lastPing || 0) > PING_EVERY_MS) {
      this.lastPing = now;
      this.socket.send(JSON.stringify({ type: 'ping' }));
    }
    if (open && this.pending && now - this.pending.sentAt > RESEND_AFTER_MS) this.sendPending();
    this.renderClocks();
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
    if (msg.type === 'pong') return;
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
    const first = !this.state;
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
    if (first) this.say('');
    this.showMoves();
  }

  // ------------------------------------------------------------ moves

  movesOnView() {
    const moves = this.state.moves.slice();
    if (this.pending && this.pending.ply === moves.length) moves.push(this.pending.move);
    return moves;
  }

  async showMoves() {
    const seq = ++this.viewSeq;
    const moves = this.movesOnView();
    $('board').dataset.ready = 'false';
    try {
      const view = await api('/api/xq/game', { fen: this.state.start_fen, moves });
      if (seq !== this.viewSeq) return;
      this.view = view;
      this.render();
    } catch (err) {
      // Out of reach: the next state brings a new attempt.
      if (seq === this.viewSeq && this.connState === 'connected') this.say(err.message, 'error');
      if (seq === this.viewSeq && this.view) $('board').dataset.ready = 'true';
    }
  }

  play(iccs) {
    const s = this.state;
    if (!s || s.you !== s.turn || s.status.outcome !== 'ongoing' || this.pending) return;
    this.pending = { ply: s.moves.length, move: iccs, sentAt: Date.now() };
    this.send({ type: 'move', ply: this.pending.ply, move: iccs });
    this.say('');
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
    const moves = view.moves.slice(0, pending.ply).concat([{ iccs: pending.move }]);
    this.view = { ...view, board, last: pending.move, check: false, legal: [], moves, ply: pending.ply + 1, plies: pending.ply + 1 };
    this.render();
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
  }

  renderBoard() {
    const view = this.view;
    const s = this.state;
    if (!view) return;
    const flipped = this.flippedNow();
    this.board.setFlipped(flipped);
    const myTurn = s.you && s.you === s.turn && s.status.outcome === 'ongoing' && !this.pending;
    this.board.interactive = Boolean(myTurn);
    let check = null;
    if (view.check) {
      const king = view.turn === 'red' ? 'K' : 'k';
      check = Object.keys(view.board).find((sq) => view.board[sq] === king) || null;
    }
    this.board.setPosition({ pieces: view.board, legal: myTurn ? view.legal : [], last: view.last, checkSquare: check });
    const node = $('board');
    node.dataset.fen = view.fen;
    node.dataset.ply = String(view.ply);
    node.dataset.plies = String(view.plies);
    node.dataset.flipped = String(flipped);
    node.dataset.you = s.you || '';
    node.dataset.pending = this.pending ? 'true' : 'false';
    node.dataset.ready = 'true';
  }

  renderStatus() {
    const s = this.state;
    const st = s.status;
    if (st.outcome !== 'ongoing') {
      const reason = st.reason ? t(`reason.${st.reason.replace(/ /g, '_')}`) : '';
      const winner = st.outcome === 'red wins' ? 'red' : st.outcome === 'black wins' ? 'black' : 'draw';
      this.status.textContent = t(`end.${winner}`) + (reason ? ` — ${reason}` : '');
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
  }

  renderOffers() {
    const s = this.state;
    const over = s.status.outcome !== 'ongoing';
    const seated = Boolean(s.you);
    const them = s.you === 'red' ? 'black' : 'red';
    this.actions.hidden = !seated;
    $('online-resign').disabled = over;
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
    this.share.hidden = !over;
    if (over) this.share.replaceChildren(linkRow('online.share', `${location.origin}${s.link}`, 'online-share-link'));
  }

  renderMoves() {
    const view = this.view;
    if (!view) return;
    const list = this.movesList;
    list.replaceChildren();
    const [, side, , , , full] = view.start_fen.split(' ');
    let number = Number(full) || 1;
    let item = null;
    view.moves.forEach((m, i) => {
      const red = (i + (side === 'b' ? 1 : 0)) % 2 === 0;
      if (red || !item) {
        item = el('li', {}, el('span', { class: 'num', text: `${number}.` }));
        if (!red) item.append(el('span', { class: 'move-gap', text: '…' }));
        list.append(item);
      }
      const pending = this.pending && i === this.pending.ply;
      item.append(el('span', { class: `move${pending ? ' pending' : ''}`, 'data-ply': String(i + 1), text: m[this.notation] ?? m.iccs }));
      if (!red) {
        item = null;
        number += 1;
      }
    });
    list.scrollTop = list.scrollHeight;
  }

  renderClocks() {
    const s = this.state;
    const bottomColour = this.flippedNow() ? 'black' : 'red';
    const topColour = bottomColour === 'red' ? 'black' : 'red';
    if (!s || !s.clock) {
      this.clockTop.hidden = this.clockBottom.hidden = true;
      return;
    }
    const elapsed = performance.now() - this.receivedAt;
    const left = (c) => Math.max(0, s.clock[`${c}_ms`] - (s.clock.running === c ? elapsed : 0));
    const format = (ms) => {
      const total = Math.ceil(ms / 1000);
      const m = Math.floor(total / 60);
      const sec = String(total % 60).padStart(2, '0');
      return ms < 10000 ? `${m}:${sec}.${Math.floor((ms % 1000) / 100)}` : `${m}:${sec}`;
    };
    for (const [node, c] of [[this.clockTop, topColour], [this.clockBottom, bottomColour]]) {
      node.hidden = false;
      node.dataset.colour = c;
      node.classList.toggle('running', s.clock.running === c);
      node.classList.toggle('low', left(c) < 10000);
      node.textContent = `${t(`online.${c}`)} ${format(left(c))}`;
    }
  }
}

// ---------------------------------------------------------------- start

function addStyles() {
  if (document.querySelector('link[href="/assets/online.css"]')) return;
  document.head.append(el('link', { rel: 'stylesheet', href: '/assets/online.css' }));
}

addStyles();
if (params.has('room')) {
  window.qiRoom = new RoomPage(params.get('room'), params.get('seat') || null);
} else {
  const dialog = friendDialog();
  addFriendButton().addEventListener('click', () => dialog.showModal());
}
