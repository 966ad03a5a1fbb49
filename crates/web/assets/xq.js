// The Xiangqi page: a game tree (start position, moves with variations, the move on view), kept
// in the address bar as its main line. Every rule, notation, link and engine search comes from
// the Qi libraries running in the page as WebAssembly (api.js); this file only shows and asks.

import { api, ApiError } from './api.js';
import { $, copyText } from './dom.js';
import { XiangqiBoard, PIECE_NAMES } from './board.js';
import { t, setupLangButton, onLangChange } from './i18n.js';
import { GameTree } from './tree.js';
import { LiveAnalysis, renderEvalBar, formatEval, review, renderGraph } from './analysis.js';
import { PositionEditor } from './editor.js';
import * as sound from './sound.js';
import { recordErrorText } from './record-text.js';

const STANDARD_FEN = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';
const HEADER_KEYS = ['Event', 'Site', 'Date', 'Round', 'Red', 'Black', 'Result'];

const state = {
  startFen: null, // null: the standard start
  tree: new GameTree(),
  node: null, // the move on view (the tree's root = the start)
  flipped: false,
  notation: localStorage.getItem('qi-notation') || 'chinese',
  view: null, // the API's answer for the line on view
  message: null, // { key, vars } or { error } or { text }
  tags: [], // PGN headers, [key, value] in order
  addressLocked: false, // the address holds a link that did not fully load: keep it as given
  reviewed: null, // { scores, judgements, plies, done }
  mainLink: null, // the share query of the main line while a variation is on view
};
state.node = state.tree.root;
let requestSeq = 0;
const listeners = { move: [] };

const board = new XiangqiBoard($('board'), {
  onMove: (iccs) => userMove(iccs),
  onIllegal: (iccs) => explainIllegal(iccs),
});

// ---------- messages ----------

function say(message, kind = 'info') {
  state.message = message ? { ...message, kind } : null;
  renderMessage();
}

// An error in the user's language: a server code is translated, anything else shown as is.
function errorText(error, { bare = false } = {}) {
  if (!(error instanceof ApiError) || !error.code) return error.message;
  const v = error.vars || {};
  const piece = v.piece ? t(`piece.${v.piece}`) : '';
  const color = v.color ? t(`side.${v.color}`) : '';
  switch (error.code) {
    case 'illegal_move': {
      const move = v[state.notation] || v.move;
      const why = v.reason ? t(`why.${v.reason}`, { piece, square: v.square || '' }) : '';
      const text = v.ply ? t('err.illegalAt', { ply: v.ply, move }) : t('err.illegal', { move });
      return why ? `${text}: ${why}` : text;
    }
    case 'bad_move':
      return t(`err.badMove.${v.reason}`, { text: v.text, ply: v.ply, piece });
    case 'bad_record':
      return recordErrorText(v);
    case 'bad_fen': {
      const why = t(`fen.${v.reason}`, { ...v, piece, color });
      return bare ? why.charAt(0).toUpperCase() + why.slice(1) : `${t('err.badFen')}: ${why}`;
    }
    default:
      return t(`err.${error.code}`, v) === `err.${error.code}` ? error.message : t(`err.${error.code}`, v);
  }
}

function renderMessage() {
  const node = $('message');
  const m = state.message;
  node.textContent = !m ? '' : m.error ? errorText(m.error) : m.text ?? t(m.key, m.vars);
  node.className = m ? m.kind : '';
  node.hidden = !m;
}

// ---------- showing a line ----------

function lineOf(node) {
  return state.tree.line(node);
}

// Asks the server about the line through `next.node` (in `next.tree`, from `next.startFen`);
// shows it when accepted, keeps the current game and says why when not. `slide` animates a
// move; `user: false` leaves the address as the user gave it. Returns whether it was accepted.
async function show(next = {}, { slide = null, sound: withSound = !!slide, user = true, keepMessage = false } = {}) {
  const candidate = { startFen: state.startFen, tree: state.tree, node: state.node, ...next };
  if (!candidate.node) candidate.node = candidate.tree.root;
  const line = candidate.tree.line(candidate.node);
  const ply = candidate.tree.ply(candidate.node);
  const seq = ++requestSeq;
  $('board').dataset.ready = 'false';
  try {
    const view = await api('/api/xq/game', {
      fen: candidate.startFen ?? undefined,
      moves: line.map((n) => n.iccs),
      ply,
    });
    if (seq !== requestSeq) return false; // a newer request has taken over
    const before = state.view;
    view.moves.forEach((m, i) => Object.assign(line[i], { wxf: m.wxf, chinese: m.chinese }));
    Object.assign(state, candidate, { view });
    if (view.start_fen === STANDARD_FEN) state.startFen = null;
    if (user) state.addressLocked = false;
    if (!keepMessage) say(null);
    render({ slide });
    if (withSound) playSound(before, view);
    return true;
  } catch (error) {
    if (seq === requestSeq) {
      say({ error }, 'error');
      if (state.view) render(); // roll back an optimistic move
    }
    return false;
  }
}

