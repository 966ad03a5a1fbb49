// @ts-check
// The room page's DOM: built once (board, clocks, replay buttons, panel, links), then drawn
// from the controller's state: board, status and players, offers, the game-over panel, the
// move list, the countdowns and the tab's title.

import { XiangqiBoard } from '../board.js';
import { $, htmlEl as el } from '../dom.js';
import { t, applyText } from '../i18n.js';
import * as sound from '../sound.js';
import * as vibration from '../vibration.js';
import { linkRow, setPlayerName } from '../online.js';
import { renderClocks } from './clock.js';

/** @typedef {import('./controller.js').Room} Room */

/**
 * The page's parts, in <main>; returns the nodes the drawing needs.
 * @param {Room} room
 */
export function build(room) {
  const main = /** @type {HTMLElement} */ (document.querySelector('main'));
  const boardNode = el('div', { id: 'board', 'data-ready': 'false', 'data-plies': '0', 'data-viewing': 'false' });
  const clockTop = el('div', { class: 'online-clock', id: 'clock-top' });
  const clockBottom = el('div', { class: 'online-clock', id: 'clock-bottom' });
  /** @type {(id: string, key: string, fn: () => void) => any} */
  const button = (id, key, fn) => el('button', { type: 'button', id, 'data-i18n': key, text: t(key), onclick: fn });
  /** @type {(id: string, key: string, glyph: string, fn: () => void) => any} */
  const icon = (id, key, glyph, fn) => el('button', { type: 'button', id, 'data-i18n-title': key, title: t(key), 'aria-label': t(key), text: glyph, onclick: fn });
  const replay = el('div', { class: 'buttons replay', id: 'online-replay' },
    // The board page's glyphs: ⏮ and ⏭ are missing from common fonts (they drew as empty boxes).
    icon('replay-first', 'online.first', '|◀', () => room.goTo(0)),
    icon('replay-prev', 'online.prev', '◀', () => room.step(-1)),
    icon('replay-next', 'online.next', '▶', () => room.step(1)),
    icon('replay-last', 'online.last', '▶|', () => room.goLive()));
  const viewing = el('p', { id: 'online-viewing', hidden: '' });
  const boardWrap = el('section', { class: 'board-wrap' }, clockTop, boardNode, clockBottom, replay, viewing);
  const conn = el('p', { id: 'online-conn', 'data-state': 'connecting', 'aria-live': 'polite' });
  const status = el('p', { id: 'status', 'aria-live': 'polite' });
  const message = el('p', { id: 'message', role: 'alert' });
  const players = el('p', { id: 'online-players' });
  // A seat's name: optional, shown to everyone and written in the PGN.
  const nameInput = el('input', { id: 'online-name', maxlength: '24', autocomplete: 'nickname', 'data-i18n-placeholder': 'online.name', placeholder: t('online.name'), 'aria-label': t('online.name') });
  const nameForm = el('form', { id: 'online-name-form', class: 'row', hidden: '' }, nameInput,
    el('button', { type: 'submit', id: 'online-name-set', 'data-i18n': 'online.setName', text: t('online.setName') }));
  nameForm.addEventListener('submit', (/** @type {Event} */ e) => {
    e.preventDefault();
    setPlayerName(nameInput.value);
    room.send({ type: 'name', name: nameInput.value });
  });
  // A player lists the game in the lobby's "Games being played" (lobby games start listed).
  const publicBox = el('input', { type: 'checkbox', id: 'online-public' });
  publicBox.addEventListener('change', () => room.send({ type: 'public', public: publicBox.checked }));
  const publicLabel = el('label', { class: 'online-mute', id: 'online-public-label', hidden: '' }, publicBox, ' ',
    el('span', { 'data-i18n': 'online.public', text: t('online.public') }));
  const abortNote = el('p', { id: 'online-abort-note', class: 'online-note', hidden: '' });
  const goneNote = el('div', { id: 'online-gone', hidden: '' });
  const offers = el('div', { id: 'online-offers', class: 'buttons' });
  const notice = el('p', { id: 'online-notice', class: 'online-note', 'aria-live': 'polite' });
  const premoveNote = el('p', { id: 'online-premove', class: 'online-note', hidden: '' });
  const actions = el('div', { class: 'buttons', id: 'online-actions' },
    button('online-resign', 'online.resign', () => { if (confirm(t('online.confirmResign'))) room.send({ type: 'resign' }); }),
    button('online-draw', 'online.offerDraw', () => room.send({ type: 'draw', action: 'offer' })),
    button('online-takeback', 'online.takeback', () => room.send({ type: 'takeback', action: 'request' })),
    button('online-abort', 'online.abort', () => room.send({ type: 'abort' })),
    button('online-rematch', 'online.rematch', () => room.send({ type: 'rematch' })),
    button('online-flip', 'online.flip', () => { room.flipped = !room.flippedNow(); room.renderBoard(); }));
  const notation = el('select', { id: 'notation' },
    ...['chinese', 'traditional', 'vietnamese', 'wxf', 'iccs'].map((n) => el('option', { value: n, 'data-i18n': `notation.${n}`, text: t(`notation.${n}`) })));
  notation.value = room.notation;
  notation.addEventListener('change', () => {
    room.notation = notation.value;
    localStorage.setItem('qi-notation', room.notation);
    renderMoves(room);
  });
  const mute = el('input', { type: 'checkbox', id: 'mute' });
  mute.checked = sound.isMuted();
  mute.addEventListener('change', () => sound.setMuted(mute.checked));
  const vibrate = el('input', { type: 'checkbox', id: 'vibrate' });
  vibrate.checked = vibration.isOn();
  vibrate.addEventListener('change', () => vibration.setOn(vibrate.checked));
  const vibrateLabel = el('label', { class: 'online-mute' }, vibrate, ' ', el('span', { 'data-i18n': 'label.vibrate', text: t('label.vibrate') }));
  vibrateLabel.hidden = !vibration.available();
  const movesList = el('ol', { id: 'moves' });
  movesList.addEventListener('click', (/** @type {Event} */ e) => {
    const node = /** @type {HTMLElement} */ (e.target).closest('.move');
    if (node instanceof HTMLElement) room.goTo(Number(node.dataset.ply));
  });
  const links = el('section', { id: 'online-links' });
  const over = el('section', { id: 'online-over', hidden: '' });
  const panel = el('aside', { class: 'panel' }, conn, status, message, players, nameForm, publicLabel, abortNote,
    goneNote, offers, notice, premoveNote, actions, over,
    el('div', { class: 'moves-head' }, el('h2', { 'data-i18n': 'label.moves', text: t('label.moves') }),
      el('label', {}, el('span', { 'data-i18n': 'label.notation', text: t('label.notation') }), ' ', notation)),
    movesList,
    el('label', { class: 'online-mute' }, mute, ' ', el('span', { 'data-i18n': 'online.mute', text: t('online.mute') })),
    vibrateLabel,
    room.chat.section);
  // The links first: on a phone the invite is above the fold.
  main.replaceChildren(links, boardWrap, panel);
  const board = new XiangqiBoard(boardNode, {
    onMove: (/** @type {string} */ iccs) => (room.view && room.state && room.view.turn !== room.state.you ? room.premove.set(iccs) : room.play(iccs)),
    onIllegal: (/** @type {string} */ iccs) => room.say(t('msg.illegal', { move: iccs }), 'error'),
  });
  board.interactive = false;
  const saved = JSON.parse(localStorage.getItem(`qi-room-${room.roomId}`) || 'null');
  const watch = `${location.origin}/xq?room=${room.roomId}`;
  if (saved && saved.invite && room.seatToken) links.append(linkRow('online.invite', saved.invite, 'online-invite'));
  links.append(linkRow('online.watch', saved && saved.watch ? saved.watch : watch, 'online-watch'));
  return { board, clockTop, clockBottom, viewing, conn, status, message, players, nameForm, publicBox, publicLabel, abortNote, goneNote, offers, notice, actions, movesList, over };
}

