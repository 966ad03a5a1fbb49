// The Xiangqi page: a game (start position + moves + the ply on view) kept in the address bar.
// Every rule, notation and link comes from the server's API; this file only shows and asks.

import { api } from './api.js';
import { XiangqiBoard } from './board.js';
import { t, setupLangButton, onLangChange } from './i18n.js';

const STANDARD_FEN = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';
const $ = (id) => document.getElementById(id);

const state = {
  startFen: null, // null: the standard start
  moves: [], // ICCS
  ply: 0,
  flipped: false,
  notation: localStorage.getItem('qi-notation') || 'chinese',
  view: null, // the API's answer for the state above
  message: null, // { key, vars } or { text }
};
let requestSeq = 0;

const board = new XiangqiBoard($('board'), {
  onMove: (iccs) => play(iccs),
  onIllegal: (iccs) => say({ key: 'msg.illegal', vars: { move: iccs } }, 'error'),
});

function say(message, kind = 'info') {
  state.message = message ? { ...message, kind } : null;
  renderMessage();
}

function renderMessage() {
  const node = $('message');
  const m = state.message;
  node.textContent = !m ? '' : m.text ?? t(m.key, m.vars);
  node.className = m ? m.kind : '';
}

// Asks the server about `next` (a change of start, moves or ply); shows it when it is accepted,
// keeps the current game and shows the reason when not. Returns whether it was accepted.
async function show(next) {
  const candidate = { startFen: state.startFen, moves: state.moves, ply: state.ply, ...next };
  const seq = ++requestSeq;
  $('board').dataset.ready = 'false';
  try {
    const view = await api('/api/xq/game', {
      fen: candidate.startFen ?? undefined,
      moves: candidate.moves,
      ply: candidate.ply,
    });
    if (seq !== requestSeq) return false; // a newer request has taken over
    Object.assign(state, candidate, { view });
    if (view.start_fen === STANDARD_FEN) state.startFen = null;
    render();
    return true;
  } catch (error) {
    if (seq === requestSeq) {
      say({ text: error.message }, 'error');
      if (state.view) $('board').dataset.ready = 'true';
    }
    return false;
  }
}

async function play(iccs) {
  const moves = state.moves.slice(0, state.ply).concat([iccs]);
  if (await show({ moves, ply: moves.length })) {
    say(null);
    if ($('engine-auto').checked) await computerMove();
  }
}

// Computer levels: a search depth cap for the weaker ones, a thinking time for all.
const LEVELS = {
  beginner: { depth: 1, movetime_ms: 800 },
  easy: { depth: 3, movetime_ms: 800 },
  normal: { movetime_ms: 800 },
  strong: { movetime_ms: 3000 },
};

// The server's engine thinks (a bounded time) and its move is played like a click would be.
async function computerMove() {
  if (!state.view || state.view.status.over) return;
  const asked = state.moves.slice(0, state.ply);
  $('engine').disabled = true;
  board.interactive = false;
  say({ key: 'msg.thinking' });
  try {
    const level = LEVELS[$('engine-level').value] ?? LEVELS.normal;
    const answer = await api('/api/xq/engine', { fen: state.startFen ?? undefined, moves: asked, ...level });
    // Only if the game has not changed meanwhile.
    if (answer.bestmove && asked.join() === state.moves.slice(0, state.ply).join()) {
      const moves = asked.concat([answer.bestmove]);
      if (await show({ moves, ply: moves.length })) say(null);
    }
  } catch (error) {
    say({ text: error.message }, 'error');
  } finally {
    $('engine').disabled = false;
    if (state.view) board.interactive = !state.view.status.over;
  }
}

function goTo(ply) {
  const clamped = Math.max(0, Math.min(state.moves.length, ply));
  if (clamped !== state.ply || !state.view) show({ ply: clamped });
}

function kingInCheck(view) {
  if (!view.check) return null;
  const king = view.turn === 'red' ? 'K' : 'k';
  return Object.keys(view.board).find((sq) => view.board[sq] === king) || null;
}