function playSound(before, view) {
  if (view.status.over) sound.play('end');
  else if (view.check) sound.play('check');
  else if (before && Object.keys(view.board).length < Object.keys(before.board).length) sound.play('capture');
  else sound.play('move');
}

// A move made on the board or typed: shown at once, then confirmed by the server (or rolled
// back with the reason).
async function userMove(iccs, { fromComputer = false } = {}) {
  if (!state.view || editor.active) return false;
  const parent = state.node;
  const existed = parent.children.some((c) => c.iccs === iccs);
  board.playLocally(iccs);
  const child = state.tree.add(parent, iccs);
  child.byComputer = fromComputer;
  // The piece already moved (playLocally); the answer only confirms it.
  const ok = await show({ node: child }, { sound: true });
  if (!ok) {
    if (!existed) state.tree.remove(child);
    if (state.view) renderMoves();
    return false;
  }
  for (const fn of listeners.move) fn(iccs, { fromComputer });
  if (!fromComputer && $('engine-auto').checked) await computerMove();
  return true;
}

// Why a move the user tried cannot be played, from the rules library.
async function explainIllegal(iccs) {
  try {
    await api('/api/xq/move', { fen: state.startFen ?? undefined, moves: pathMoves(), text: iccs });
    say({ key: 'msg.illegal', vars: { move: iccs } }, 'error');
  } catch (error) {
    say({ error }, 'error');
  }
}

function pathMoves(node = state.node) {
  return state.tree.path(node).map((n) => n.iccs);
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
  const asked = pathMoves();
  const at = state.node;
  $('engine').disabled = true;
  board.interactive = false;
  say({ key: 'msg.thinking' });
  try {
    const level = LEVELS[$('engine-level').value] ?? LEVELS.normal;
    const answer = await api('/api/xq/engine', { fen: state.startFen ?? undefined, moves: asked, ...level });
    // Only if the game has not changed meanwhile.
    if (answer.bestmove && state.node === at) await userMove(answer.bestmove, { fromComputer: true });
    else if (state.node === at) say(null);
  } catch (error) {
    say({ error }, 'error');
  } finally {
    $('engine').disabled = false;
    if (state.view) render();
  }
}

// A hint while playing the computer: the engine's move, drawn as an arrow and named.
async function hint() {
  if (!state.view || state.view.status.over) return;
  $('hint').disabled = true;
  say({ key: 'msg.thinking' });
  try {
    const moves = pathMoves();
    const answer = await api('/api/xq/engine', { fen: state.startFen ?? undefined, moves, movetime_ms: 800 });
    if (!answer.bestmove) return say(null);
    const named = await api('/api/xq/move', { fen: state.startFen ?? undefined, moves, text: answer.bestmove });
    state.hint = { at: state.node, iccs: answer.bestmove };
    renderArrows();
    say({ key: 'msg.hint', vars: { move: named[state.notation] ?? named.iccs } });
  } catch (error) {
    say({ error }, 'error');
  } finally {
    $('hint').disabled = false;
  }
}

function goTo(node) {
  if (!node || (node === state.node && state.view)) return;
  // One step forward slides the piece, as on a real board.
  const slide = node.parent === state.node ? node.iccs : null;
  show({ node }, { slide });
}

function goToPly(ply) {
  const line = lineOf(state.node);
  const clamped = Math.max(0, Math.min(line.length, ply));
  goTo(clamped === 0 ? state.tree.root : line[clamped - 1]);
}

// Takes back the last move; against the computer, its reply and the user's move together.
// Only at the end of a line: earlier, a move's removal would lose what follows it.
async function undo() {
  let node = state.node;
  if (!node.parent || node.children.length) return;
  const againstComputer = $('engine-auto').checked;
  if (againstComputer && node.byComputer && node.parent.parent) node = node.parent;
  await removeMoves(node);
}

// Deletes `node` and what follows it and shows its parent; puts it back if that fails.
async function removeMoves(node) {
  const parent = node.parent;
  const index = parent.children.indexOf(node);
  parent.children.splice(index, 1);
  if (await show({ node: parent })) {
    parent.children.splice(index, 0, node);
    state.tree.remove(node);
    renderMoves();
  } else {
    parent.children.splice(index, 0, node);
  }
}

// ---------- drawing ----------

function kingInCheck(view) {
  if (!view.check) return null;
  const king = view.turn === 'red' ? 'K' : 'k';
  return Object.keys(view.board).find((sq) => view.board[sq] === king) || null;
}