/** @typedef {Omit<ReturnType<typeof build>, 'board'>} Nodes */

/**
 * Everything, from the state and the view.
 * @param {Room} room
 */
export function render(room) {
  if (!room.state || !room.view) return;
  applyText(/** @type {HTMLElement} */ (document.querySelector('main')));
  renderBoard(room);
  renderStatus(room);
  renderMoves(room);
  renderClocks(room);
  renderCountdowns(room);
  renderTitle(room);
}

/** @param {Room} room */
export function renderBoard(room) {
  const live = room.view;
  const s = room.state;
  if (!live) return;
  const board = room.board;
  const viewing = room.viewPly !== null && room.past;
  const view = viewing ? room.past : live;
  const flipped = room.flippedNow();
  board.setFlipped(flipped);
  const myTurn = !viewing && s.you && s.you === s.turn && s.status.outcome === 'ongoing' && !room.pending;
  // The opponent to move (the view may hold one's own pending move): a premove may be queued.
  const theirTurn = !viewing && s.you && live.turn !== s.you && s.status.outcome === 'ongoing' && live.fen;
  const premoving = Boolean(theirTurn && room.premove.ready(live.fen) && !room.premove.move);
  board.interactive = Boolean(myTurn || premoving);
  let check = null;
  if (view.check) {
    const king = view.turn === 'red' ? 'K' : 'k';
    check = Object.keys(view.board).find((sq) => view.board[sq] === king) || null;
  }
  const legal = myTurn ? view.legal : premoving ? room.premove.targets : [];
  board.setPosition({ pieces: view.board, legal, last: view.last, checkSquare: check });
  room.premove.render();
  const node = $('board');
  node.dataset.fen = view.fen;
  node.dataset.ply = String(viewing ? room.viewPly : live.ply);
  node.dataset.plies = String(live.plies);
  node.dataset.viewing = String(Boolean(viewing));
  node.dataset.flipped = String(flipped);
  node.dataset.you = s.you || '';
  node.dataset.pending = room.pending ? 'true' : 'false';
  node.dataset.premoving = String(premoving);
  node.dataset.ready = 'true';
  const note = room.ui.viewing;
  note.hidden = !viewing;
  if (viewing) {
    note.replaceChildren(t('online.viewing', { ply: room.viewPly, plies: live.plies }), ' ',
      el('button', { type: 'button', id: 'replay-live', 'data-i18n': 'online.backToGame', text: t('online.backToGame'), onclick: () => room.goLive() }));
  }
  $('replay-first').disabled = $('replay-prev').disabled = (viewing ? room.viewPly : live.plies) === 0;
  $('replay-next').disabled = $('replay-last').disabled = !viewing;
}

