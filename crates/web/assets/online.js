// Online play, shared parts (its words are in lang/): small DOM helpers, and the "Play a
// friend" dialog on /xq. The room itself has its own page (room.html + room.js, served at /xq?room=ID).

import { $, htmlEl as el, copyText } from './dom.js';
import { api } from './api.js';
import { t, applyText } from './i18n.js';

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
  const qr = el('div', { class: 'qr', id: `${id}-qr` });
  // The QR encoder is loaded when a link is first shown: it is not part of a page's first load.
  import('./qr.js').then(({ qrSvg }) => qr.append(qrSvg(value, t(labelKey))));
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
  // One way to pick the clock (it was a menu beside a row of buttons that paired at once): the
  // buttons choose, and both "Play now" and "Post a seek" use the one chosen.
  let picked = '5+3';
  const pick = (/** @type {string} */ value) => {
    picked = value;
    for (const b of quick.querySelectorAll('button')) b.setAttribute('aria-pressed', String(b.dataset.preset === value));
  };
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
  // "Games being played", loaded with the lobby's first opening.
  let games;
  const open = () => {
    games ||= import('./live-games.js').then((m) => {
      const g = m.gamesList();
      list.after(g.section);
      return g;
    });
    if (socket) return;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    socket = new WebSocket(`${scheme}://${location.host}/api/lobby/ws`);
    socket.addEventListener('message', (e) => {
      const msg = JSON.parse(e.data);
      if (msg.type === 'seeks') {
        seeks = msg.seeks;
        render();
      } else if (msg.type === 'games') {
        games.then((g) => {
          g.show(msg.games);
          dialog.dispatchEvent(new CustomEvent('games', { detail: msg.games.length }));
        });
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
  const quick = el('div', { class: 'buttons online-presets', id: 'lobby-quick', role: 'group', 'aria-label': t('online.clock'), 'data-i18n-label': 'online.clock' },
    ...[...PRESETS.map(([m, i]) => `${m}+${i}`), 'none'].map((value) => el('button', {
      type: 'button', 'data-preset': value, 'aria-pressed': 'false', onclick: () => pick(value),
      ...(value === 'none' ? { 'data-i18n': 'online.noClock', text: t('online.noClock') } : { text: value }),
    })));
  pick(picked);
  dialog.append(
    el('h2', { 'data-i18n': 'lobby.title', text: t('lobby.title') }),
    el('p', { class: 'online-note', 'data-i18n': 'lobby.quick', text: t('lobby.quick') }), quick,
    el('div', { class: 'lobby-form' },
      el('label', {}, el('span', { 'data-i18n': 'online.colour', text: t('online.colour') }), ' ', colour), ' ',
      el('label', {}, el('span', { 'data-i18n': 'lobby.nameLabel', text: t('lobby.nameLabel') }), ' ', name)),
    el('div', { class: 'buttons' },
      el('button', { type: 'button', id: 'lobby-play-now', 'data-i18n': 'lobby.playNow', text: t('lobby.playNow'), onclick: () => {
        error.textContent = '';
        send({ type: 'quick', clock: clockOf(picked), name: nameValue() });
      } }),
      el('button', { type: 'button', id: 'lobby-seek', 'data-i18n': 'lobby.seek', text: t('lobby.seek'), onclick: () => {
        error.textContent = '';
        send({ type: 'seek', clock: clockOf(picked), colour: colour.value, name: nameValue() });
      } })),
    status, error,
    el('h3', { 'data-i18n': 'lobby.open', text: t('lobby.open') }), list,
    el('div', { class: 'buttons' }, el('button', { type: 'button', id: 'lobby-close', 'data-i18n': 'lobby.leave', text: t('lobby.leave'), onclick: () => dialog.close() })));
  // Leaving the lobby takes one's seeks with it.
  dialog.addEventListener('close', () => { if (socket) socket.close(); });
  document.body.append(dialog);
  return { dialog, open };
}

// ---------------------------------------------------------------- start

/** @type {Promise<void> | null} */
let styled = null;

/**
 * The dialogs' styles (online.css), added when a dialog first opens (a page's first load does
 * not carry them); resolves once they apply. By its hashed address, which the page's import
 * map knows (cached for ever).
 */
function addStyles() {
  const href = import.meta.resolve('./online.css');
  styled ??= [...document.styleSheets].some((sheet) => sheet.href === href)
    ? Promise.resolve()
    : new Promise((resolve) => { document.head.append(el('link', { rel: 'stylesheet', href, onload: resolve, onerror: resolve })); });
  return styled;
}

// On a page with a "Play someone" button (home, /xq): the lobby behind it.
if (document.getElementById('play-someone')) {
  applyText(document.getElementById('play-someone').parentNode);
  const lobby = lobbyDialog();
  document.getElementById('play-someone').addEventListener('click', async () => {
    lobby.open();
    await addStyles();
    lobby.dialog.showModal();
  });
  // Home's "Watch a game": the games being played, if there are any; else the famous game.
  document.getElementById('watch-game')?.addEventListener('click', (e) => {
    const famous = /** @type {HTMLAnchorElement} */ (e.currentTarget).href;
    e.preventDefault();
    lobby.dialog.addEventListener('games', async (g) => {
      if (/** @type {CustomEvent} */ (g).detail) {
        await addStyles();
        lobby.dialog.showModal();
        document.getElementById('lobby-live')?.scrollIntoView();
      } else location.href = famous;
    }, { once: true });
    lobby.open();
  });
}

// On a page with a "Play a friend" button (/xq): the dialog behind it.
if (document.getElementById('play-friend')) {
  applyText(document.getElementById('play-friend').parentNode);
  const dialog = friendDialog();
  addFriendButton().addEventListener('click', async () => {
    await addStyles();
    dialog.showModal();
  });
}