function render({ slide = null } = {}) {
  const view = state.view;
  board.setFlipped(state.flipped);
  // A finished game takes no more moves (the position may still have legal ones, e.g. after a draw).
  board.interactive = !view.status.over && !editor.active;
  board.setPosition({ pieces: view.board, legal: view.legal, last: view.last, checkSquare: kingInCheck(view), slide });
  const node = $('board');
  node.dataset.fen = view.fen;
  node.dataset.ply = String(view.ply);
  node.dataset.plies = String(view.plies);
  node.dataset.flipped = String(state.flipped);
  node.dataset.ready = 'true';
  renderStatus();
  renderMoves();
  renderHeaders();
  renderDescription();
  renderArrows();
  $('fen').value = view.fen;
  $('comment').value = state.node.comment || '';
  $('comment').disabled = !state.node.parent;
  $('ply-label').textContent = `${view.ply} / ${view.plies}`;
  $('first').disabled = $('prev').disabled = view.ply === 0;
  $('next').disabled = $('last').disabled = view.ply === view.plies;
  const atEnd = !state.node.children.length;
  $('undo').disabled = !state.node.parent || !atEnd;
  $('undo').title = atEnd ? '' : t('msg.undoAtEnd');
  $('engine').disabled = view.status.over;
  $('hint').hidden = !$('engine-auto').checked;
  $('promote').disabled = !state.tree.branchOf(state.node);
  $('delete-move').disabled = !state.node.parent;
  updateAnalysis();
  if (state.reviewed) renderReview();
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

// For screen readers: the side to move, the last move and every piece by point.
function renderDescription() {
  const view = state.view;
  const last = state.node.parent ? moveText(state.node) : null;
  const pieces = { red: [], black: [] };
  for (const [sq, letter] of Object.entries(view.board)) {
    const side = letter === letter.toUpperCase() ? 'red' : 'black';
    pieces[side].push(`${t(`piece.${PIECE_NAMES[letter.toLowerCase()]}`)} ${sq}`);
  }
  const parts = [$('status').textContent];
  if (last) parts.push(t('a11y.last', { move: last }));
  parts.push(`${t('side.red')}: ${pieces.red.join(', ')}.`, `${t('side.black')}: ${pieces.black.join(', ')}.`);
  $('board-desc').textContent = parts.join(' ');
  board.svg.setAttribute('aria-label', t('a11y.board'));
  board.svg.setAttribute('aria-describedby', 'board-desc');
}

// Each point's label for screen readers ("e0 Red king"), in the page's language.
board.describe = (sq, letter) => {
  if (!letter) return `${sq} ${t('a11y.empty')}`;
  const side = letter === letter.toUpperCase() ? 'red' : 'black';
  return `${sq} ${t(`side.${side}`)} ${t(`piece.${PIECE_NAMES[letter.toLowerCase()]}`)}`;
};

function renderArrows() {
  const arrows = [];
  const best = state.analysisInfo?.node === state.node ? state.analysisInfo.info.lines[0]?.pv[0] : null;
  if ($('analyse').checked && best) arrows.push({ from: best.iccs.slice(0, 2), to: best.iccs.slice(2, 4), kind: 'best' });
  if (state.hint?.at === state.node) arrows.push({ from: state.hint.iccs.slice(0, 2), to: state.hint.iccs.slice(2, 4), kind: 'hint' });
  board.setArrows(arrows);
}

// Which notations the server sent (Chinese and WXF come with the notation library).
function notation() {
  return ['chinese', 'wxf', 'iccs'].includes(state.notation) ? state.notation : 'iccs';
}

function moveText(node) {
  return node[notation()] || node.iccs;
}

const MARKS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

function moveButton(node, ply, onLine) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'move';
  button.dataset.node = String(node.id);
  if (onLine) button.dataset.ply = String(ply);
  button.textContent = node.parent ? moveText(node) : t('msg.start');
  const judged = node.review?.judgement;
  if (judged) {
    button.classList.add(judged);
    const mark = document.createElement('span');
    mark.className = 'mark';
    mark.textContent = MARKS[judged];
    button.appendChild(mark);
    button.title = `${t(`judge.${judged}`)}${node.review.better ? ` — ${t('judge.better', { move: node.review.better[notation()] || node.review.better.iccs })}` : ''}`;
  }
  if (node.comment) button.classList.add('has-comment');
  if (node === state.node) button.setAttribute('aria-current', 'step');
  return button;
}

// Move numbers as the FEN counts them; Black may move first in a set-up position.
function numbering() {
  const [, side, , , , full] = state.view.start_fen.split(' ');
  const blackFirst = side === 'b';
  const first = Number(full) || 1;
  return {
    isRed: (ply) => (ply - 1 + (blackFirst ? 1 : 0)) % 2 === 0,
    number: (ply) => first + Math.floor((ply - 1 + (blackFirst ? 1 : 0)) / 2),
  };
}