/**
 * How the game ended, in words.
 * @param {any} state the server's state
 */
export function endText(state) {
  const st = state.status;
  if (st.outcome === 'aborted') return t('online.aborted');
  const reason = st.reason ? t(`reason.${st.reason.replace(/ /g, '_')}`) : '';
  const winner = st.outcome === 'red wins' ? 'red' : st.outcome === 'black wins' ? 'black' : 'draw';
  return t(`end.${winner}`) + (reason ? ` — ${reason}` : '');
}

/** @param {Room} room */
function renderStatus(room) {
  const s = room.state;
  const st = s.status;
  const status = room.ui.status;
  if (st.outcome !== 'ongoing') {
    status.textContent = endText(s);
    status.className = 'over';
  } else if (s.you) {
    status.textContent = t(s.you === s.turn ? 'online.yourTurn' : 'online.theirTurn') + (room.pending ? ` (${t('online.pending')})` : '');
    status.className = room.view && room.view.check ? 'check' : '';
  } else {
    status.textContent = t(s.turn === 'red' ? 'online.redTurn' : 'online.blackTurn');
    status.className = '';
  }
  status.dataset.outcome = st.outcome;
  const p = s.players;
  // Until the opponent comes, the invitation is the page's first thing; then the board is.
  const them = s.you === 'red' ? 'black' : 'red';
  document.body.classList.toggle('room-waiting', Boolean(s.you) && s.moves.length === 0 && st.outcome === 'ongoing' && !p[them].connected);
  /** @param {string} c */
  const named = (c) => (s.names && s.names[c] ? `${t(`online.${c}`)} ${s.names[c]}` : t(`online.${c}`));
  /** @param {string} c */
  const who = (c) => `${named(c)}${s.you === c ? ` (${t('online.you')})` : ''}: ${t(p[c].connected ? 'online.online' : 'online.offline')}`;
  room.ui.players.replaceChildren(
    el('span', { class: `online-player ${p.red.connected ? 'on' : 'off'}`, id: 'player-red' }, who('red')), ' · ',
    el('span', { class: `online-player ${p.black.connected ? 'on' : 'off'}`, id: 'player-black' }, who('black')),
    p.watchers ? ` · ${t('online.spectators', { n: p.watchers })}` : '',
    s.you ? '' : ` · ${t('online.watching')}`);
  renderOffers(room);
  renderOver(room);
}

