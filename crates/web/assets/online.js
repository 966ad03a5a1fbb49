// Online play, shared parts: the texts, small DOM helpers, and the "Play a friend" dialog on
// /xq. The room itself has its own page (room.html + room.js, served at /xq?room=ID).

import { $, htmlEl as el, copyText } from './dom.js';
import { api } from './api.js';
import { t, addText, applyText } from './i18n.js';
import { qrSvg } from './qr.js';

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
    // Round 3 (issue 23)
    'online.roomTitle': 'Xiangqi online', 'online.aborted': 'Game aborted', 'reason.aborted': 'no result',
    'online.abort': 'Abort the game', 'online.abortIn': '{side} must make a first move within {s} s, or the game is aborted.',
    'online.viewing': 'Move {ply} of {plies}', 'online.backToGame': 'Back to the game', 'online.mute': 'Mute sounds',
    'online.first': 'First move', 'online.prev': 'Previous move', 'online.next': 'Next move', 'online.last': 'Last move',
    'online.declinedDraw': 'Your opponent declined the draw.', 'online.declinedTakeback': 'Your opponent declined the takeback.',
    'online.analyse': 'Analyse the game', 'online.pgn': 'Download the PGN', 'online.over': 'Game over',
    'online.opponentGone': 'Your opponent left. You may claim the game in {s} s.', 'online.claimNow': 'Your opponent left.',
    'online.claimWin': 'Claim the win', 'online.claimDraw': 'Call it a draw', 'reason.abandonment': 'the opponent left',
    'lobby.title': 'Play someone', 'lobby.quick': 'Quick pairing: pick a time control.', 'lobby.seek': 'Post a seek',
    'lobby.name': 'optional', 'lobby.nameLabel': 'Name', 'lobby.open': 'Open seeks', 'lobby.none': 'No open seeks yet.',
    'lobby.accept': 'Play', 'lobby.cancel': 'Cancel', 'lobby.waiting': 'Waiting for an opponent…',
    'online.chat': 'Chat', 'online.hideChat': 'Hide the chat', 'online.chatPlaceholder': 'Say something to your opponent',
    'online.send': 'Send', 'online.chatReadOnly': 'Spectators read the chat; only the players write in it.',
    'online.premove': 'Premove {move}: played as soon as your opponent has moved (click the board, right-click or press Esc to cancel).',
    'online.premoveDropped': 'Premove {move} was not legal after your opponent’s move: dropped.',
    'online.name': 'Your name (optional)', 'online.setName': 'Set',
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
    // Round 3 (issue 23)
    'online.roomTitle': '在线象棋', 'online.aborted': '对局取消', 'reason.aborted': '不计结果',
    'online.abort': '取消对局', 'online.abortIn': '{side}须在 {s} 秒内走第一步，否则对局取消。',
    'online.viewing': '第 {ply} 步，共 {plies} 步', 'online.backToGame': '回到对局', 'online.mute': '静音',
    'online.first': '第一步', 'online.prev': '上一步', 'online.next': '下一步', 'online.last': '最后一步',
    'online.declinedDraw': '对手拒绝了和棋。', 'online.declinedTakeback': '对手拒绝了悔棋。',
    'online.analyse': '分析这盘棋', 'online.pgn': '下载 PGN', 'online.over': '对局结束',
    'online.opponentGone': '对手已离开。{s} 秒后你可以结束对局。', 'online.claimNow': '对手已离开。',
    'online.claimWin': '判我胜', 'online.claimDraw': '判和', 'reason.abandonment': '对手离开',
    'lobby.title': '找人下棋', 'lobby.quick': '快速配对：选择用时。', 'lobby.seek': '发布邀请',
    'lobby.name': '可不填', 'lobby.nameLabel': '名字', 'lobby.open': '等待中的邀请', 'lobby.none': '暂时没有邀请。',
    'lobby.accept': '应战', 'lobby.cancel': '取消', 'lobby.waiting': '等待对手…',
    'online.chat': '聊天', 'online.hideChat': '隐藏聊天', 'online.chatPlaceholder': '和对手说点什么',
    'online.send': '发送', 'online.chatReadOnly': '观战者只能看聊天，不能发言。',
    'online.premove': '预走 {move}：对手走后立即走出（点击棋盘、右键或按 Esc 取消）。',
    'online.premoveDropped': '对手走后预走 {move} 不合法，已取消。',
    'online.name': '我的名字（可不填）', 'online.setName': '确定',
  },
});

async function copy(input, say) {
  await copyText(input.value, input);
  say(t('online.copied'));
}

export { el };

// The name a player gave (the room page sends it for their seat; the lobby shows it with seeks).
export function playerName() {
  return localStorage.getItem('qi-player-name') ?? localStorage.getItem('qi-lobby-name') ?? '';
}

export function setPlayerName(name) {
  localStorage.setItem('qi-player-name', name.trim().slice(0, 24));
}