// The move list: the main line as numbered pairs; each variation indented below the move it
// replaces, its own variations indented further (as lichess and vschess show them).
function renderMoves() {
  const select = $('notation');
  select.value = notation();
  const list = $('moves');
  list.replaceChildren();
  const onLine = new Set(lineOf(state.node));
  const { isRed, number } = numbering();
  const startItem = document.createElement('li');
  startItem.className = 'start';
  startItem.appendChild(moveButton(state.tree.root, 0, true));
  list.appendChild(startItem);

  let item = null;
  let ply = 0;
  for (let node = state.tree.root.children[0]; node; node = node.children[0]) {
    ply += 1;
    const red = isRed(ply);
    if (red || !item) {
      item = document.createElement('li');
      const num = document.createElement('span');
      num.className = 'num';
      num.textContent = `${number(ply)}.`;
      item.appendChild(num);
      if (!red) item.appendChild(Object.assign(document.createElement('span'), { className: 'move-gap', textContent: '…' }));
      list.appendChild(item);
    }
    item.appendChild(moveButton(node, ply, onLine.has(node)));
    const alternatives = node.parent.children.slice(1);
    if (alternatives.length) {
      const block = document.createElement('li');
      block.className = 'variations';
      for (const alt of alternatives) block.appendChild(variationBlock(alt, ply, onLine, 1));
      list.appendChild(block);
      item = null; // the row's other move starts a new row after the variations
    }
    if (!red) item = null;
  }

  // Keep the move on view visible inside the list without scrolling the page.
  const current = list.querySelector('[aria-current="step"]');
  if (current && list.scrollHeight > list.clientHeight) {
    const top = current.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - current.offsetHeight) {
      list.scrollTop = top - list.clientHeight / 2;
    }
  }
}

// One variation starting with `first` (at `ply`), moves inline, deeper variations nested.
function variationBlock(first, ply, onLine, depth) {
  const { isRed, number } = numbering();
  const block = document.createElement('div');
  block.className = 'variation';
  block.style.setProperty('--depth', String(depth));
  let p = ply;
  let lead = true;
  for (let node = first; node; node = node.children[0]) {
    if (isRed(p) || lead) {
      const num = document.createElement('span');
      num.className = 'num';
      num.textContent = isRed(p) ? `${number(p)}.` : `${number(p)}…`;
      block.appendChild(num);
    }
    lead = false;
    block.appendChild(moveButton(node, p, onLine.has(node)));
    if (node.comment) block.appendChild(Object.assign(document.createElement('span'), { className: 'comment', textContent: node.comment }));
    const alternatives = node !== first ? node.parent.children.slice(1) : [];
    for (const alt of alternatives) {
      block.appendChild(variationBlock(alt, p, onLine, depth + 1));
      lead = true;
    }
    p += 1;
  }
  return block;
}

// PGN headers above the move list: "Red vs Black", the event and date.
function renderHeaders() {
  const tag = (k) => state.tags.find(([key]) => key === k)?.[1] || '';
  const node = $('headers');
  const players = tag('Red') || tag('Black') ? `${tag('Red') || '?'} – ${tag('Black') || '?'}` : '';
  const rest = [tag('Event'), tag('Date'), tag('Result')].filter((v) => v && v !== '?' && v !== '*');
  node.replaceChildren();
  if (players) node.appendChild(Object.assign(document.createElement('strong'), { textContent: players }));
  if (rest.length) node.appendChild(Object.assign(document.createElement('span'), { textContent: rest.join(' · ') }));
  node.hidden = !players && !rest.length;
  renderHeaderFields();
}

function renderHeaderFields() {
  const box = $('header-fields');
  if (box.contains(document.activeElement)) return; // the user is typing there
  const keys = [...HEADER_KEYS, ...state.tags.map(([k]) => k).filter((k) => !HEADER_KEYS.includes(k) && k !== 'FEN' && k !== 'Format' && k !== 'Game')];
  box.replaceChildren();
  for (const key of keys) {
    const label = document.createElement('label');
    const name = document.createElement('span');
    name.textContent = t(`tag.${key}`) === `tag.${key}` ? key : t(`tag.${key}`);
    const input = document.createElement('input');
    input.value = state.tags.find(([k]) => k === key)?.[1] || '';
    input.dataset.tag = key;
    input.addEventListener('input', () => {
      setTag(key, input.value);
      renderHeaders();
    });
    label.append(name, input);
    box.appendChild(label);
  }
}

function setTag(key, value) {
  const i = state.tags.findIndex(([k]) => k === key);
  if (i >= 0) state.tags[i][1] = value;
  else state.tags.push([key, value]);
}

// ---------- analysis ----------

const live = new LiveAnalysis({
  onInfo: (info) => {
    state.analysisInfo = { node: state.analysisNode, info };
    renderAnalysis();
  },
  onError: (error) => say({ error }, 'error'),
});

function updateAnalysis() {
  const on = $('analyse').checked && !editor.active;
  $('analysis').hidden = !on;
  $('eval-bar').hidden = !on;
  if (!on) {
    live.stop();
    return;
  }
  if (state.analysisNode !== state.node) {
    state.analysisNode = state.node;
    state.analysisInfo = null;
  }
  renderAnalysis();
  live.start({
    fen: state.startFen ?? undefined,
    moves: pathMoves(),
    multipv: Number($('multipv').value) || 1,
    movetime_ms: 8000,
  });
}