/** @param {Room} room */
function renderOffers(room) {
  const s = room.state;
  const over = s.status.outcome !== 'ongoing';
  const seated = Boolean(s.you);
  const them = s.you === 'red' ? 'black' : 'red';
  room.ui.actions.hidden = !seated;
  $('online-resign').disabled = over;
  $('online-resign').hidden = s.abort_in_ms != null;
  $('online-abort').hidden = over || s.abort_in_ms == null;
  $('online-draw').disabled = over || s.offers.draw === s.you;
  $('online-takeback').disabled = over || s.offers.takeback === s.you || s.moves.length === 0;
  $('online-rematch').hidden = !over;
  $('online-rematch').disabled = s.offers.rematch === s.you;
  /** @type {(id: string, key: string, msg: object) => any} */
  const button = (id, key, msg) => el('button', { type: 'button', id, 'data-i18n': key, text: t(key), onclick: () => room.send(msg) });
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
  room.ui.offers.replaceChildren(...rows);
}

/**
 * The game-over panel: how it ended, rematch, analysis, the share link and the PGN.
 * @param {Room} room
 */
function renderOver(room) {
  const s = room.state;
  const over = s.status.outcome !== 'ongoing';
  const panel = room.ui.over;
  panel.hidden = !over;
  if (!over) return;
  const key = `${s.v}:${s.offers.rematch}`;
  if (room.overKey === key) return;
  room.overKey = key;
  const link = `${location.origin}${s.link}`;
  const rematch = s.you
    ? el('button', { type: 'button', id: 'over-rematch', 'data-i18n': 'online.rematch', text: t('online.rematch'), onclick: () => room.send({ type: 'rematch' }) })
    : '';
  if (rematch && s.offers.rematch === s.you) rematch.disabled = true;
  panel.replaceChildren(
    el('h2', { 'data-i18n': 'online.over', text: t('online.over') }),
    el('p', { id: 'over-result', text: endText(s) }),
    el('div', { class: 'buttons' }, rematch,
      el('a', { class: 'button', id: 'over-analyse', href: `${s.link}${s.link.includes('?') ? '&' : '?'}analyse=1`, 'data-i18n': 'online.analyse', text: t('online.analyse') }),
      el('a', { class: 'button', id: 'over-pgn', href: `/api/rooms/${encodeURIComponent(s.room)}/pgn`, download: `${s.room}.pgn`, 'data-i18n': 'online.pgn', text: t('online.pgn') })),
    linkRow('online.share', link, 'online-share-link'));
}