// A link to hand on: the link, a copy button, and the link as a QR code for a phone camera.
export function linkRow(labelKey, value, id) {
  const input = el('input', { readonly: '', id, 'aria-label': t(labelKey) });
  input.value = value;
  const note = el('span', { class: 'online-note' });
  const qr = el('div', { class: 'qr', id: `${id}-qr` }, qrSvg(value, t(labelKey)));
  return el('div', { class: 'online-link' },
    el('label', { for: id, 'data-i18n': labelKey, text: t(labelKey) }),
    el('div', { class: 'row' }, input,
      el('button', { type: 'button', 'data-i18n': 'online.copy', text: t('online.copy'), onclick: () => copy(input, (m) => { note.textContent = m; }) })),
    note,
    el('details', { class: 'share-more' }, el('summary', { 'data-i18n': 'share.qr', text: t('share.qr') }), qr));
}

// ---------------------------------------------------------------- the "Play a friend" dialog

// Time controls offered at one click: minutes + seconds per move.
export const PRESETS = [[1, 0], [3, 2], [5, 3], [10, 5], [15, 10], [30, 0]];

function friendDialog() {
  const dialog = el('dialog', { id: 'friend-dialog', class: 'online-dialog' });
  const colour = el('select', { id: 'friend-colour' },
    ...['red', 'black', 'random'].map((c) => el('option', { value: c, 'data-i18n': `online.${c}`, text: t(`online.${c}`) })));
  const clockOn = el('input', { type: 'checkbox', id: 'friend-clock', checked: '' });
  const minutes = el('input', { type: 'number', id: 'friend-minutes', min: '1', max: '180', value: '10' });
  const increment = el('input', { type: 'number', id: 'friend-increment', min: '0', max: '180', value: '5' });
  const fromHere = el('input', { type: 'checkbox', id: 'friend-from-here' });
  const name = el('input', { id: 'friend-name', maxlength: '24', autocomplete: 'nickname' });
  name.value = playerName();
  const presets = el('div', { class: 'buttons online-presets', id: 'friend-presets' },
    ...PRESETS.map(([m, i]) => el('button', {
      type: 'button', 'data-preset': `${m}+${i}`, text: `${m}+${i}`,
      onclick: () => { clockOn.checked = true; minutes.value = String(m); increment.value = String(i); },
    })));
  const error = el('p', { class: 'error', role: 'alert' });
  const form = el('form', { method: 'dialog' },
    el('h2', { 'data-i18n': 'online.title', text: t('online.title') }),
    el('label', {}, el('span', { 'data-i18n': 'online.colour', text: t('online.colour') }), ' ', colour),
    el('label', {}, clockOn, ' ', el('span', { 'data-i18n': 'online.clock', text: t('online.clock') }), ' ', minutes, ' ',
      el('span', { 'data-i18n': 'online.minutes', text: t('online.minutes') }), ' + ', increment, ' ',
      el('span', { 'data-i18n': 'online.increment', text: t('online.increment') })),
    presets,
    el('label', {}, fromHere, ' ', el('span', { 'data-i18n': 'online.fromHere', text: t('online.fromHere') })),
    el('label', {}, el('span', { 'data-i18n': 'online.name', text: t('online.name') }), ' ', name),
    error,
    el('div', { class: 'buttons' },
      el('button', { type: 'submit', id: 'friend-create', value: 'create', 'data-i18n': 'online.create', text: t('online.create') }),
      el('button', { type: 'button', 'data-i18n': 'online.cancel', text: t('online.cancel'), onclick: () => dialog.close() })));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    error.textContent = '';
    setPlayerName(name.value);
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

// ---------------------------------------------------------------- the lobby ("Play someone")

// The lobby's WebSocket (/api/lobby/ws): open seeks live, a seek of one's own, quick pairing.
// A seek lives as long as this page's socket; a pairing sends both players to their seat.
function lobbyDialog() {
  const dialog = el('dialog', { id: 'lobby-dialog', class: 'online-dialog' });
  const status = el('p', { id: 'lobby-status', class: 'online-note', 'aria-live': 'polite' });
  const error = el('p', { class: 'error', id: 'lobby-error', role: 'alert' });
  const list = el('ul', { id: 'lobby-seeks', class: 'lobby-seeks' });
  const clock = el('select', { id: 'lobby-clock' },
    ...PRESETS.map(([m, i]) => el('option', { value: `${m}+${i}`, text: `${m}+${i}` })),
    el('option', { value: 'none', 'data-i18n': 'online.noClock', text: t('online.noClock') }));
  clock.value = '5+3';
  const colour = el('select', { id: 'lobby-colour' },
    ...['random', 'red', 'black'].map((c) => el('option', { value: c, 'data-i18n': `online.${c}`, text: t(`online.${c}`) })));
  const name = el('input', { id: 'lobby-name', maxlength: '24', 'data-i18n-placeholder': 'lobby.name', placeholder: t('lobby.name') });
  name.value = playerName();
  const mine = new Set();
  let socket = null;
  let seeks = [];
  const clockOf = (value) => {
    if (value === 'none') return null;
    const [m, i] = value.split('+').map(Number);
    return { initial_s: m * 60, increment_s: i };
  };
  const clockText = (c) => (c ? `${c.initial_s / 60}+${c.increment_s}` : t('online.noClock'));
  const send = (msg) => {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(msg));
  };
  const nameValue = () => {
    setPlayerName(name.value);
    return name.value.trim() || undefined;
  };
  const render = () => {
    list.replaceChildren(...seeks.map((s) => {
      const own = mine.has(s.id);
      const label = el('span', { class: 'seek-text' });
      label.textContent = `${clockText(s.clock)} · ${t(`online.${s.colour}`)}${s.name ? ` · ${s.name}` : ''}`;
      const action = own
        ? el('button', { type: 'button', class: 'seek-cancel', 'data-i18n': 'lobby.cancel', text: t('lobby.cancel'), onclick: () => { mine.delete(s.id); send({ type: 'cancel', id: s.id }); } })
        : el('button', { type: 'button', class: 'seek-accept', 'data-i18n': 'lobby.accept', text: t('lobby.accept'), onclick: () => send({ type: 'accept', id: s.id }) });
      return el('li', { class: `seek${own ? ' mine' : ''}`, 'data-id': s.id }, label, ' ', action);
    }));
    if (!seeks.length) list.append(el('li', { class: 'online-note', 'data-i18n': 'lobby.none', text: t('lobby.none') }));
    status.textContent = [...mine].some((id) => seeks.some((s) => s.id === id)) ? t('lobby.waiting') : '';
  };
  const open = () => {
    if (socket) return;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    socket = new WebSocket(`${scheme}://${location.host}/api/lobby/ws`);
    socket.addEventListener('message', (e) => {
      const msg = JSON.parse(e.data);
      if (msg.type === 'seeks') {
        seeks = msg.seeks;
        render();
      } else if (msg.type === 'seeking') {
        mine.add(msg.id);
        render();
      } else if (msg.type === 'paired') {
        location.href = msg.link;
      } else if (msg.type === 'error') {
        error.textContent = msg.error;
      }
    });
    socket.addEventListener('close', () => {
      socket = null;
      mine.clear();
      if (dialog.open) setTimeout(open, 1000);
    });
    const ping = setInterval(() => (socket ? send({ type: 'ping' }) : clearInterval(ping)), 10000);
  };
  const quick = el('div', { class: 'buttons', id: 'lobby-quick' },
    ...PRESETS.map(([m, i]) => el('button', {
      type: 'button', 'data-preset': `${m}+${i}`, text: `${m}+${i}`,
      onclick: () => { error.textContent = ''; send({ type: 'quick', clock: clockOf(`${m}+${i}`), name: nameValue() }); },
    })));
  dialog.append(
    el('h2', { 'data-i18n': 'lobby.title', text: t('lobby.title') }),
    el('p', { class: 'online-note', 'data-i18n': 'lobby.quick', text: t('lobby.quick') }), quick,
    el('div', { class: 'lobby-form' },
      el('label', {}, el('span', { 'data-i18n': 'online.clock', text: t('online.clock') }), ' ', clock), ' ',
      el('label', {}, el('span', { 'data-i18n': 'online.colour', text: t('online.colour') }), ' ', colour), ' ',
      el('label', {}, el('span', { 'data-i18n': 'lobby.nameLabel', text: t('lobby.nameLabel') }), ' ', name), ' ',
      el('button', { type: 'button', id: 'lobby-seek', 'data-i18n': 'lobby.seek', text: t('lobby.seek'), onclick: () => {
        error.textContent = '';
        send({ type: 'seek', clock: clockOf(clock.value), colour: colour.value, name: nameValue() });
      } })),
    status, error,
    el('h3', { 'data-i18n': 'lobby.open', text: t('lobby.open') }), list,
    el('div', { class: 'buttons' }, el('button', { type: 'button', id: 'lobby-close', 'data-i18n': 'online.cancel', text: t('online.cancel'), onclick: () => dialog.close() })));
  // Leaving the lobby takes one's seeks with it.
  dialog.addEventListener('close', () => { if (socket) socket.close(); });
  document.body.append(dialog);
  return { dialog, open };
}

// ---------------------------------------------------------------- start

function addStyles() {
  // By its hashed address, which the page's import map knows (cached for ever).
  const href = import.meta.resolve('./online.css');
  if ([...document.styleSheets].some((sheet) => sheet.href === href)) return;
  document.head.append(el('link', { rel: 'stylesheet', href }));
}

// On a page with a "Play someone" button (home, /xq): the lobby behind it.
if (document.getElementById('play-someone')) {
  addStyles();
  applyText(document.getElementById('play-someone').parentNode);
  const lobby = lobbyDialog();
  document.getElementById('play-someone').addEventListener('click', () => {
    lobby.dialog.showModal();
    lobby.open();
  });
}

// On a page with a "Play a friend" button (/xq): the dialog behind it.
if (document.getElementById('play-friend')) {
  addStyles();
  applyText(document.getElementById('play-friend').parentNode);
  const dialog = friendDialog();
  addFriendButton().addEventListener('click', () => dialog.showModal());
}