function render() {
  const view = state.view;
  board.setFlipped(state.flipped);
  // A finished game takes no more moves (the position may still have legal ones, e.g. after a draw).
  board.interactive = !view.status.over;
  board.setPosition({ pieces: view.board, legal: view.legal, last: view.last, checkSquare: kingInCheck(view) });
  const node = $('board');
  node.dataset.fen = view.fen;
  node.dataset.ply = String(view.ply);
  node.dataset.plies = String(view.plies);
  node.dataset.flipped = String(state.flipped);
  node.dataset.ready = 'true';
  renderStatus();
  renderMoves();
  $('fen').value = view.fen;
  $('ply-label').textContent = `${view.ply} / ${view.plies}`;
  $('first').disabled = $('prev').disabled = view.ply === 0;
  $('next').disabled = $('last').disabled = view.ply === view.plies;
  $('undo').disabled = view.plies === 0;
  $('engine').disabled = view.status.over;
  updateAddress();
}

function renderStatus() {
  const view = state.view;
  const status = view.status;
  const node = $('status');
  if (status.over) {
    const reason = status.reason ? t(`reason.${status.reason.replace(/ /g, '_')}`) : '';
    node.textContent = t(`end.${status.winner || 'draw'}`) + (reason ? ` — ${reason}` : '');
    node.className = 'over';
  } else {
    node.textContent = t(`turn.${view.turn}`) + (view.check ? ` ${t('check')}` : '');
    node.className = view.check ? 'check' : '';
  }
}

// Which notations the server sent (Chinese and WXF come with the notation library).
function availableNotations() {
  const first = state.view.moves[0];
  const all = ['chinese', 'wxf', 'iccs'];
  return first ? all.filter((n) => typeof first[n] === 'string') : all;
}

function renderMoves() {
  const view = state.view;
  const select = $('notation');
  const available = availableNotations();
  for (const option of select.options) option.disabled = !available.includes(option.value);
  const notation = available.includes(state.notation) ? state.notation : 'iccs';
  select.value = notation;

  const list = $('moves');
  list.replaceChildren();
  const startItem = document.createElement('li');
  startItem.className = 'start';
  startItem.appendChild(moveButton(0, t('msg.start')));
  list.appendChild(startItem);
  // Number the moves as the FEN counts them; Black may move first in a set-up position.
  const [, side, , , , full] = view.start_fen.split(' ');
  let number = Number(full) || 1;
  let item = null;
  view.moves.forEach((m, i) => {
    const red = (i + (side === 'b' ? 1 : 0)) % 2 === 0;
    if (red || !item) {
      item = document.createElement('li');
      const num = document.createElement('span');
      num.className = 'num';
      num.textContent = `${number}.`;
      item.appendChild(num);
      if (!red) item.appendChild(Object.assign(document.createElement('span'), { className: 'move-gap', textContent: '…' }));
      list.appendChild(item);
    }
    item.appendChild(moveButton(i + 1, m[notation] ?? m.iccs));
    if (!red) {
      item = null;
      number += 1;
    }
  });
  // Keep the move on view visible inside the list without scrolling the page.
  const current = list.querySelector(`[data-ply="${view.ply}"]`);
  if (current && list.scrollHeight > list.clientHeight) {
    const top = current.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - current.offsetHeight) {
      list.scrollTop = top - list.clientHeight / 2;
    }
  }
}

function moveButton(ply, text) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'move';
  button.dataset.ply = String(ply);
  button.textContent = text;
  if (ply === state.view.ply) button.setAttribute('aria-current', 'step');
  return button;
}

// The address of the game on view: the share link's query when the server gives one (compact,
// or the seed's form), else the plain form (fen + ICCS moves); plus the ply when not at the end
// and the orientation when rotated.
function gameQuery() {
  const view = state.view;
  const params = new URLSearchParams(view.link || '');
  if (!view.link) {
    if (state.startFen) params.set('fen', state.startFen);
    if (state.moves.length) params.set('moves', state.moves.join('.'));
  }
  if (view.ply !== view.plies) params.set('ply', String(view.ply));
  if (state.flipped) params.set('flip', '1');
  const query = params.toString();
  return query ? `?${query}` : '';
}

function updateAddress() {
  const path = `/xq${gameQuery()}`;
  history.replaceState(null, '', path);
  $('share-link').value = `${location.origin}${path}`;
}

async function copyLink() {
  const text = $('share-link').value;
  try {
    await navigator.clipboard.writeText(text);
    say({ key: 'msg.copied' });
  } catch {
    $('share-link').select();
    say({ key: document.execCommand && document.execCommand('copy') ? 'msg.copied' : 'msg.copyFailed' });
  }
}