/** @param {Room} room */
export function renderMoves(room) {
  const view = room.view;
  if (!view) return;
  const list = room.ui.movesList;
  list.replaceChildren();
  const [, side, , , , full] = view.start_fen.split(' ');
  let number = Number(full) || 1;
  let item = null;
  const shown = room.viewPly ?? view.plies;
  view.moves.forEach((/** @type {any} */ m, /** @type {number} */ i) => {
    const red = (i + (side === 'b' ? 1 : 0)) % 2 === 0;
    if (red || !item) {
      item = el('li', {}, el('span', { class: 'num', text: `${number}.` }));
      if (!red) item.append(el('span', { class: 'move-gap', text: '…' }));
      list.append(item);
    }
    const pending = room.pending && i === room.pending.ply;
    const classes = `move${pending ? ' pending' : ''}${i + 1 === shown ? ' current' : ''}`;
    item.append(el('span', { class: classes, 'data-ply': String(i + 1), role: 'button', tabindex: '0', text: m[room.notation] ?? m.iccs }));
    if (!red) {
      item = null;
      number += 1;
    }
  });
  if (room.viewPly === null) list.scrollTop = list.scrollHeight;
}

/**
 * The first-move countdown (a game nobody started is aborted) and the opponent-gone one.
 * @param {Room} room
 */
export function renderCountdowns(room) {
  const s = room.state;
  if (!s) return;
  const { abortNote, goneNote } = room.ui;
  const elapsed = performance.now() - room.receivedAt;
  const abortIn = s.abort_in_ms == null || s.status.outcome !== 'ongoing' ? null : Math.max(0, s.abort_in_ms - elapsed);
  abortNote.hidden = abortIn === null;
  if (abortIn !== null) {
    const side = s.you === s.turn ? t('online.you') : t(`online.${s.turn}`);
    abortNote.textContent = t('online.abortIn', { side, s: Math.ceil(abortIn / 1000) });
  }
  const claimIn = s.claim_in_ms == null || s.status.outcome !== 'ongoing' || !s.you ? null : Math.max(0, s.claim_in_ms - elapsed);
  goneNote.hidden = claimIn === null;
  if (claimIn === null) {
    room.goneKey = null;
    return;
  }
  const ready = claimIn <= 0;
  if (ready && room.goneKey === 'ready') return;
  if (ready) {
    room.goneKey = 'ready';
    /** @type {(result: string, id: string, key: string) => any} */
    const claim = (result, id, key) => el('button', { type: 'button', id, 'data-i18n': key, text: t(key), onclick: () => room.send({ type: 'claim', result }) });
    goneNote.replaceChildren(el('p', { text: t('online.claimNow') }),
      el('div', { class: 'buttons' }, claim('win', 'claim-win', 'online.claimWin'), claim('draw', 'claim-draw', 'online.claimDraw')));
  } else {
    room.goneKey = 'waiting';
    goneNote.replaceChildren(el('p', { id: 'gone-countdown', text: t('online.opponentGone', { s: Math.ceil(claimIn / 1000) }) }));
  }
}

/**
 * In a background tab the title says whose move it is.
 * @param {Room} room
 */
export function renderTitle(room) {
  const s = room.state;
  if (!s) return;
  if (document.hidden && s.status.outcome === 'ongoing') {
    const key = s.you ? (s.you === s.turn ? 'online.yourTurn' : 'online.theirTurn') : s.turn === 'red' ? 'online.redTurn' : 'online.blackTurn';
    document.title = `${t(key)} · ${t('nav.home')}`;
  } else if (document.hidden) {
    document.title = `${endText(s)} · ${t('nav.home')}`;
  } else {
    document.title = `${t('online.roomTitle')} · ${t('nav.home')}`;
  }
}