function renderAnalysis() {
  const info = state.analysisInfo?.node === state.node ? state.analysisInfo.info : null;
  renderEvalBar($('eval-bar'), info?.lines[0]?.eval ?? null, state.flipped);
  $('analysis-depth').textContent = info ? t('analysis.depth', { depth: info.depth, nodes: info.nodes.toLocaleString() }) : t('analysis.thinking');
  const list = $('lines');
  list.replaceChildren();
  if (info && !info.lines.length) list.appendChild(Object.assign(document.createElement('li'), { textContent: t('analysis.noMoves') }));
  for (const line of info?.lines ?? []) {
    const li = document.createElement('li');
    li.appendChild(Object.assign(document.createElement('span'), { className: 'score', textContent: formatEval(line.eval) }));
    const moves = line.pv.slice(0, 12).map((m) => m[notation()] || m.iccs).join(' ');
    li.appendChild(Object.assign(document.createElement('span'), { className: 'pv', textContent: moves }));
    li.dataset.first = line.pv[0]?.iccs || '';
    list.appendChild(li);
  }
  renderArrows();
}

// ---------- review ----------

let cancelReview = null;

function startReview() {
  if (cancelReview) cancelReview();
  const main = state.tree.mainLine();
  for (const n of main) delete n.review;
  state.reviewed = { scores: [], judgements: [], plies: main.length, done: false };
  $('review-box').hidden = false;
  renderReview();
  cancelReview = review({ fen: state.startFen ?? undefined, moves: main.map((n) => n.iccs) }, {
    onPosition: (score) => {
      state.reviewed.scores.push(score);
      renderReview();
    },
    onDone: (judgements) => {
      state.reviewed.done = true;
      state.reviewed.judgements = judgements;
      const nodes = state.tree.mainLine();
      for (const j of judgements) if (nodes[j.ply - 1]) nodes[j.ply - 1].review = j;
      cancelReview = null;
      renderMoves();
      renderReview();
    },
    onError: (error) => {
      say({ error }, 'error');
      cancelReview = null;
    },
  });
}

function renderReview() {
  const r = state.reviewed;
  $('review-status').textContent = r.done
    ? t('review.done')
    : t('review.progress', { done: r.scores.length, total: r.plies + 1 });
  const onMain = state.tree.isMain(state.node);
  renderGraph($('review-graph'), {
    scores: r.scores,
    plies: r.plies,
    judgements: r.judgements,
    current: onMain ? state.tree.ply(state.node) : null,
    onPick: (ply) => goTo(ply === 0 ? state.tree.root : state.tree.mainLine()[ply - 1]),
    label: t('review.graph'),
  });
  const summary = $('review-summary');
  summary.replaceChildren();
  if (!r.done) return;
  const { isRed } = numbering();
  const count = { red: {}, black: {} };
  const items = [];
  for (const j of r.judgements) {
    if (!j.judgement) continue;
    const side = isRed(j.ply) ? 'red' : 'black';
    count[side][j.judgement] = (count[side][j.judgement] || 0) + 1;
    const node = state.tree.mainLine()[j.ply - 1];
    const better = j.better ? t('judge.better', { move: j.better[notation()] || j.better.iccs }) : '';
    const button = document.createElement('button');
    button.type = 'button';
    button.className = `judged ${j.judgement}`;
    button.dataset.ply = String(j.ply);
    button.textContent = `${moveText(node)}${MARKS[j.judgement]} ${t(`judge.${j.judgement}`)}${better ? ` — ${better}` : ''}`;
    button.addEventListener('click', () => goTo(node.parent));
    items.push(button);
  }
  for (const side of ['red', 'black']) {
    const c = count[side];
    const line = document.createElement('div');
    line.className = 'judge-count';
    line.textContent = `${t(`side.${side}`)}: ${['inaccuracy', 'mistake', 'blunder'].map((k) => `${c[k] || 0} ${t(`judge.${k}s`)}`).join(', ')}`;
    summary.appendChild(line);
  }
  summary.append(...items);
}

// ---------- the editor ----------

const editor = new PositionEditor({
  board,
  palette: $('palette'),
  glyph: (letter) => (board.pieceSet === 'western' ? { K: 'K', A: 'A', B: 'E', N: 'H', R: 'R', C: 'C', P: 'P' }[letter.toUpperCase()] : '帥仕相傌俥炮兵將士象馬車砲卒'['KABNRCPkabnrcp'.indexOf(letter)]),
  check: async (fen) => {
    try {
      await api('/api/xq/game', { fen, moves: [] });
      return null;
    } catch (error) {
      return error;
    }
  },
  onChange: ({ checking, error }) => {
    const node = $('editor-status');
    node.textContent = checking ? '' : error ? errorText(error, { bare: true }) : t('editor.legal');
    node.className = error ? 'error' : '';
    $('editor-play').disabled = $('editor-analyse').disabled = checking || !!error;
    $('board').dataset.editorFen = editor.fen();
    for (const r of document.querySelectorAll('input[name="editor-turn"]')) r.checked = r.value === editor.turn;
  },
});

function openEditor() {
  live.stop();
  document.body.classList.add('editing');
  $('editor').hidden = false;
  board.setArrows([]);
  relabelEditor();
  editor.open(state.view.fen);
  say(null);
}