// Reads the game from the address: a compact (g=) or seed (p=, r=, s=) link, or fen + moves.
async function loadFromAddress() {
  const params = new URLSearchParams(location.search);
  let startFen = null;
  let moves = [];
  if (params.has('g') || params.has('p')) {
    try {
      const game = await api('/api/xq/link', { link: location.search });
      startFen = game.start_fen;
      moves = game.moves;
    } catch (error) {
      say({ text: error.message }, 'error');
    }
  } else {
    startFen = params.get('fen');
    moves = (params.get('moves') || '').split(/[.,\s]+/).filter(Boolean);
  }
  state.flipped = params.get('flip') === '1';
  const ply = params.has('ply') ? Math.max(0, Math.min(moves.length, Number(params.get('ply')) || 0)) : moves.length;
  if (!(await show({ startFen, moves, ply }))) await show({ startFen: null, moves: [], ply: 0 });
}

function wire() {
  $('new').addEventListener('click', () => show({ startFen: null, moves: [], ply: 0 }).then((ok) => ok && say(null)));
  $('undo').addEventListener('click', () => {
    const moves = state.moves.slice(0, -1);
    show({ moves, ply: moves.length });
  });
  $('engine').addEventListener('click', computerMove);
  $('flip').addEventListener('click', () => {
    state.flipped = !state.flipped;
    board.setFlipped(state.flipped);
    $('board').dataset.flipped = String(state.flipped);
    updateAddress();
  });
  $('first').addEventListener('click', () => goTo(0));
  $('prev').addEventListener('click', () => goTo(state.ply - 1));
  $('next').addEventListener('click', () => goTo(state.ply + 1));
  $('last').addEventListener('click', () => goTo(state.moves.length));
  $('moves').addEventListener('click', (e) => {
    const button = e.target.closest('.move');
    if (button) goTo(Number(button.dataset.ply));
  });
  $('notation').addEventListener('change', (e) => {
    state.notation = e.target.value;
    localStorage.setItem('qi-notation', state.notation);
    renderMoves();
  });
  const savedLevel = localStorage.getItem('qi-engine-level');
  $('engine-level').value = savedLevel in LEVELS ? savedLevel : 'normal';
  $('engine-level').addEventListener('change', (e) => localStorage.setItem('qi-engine-level', e.target.value));
  $('copy-link').addEventListener('click', copyLink);
  $('fen-load').addEventListener('click', async () => {
    if (await show({ startFen: $('fen').value.trim(), moves: [], ply: 0 })) say({ key: 'msg.fenLoaded' });
  });
  $('fen').addEventListener('keydown', (e) => {
    if (e.key === 'Enter') $('fen-load').click();
  });
  $('fen-copy').addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText($('fen').value);
      say({ key: 'msg.copied' });
    } catch {
      $('fen').select();
    }
  });
  $('pgn-box').hidden = false;
  $('pgn-import').addEventListener('click', async () => {
    try {
      const game = await api('/api/xq/pgn/import', { pgn: $('pgn').value });
      if (await show({ startFen: game.start_fen, moves: game.moves, ply: game.moves.length })) say({ key: 'msg.pgnLoaded' });
    } catch (error) {
      say({ text: error.message }, 'error');
    }
  });
  $('pgn-export').addEventListener('click', async () => {
    try {
      const notation = $('notation').value;
      const { pgn } = await api('/api/xq/pgn/export', { fen: state.startFen ?? undefined, moves: state.moves, notation });
      $('pgn').value = pgn;
    } catch (error) {
      say({ text: error.message }, 'error');
    }
  });
  document.addEventListener('keydown', (e) => {
    if (e.target.closest('input, textarea, select') || e.altKey || e.ctrlKey || e.metaKey) return;
    const actions = {
      ArrowLeft: () => goTo(state.ply - 1),
      ArrowRight: () => goTo(state.ply + 1),
      ArrowUp: () => goTo(0),
      Home: () => goTo(0),
      ArrowDown: () => goTo(state.moves.length),
      End: () => goTo(state.moves.length),
    };
    if (actions[e.key] && state.view) {
      e.preventDefault();
      actions[e.key]();
    }
  });
  onLangChange(() => {
    if (!state.view) return;
    renderStatus();
    renderMoves();
    renderMessage();
  });
}

setupLangButton();
wire();
// A room (?room=...) is online.js's page.
if (!new URLSearchParams(location.search).has('room')) loadFromAddress();