function relabelEditor() {
  editor.relabel((letter) => letter === 'erase' ? t('editor.erase') : `${t(`side.${letter === letter.toUpperCase() ? 'red' : 'black'}`)} ${t(`piece.${PIECE_NAMES[letter.toLowerCase()]}`)}`);
}

function closeEditor() {
  editor.close();
  document.body.classList.remove('editing');
  $('editor').hidden = true;
}

async function confirmEditor(analyse) {
  if (!editor.valid) return;
  const fen = editor.fen();
  closeEditor();
  if (await show({ startFen: fen, tree: new GameTree(), node: null })) {
    if (analyse && !$('analyse').checked) {
      $('analyse').checked = true;
      updateAnalysis();
    }
  } else {
    render();
  }
}

// ---------- address and share link ----------

// The address of the game: the main line's share link (compact or the seed's form when the
// server gives one, else fen + ICCS moves), the ply on view when on the main line and not at its
// end, and the orientation when rotated.
function gameQuery() {
  const view = state.view;
  const onMain = state.tree.isMain(state.node);
  const main = state.tree.mainLine();
  const link = onMain ? view.link : state.mainLink;
  const params = new URLSearchParams(link || '');
  if (!link) {
    if (state.startFen) params.set('fen', state.startFen);
    if (main.length) params.set('moves', main.map((n) => n.iccs).join('.'));
  }
  const ply = state.tree.ply(state.node);
  if (onMain && ply !== main.length) params.set('ply', String(ply));
  if (state.flipped) params.set('flip', '1');
  const query = params.toString();
  return query ? `?${query}` : '';
}

async function updateAddress() {
  if (!state.tree.isMain(state.node)) {
    const moves = state.tree.mainLine().map((n) => n.iccs);
    const key = JSON.stringify([state.startFen, moves]);
    if (state.mainLinkKey !== key) {
      state.mainLinkKey = key;
      state.mainLink = null;
      try {
        const links = await api('/api/xq/link/encode', { fen: state.startFen ?? undefined, moves });
        if (state.mainLinkKey === key) state.mainLink = links.compact || links.seed || null;
      } catch {
        // fen + moves it is
      }
    }
  }
  const path = `/xq${gameQuery()}`;
  if (!state.addressLocked) history.replaceState(null, '', path);
  $('share-link').value = `${location.origin}${path}`;
}

// The move record as people paste it into chats: numbered lines in Chinese notation.
async function recordText() {
  const main = state.tree.mainLine();
  if (main.some((n) => !n.chinese)) {
    const view = await api('/api/xq/game', { fen: state.startFen ?? undefined, moves: main.map((n) => n.iccs) });
    view.moves.forEach((m, i) => Object.assign(main[i], { wxf: m.wxf, chinese: m.chinese }));
  }
  const tag = (k) => state.tags.find(([key]) => key === k)?.[1];
  const lines = [];
  if (tag('Red') || tag('Black')) lines.push(`${tag('Red') || '红方'}（红）对 ${tag('Black') || '黑方'}（黑）`);
  if (tag('Event')) lines.push(tag('Event'));
  const { isRed, number } = numbering();
  let row = '';
  main.forEach((n, i) => {
    const ply = i + 1;
    if (isRed(ply)) row = `${number(ply)}. ${n.chinese}`;
    else {
      row = row ? `${row} ${n.chinese}` : `${number(ply)}. … ${n.chinese}`;
      lines.push(row);
      row = '';
    }
  });
  if (row) lines.push(row);
  const result = tag('Result');
  if (result && result !== '*') lines.push({ '1-0': '红胜', '0-1': '黑胜', '1/2-1/2': '和棋' }[result] || result);
  return lines.join('\n');
}

// ---------- loading ----------

// A game from the address: a compact (g=) or seed (p=, r=, s=) link, or fen + moves. What is
// valid is kept, what is not is said, and the address stays as the user gave it.
async function loadFromAddress() {
  const params = new URLSearchParams(location.search);
  let startFen = null;
  let moves = [];
  let problem = null;
  if (params.has('g') || params.has('p')) {
    try {
      const game = await api('/api/xq/link', { link: location.search });
      startFen = game.start_fen;
      moves = game.moves;
    } catch (error) {
      problem = error;
    }
  } else {
    startFen = params.get('fen');
    moves = (params.get('moves') || '').split(/[.,\s]+/).filter(Boolean);
  }
  state.flipped = params.get('flip') === '1';
  const wanted = params.has('ply') ? Number(params.get('ply')) || 0 : Infinity;
  const open = (fen, list) => {
    const tree = GameTree.fromMoves(list);
    const line = tree.mainLine();
    const ply = Math.max(0, Math.min(line.length, wanted));
    return show({ startFen: fen, tree, node: ply === 0 ? tree.root : line[ply - 1] }, { user: false, keepMessage: true });
  };
  if (!problem && (await open(startFen, moves))) return;
  problem = problem || state.message?.error;
  state.addressLocked = true; // until the user acts, the address stays as given
  // Keep the moves before the first bad one.
  const bad = problem?.code === 'illegal_move' || problem?.code === 'bad_move' ? Number(problem.vars.ply) : 0;
  let ok = false;
  if (bad > 1) ok = await open(startFen, moves.slice(0, bad - 1));
  if (!ok) ok = await open(problem?.code === 'bad_fen' ? null : startFen, []);
  if (!ok) await open(null, []);
  say({ key: 'msg.linkProblem', vars: { why: errorText(problem), kept: bad > 1 ? bad - 1 : 0 } }, 'error');
}

// Opens a record (`{pgn: text}` or a file's `{bytes: base64}`, any format): tags, variations
// and comments. Returns the API's answer, or null when it did not open (the reason is shown).
async function importRecord(request) {
  try {
    const game = await api('/api/xq/record/import', request);
    const tree = GameTree.fromRecord(game.tree, game.comment);
    const tags = game.tags.filter(([k]) => !['Game', 'Format', 'FEN'].includes(k));
    if (game.result && !tags.some(([k]) => k === 'Result')) tags.push(['Result', game.result]);
    const line = tree.mainLine();
    if (await show({ startFen: game.start_fen, tree, node: line.at(-1) || tree.root })) {
      state.tags = tags;
      state.reviewed = null;
      $('review-box').hidden = true;
      render();
      say({ key: 'msg.pgnLoaded' });
      return game;
    }
  } catch (error) {
    say({ error }, 'error');
  }
  return null;
}

async function exportPgn() {
  const { pgn } = await api('/api/xq/record/export', {
    fen: state.startFen ?? undefined,
    tags: state.tags.filter(([, v]) => v),
    comment: state.tree.root.comment || undefined,
    tree: state.tree.toRecord(),
    notation: notation(),
  });
  return pgn;
}

// ---------- wiring ----------

function settings() {
  const set = localStorage.getItem('qi-piece-set') || 'chinese';
  $('piece-set').value = set;
  board.setPieceSet(set);
  const theme = localStorage.getItem('qi-theme') || 'wood';
  $('theme').value = theme;
  document.body.dataset.theme = theme;
  $('mute').checked = sound.isMuted();
  $('piece-set').addEventListener('change', (e) => {
    localStorage.setItem('qi-piece-set', e.target.value);
    board.setPieceSet(e.target.value);
  });
  $('theme').addEventListener('change', (e) => {
    localStorage.setItem('qi-theme', e.target.value);
    document.body.dataset.theme = e.target.value;
  });
  $('mute').addEventListener('change', (e) => sound.setMuted(e.target.checked));
}

function wire() {
  $('new').addEventListener('click', () => {
    state.tags = [];
    state.reviewed = null;
    $('review-box').hidden = true;
    show({ startFen: null, tree: new GameTree(), node: null });
  });
  $('undo').addEventListener('click', undo);
  $('engine').addEventListener('click', computerMove);
  $('hint').addEventListener('click', hint);
  $('engine-auto').addEventListener('change', () => state.view && render());
  $('flip').addEventListener('click', () => flip());
  $('first').addEventListener('click', () => goToPly(0));
  $('prev').addEventListener('click', () => goTo(state.node.parent));
  $('next').addEventListener('click', () => goTo(state.node.children[0]));
  $('last').addEventListener('click', () => goToPly(Infinity));
  $('moves').addEventListener('click', (e) => {
    const button = e.target.closest('.move');
    if (button) goTo(state.tree.node(button.dataset.node));
  });
  $('promote').addEventListener('click', () => {
    if (state.tree.promote(state.node)) render();
  });
  $('delete-move').addEventListener('click', async () => {
    if (state.node.parent) await removeMoves(state.node);
  });
  $('comment').addEventListener('input', (e) => {
    state.node.comment = e.target.value;
  });
  $('comment').addEventListener('change', () => renderMoves());
  $('notation').addEventListener('change', (e) => {
    state.notation = e.target.value;
    localStorage.setItem('qi-notation', state.notation);
    render();
    if (state.message) renderMessage();
  });
  const savedLevel = localStorage.getItem('qi-engine-level');
  $('engine-level').value = savedLevel in LEVELS ? savedLevel : 'normal';
  $('engine-level').addEventListener('change', (e) => localStorage.setItem('qi-engine-level', e.target.value));
  $('analyse').checked = localStorage.getItem('qi-analyse') === '1';
  $('multipv').value = localStorage.getItem('qi-multipv') || '1';
  $('analyse').addEventListener('change', (e) => {
    localStorage.setItem('qi-analyse', e.target.checked ? '1' : '0');
    if (state.view) render();
  });
  $('multipv').addEventListener('change', (e) => {
    localStorage.setItem('qi-multipv', e.target.value);
    state.analysisNode = null;
    if (state.view) updateAnalysis();
  });
  $('review').addEventListener('click', startReview);
  $('copy-link').addEventListener('click', async () => {
    say({ key: (await copyText($('share-link').value, $('share-link'))) ? 'msg.copied' : 'msg.copyFailed' });
  });
  $('copy-text').addEventListener('click', async () => {
    try {
      const text = await recordText();
      $('pgn').value = text;
      say({ key: (await copyText(text, $('pgn'))) ? 'msg.recordCopied' : 'msg.copyFailed' });
    } catch (error) {
      say({ error }, 'error');
    }
  });
  $('fen-load').addEventListener('click', async () => {
    if (await show({ startFen: $('fen').value.trim(), tree: new GameTree(), node: null })) say({ key: 'msg.fenLoaded' });
  });
  $('fen').addEventListener('keydown', (e) => {
    if (e.key === 'Enter') $('fen-load').click();
  });
  $('fen-copy').addEventListener('click', async () => {
    if (await copyText($('fen').value, $('fen'))) say({ key: 'msg.fenCopied' });
  });
  $('pgn-box').hidden = false;
  $('pgn-import').addEventListener('click', () => importRecord({ pgn: $('pgn').value }));
  $('pgn-export').addEventListener('click', async () => {
    try {
      $('pgn').value = await exportPgn();
      say(null);
    } catch (error) {
      say({ error }, 'error');
    }
  });
  $('pgn-download').addEventListener('click', async () => {
    try {
      const pgn = await exportPgn();
      const tag = (k) => state.tags.find(([key]) => key === k)?.[1];
      const name = [tag('Red'), tag('Black')].filter(Boolean).join('-') || 'xiangqi';
      const url = URL.createObjectURL(new Blob([pgn], { type: 'application/x-chess-pgn;charset=utf-8' }));
      const a = Object.assign(document.createElement('a'), { href: url, download: `${name}.pgn` });
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (error) {
      say({ error }, 'error');
    }
  });
  $('move-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = $('move-input').value.trim();
    if (!text || !state.view) return;
    try {
      const m = await api('/api/xq/move', { fen: state.startFen ?? undefined, moves: pathMoves(), text });
      if (await userMove(m.iccs)) $('move-input').value = '';
    } catch (error) {
      say({ error }, 'error');
    }
  });
  $('edit').addEventListener('click', openEditor);
  $('editor-cancel').addEventListener('click', () => {
    closeEditor();
    render();
  });
  $('editor-clear').addEventListener('click', () => editor.clear());
  $('editor-start').addEventListener('click', () => editor.start());
  $('editor-flip').addEventListener('click', () => flip());
  for (const r of document.querySelectorAll('input[name="editor-turn"]')) r.addEventListener('change', () => editor.setTurn(r.value));
  $('editor-play').addEventListener('click', () => confirmEditor(false));
  $('editor-analyse').addEventListener('click', () => confirmEditor(true));
  document.addEventListener('keydown', (e) => {
    if (e.target.closest('input, textarea, select, .xq-board .points') || e.altKey || e.ctrlKey || e.metaKey) return;
    if (editor.active) return;
    const actions = {
      ArrowLeft: () => goTo(state.node.parent),
      ArrowRight: () => goTo(state.node.children[0]),
      ArrowUp: () => goToPly(0),
      Home: () => goToPly(0),
      ArrowDown: () => goToPly(Infinity),
      End: () => goToPly(Infinity),
    };
    if (actions[e.key] && state.view) {
      e.preventDefault();
      actions[e.key]();
    }
  });
  onLangChange(() => {
    if (editor.active) {
      relabelEditor();
      editor.changed();
      return;
    }
    if (!state.view) return;
    render();
    renderMessage();
  });
}

function flip() {
  state.flipped = !state.flipped;
  board.setFlipped(state.flipped);
  $('board').dataset.flipped = String(state.flipped);
  if (state.view) renderAnalysis();
  updateAddress();
}

setupLangButton();
settings();
wire();
loadFromAddress();

// ---------- for other scripts (online play) ----------

// Loads a game (start FEN or null, ICCS moves) as a fresh tree, at its last move.
export async function loadGame({ fen = null, moves = [] } = {}) {
  const tree = GameTree.fromMoves(moves);
  return show({ startFen: fen, tree, node: tree.mainLine().at(-1) || tree.root });
}

// Plays a move that came from elsewhere (an opponent), sliding it like the computer's.
export function applyMove(iccs) {
  return userMove(iccs, { fromComputer: true });
}

// Calls fn(iccs, { fromComputer }) after each accepted move.
export function onMove(fn) {
  listeners.move.push(fn);
}

export function setFlipped(flipped) {
  if (state.flipped !== !!flipped) flip();
}

export function currentGame() {
  return { fen: state.startFen, moves: pathMoves(), node: state.node };
}


// ---------- for records.js and save-image.js ----------

export { importRecord, errorText };

// Shows an error (or null: clears the message), or a message by its i18n key, as the page's own.
export function showError(error) {
  say(error ? { error } : null, 'error');
}
export function notify(key, vars = {}) {
  say({ key, vars });
}

// What a picture of the board needs: the board as drawn (its pieces, last move, arrows, side
// and piece set), the start position and the whole line on view (through its last move).
export function pictureSource() {
  const line = lineOf(state.node);
  return { board, view: state.view, startFen: state.startFen, moves: line.map((n) => n.iccs), ply: state.tree.ply(state.node) };
}
