// @ts-check
// The Xiangqi page: a game tree (start position, moves with variations, the move on view), kept
// in the address bar as its main line. Every rule, notation, link and engine search comes from
// the Qi libraries running in the page as WebAssembly (api.js); the page only shows and asks.
// This file builds the page's parts (xq/*.js, each owning its own state) and wires them: the
// game on view (game.js), messages, the move list and headers, replay, the computer, analysis
// and review, the address, records (PGN, FEN, text), the position editor, keys, settings and
// the tools' tabs on a phone.

import { api } from './api.js';
import { $, copyText } from './dom.js';
import { XiangqiBoard } from './board.js';
import { t, setupLangButton, onLangChange } from './i18n.js';
import { GameTree } from './tree.js';
import { Game, STANDARD_FEN } from './xq/game.js';
import { Messages } from './xq/messages.js';
import { MoveList } from './xq/moves.js';
import { renderHeaders } from './xq/headers.js';
import { Replay } from './xq/replay.js';
import { Computer } from './xq/computer.js';
import { AnalysisPanel } from './xq/analysis-panel.js';
import { Address } from './xq/address.js';
import { Records } from './xq/records.js';
import { SetupPanel } from './xq/setup.js';
import { wireKeys } from './xq/keys.js';
import { wireSettings } from './xq/settings.js';
import { wireTabs } from './xq/tabs.js';
import { kingInCheck, playSound, renderStatus, renderDescription, describePoint } from './xq/board-view.js';

/** @typedef {import('./tree.js').MoveNode} MoveNode */

/** @type {((iccs: string, how: { fromComputer: boolean }) => void)[]} */
const moveListeners = [];

const board = new XiangqiBoard($('board'), {
  onMove: (iccs) => userMove(iccs),
  onIllegal: (iccs) => explainIllegal(iccs),
});
board.describe = describePoint;

const game = new Game({
  asking: () => {
    $('board').dataset.ready = 'false';
  },
  shown: (before, { slide, sound, user, keepMessage }) => {
    if (user) address.locked = false;
    if (!keepMessage) messages.say(null);
    render({ slide });
    if (sound) playSound(before, game.view);
  },
  failed: (error) => {
    messages.say({ error }, 'error');
    if (game.view) render(); // roll back an optimistic move
  },
});
const messages = new Messages(() => game.notation);
const moves = new MoveList(game);
const replay = new Replay(game, { againstComputer: () => computer.auto, renderMoves: () => moves.render() });
const computer = new Computer(game, {
  board,
  messages,
  play: (iccs) => userMove(iccs, { fromComputer: true }),
  render: () => render(),
  renderArrows: () => renderArrows(),
});
const analysis = new AnalysisPanel(game, {
  messages,
  editing: () => setup.active,
  goTo: (node) => replay.goTo(node),
  renderMoves: () => moves.render(),
  renderArrows: () => renderArrows(),
});
const address = new Address(game, messages);
const records = new Records(game, { messages, render: () => render(), clearReview: () => analysis.clearReview(), showBoard });
const setup = new SetupPanel(game, { board, messages, analysis, render: () => render(), flip: () => flip() });

/** @type {Promise<import('./xq/explorer-panel.js').ExplorerPanel> | null} the explorer and opening name, loaded on first use */
let explorer = null;

/** Names the opening by the move list and fills the explorer, loading them when first needed. */
function renderOpening() {
  if (!explorer && !game.node.parent && !/** @type {HTMLDetailsElement} */ ($('explorer-box')).open) {
    $('opening').hidden = true;
    return;
  }
  explorer ??= import('./xq/explorer-panel.js').then(async ({ ExplorerPanel, loadOpenings }) => {
    await loadOpenings();
    return new ExplorerPanel(game, {
      play: (iccs) => userMove(iccs),
      open: (typical) => openGame(typical),
      failed: (error) => messages.say({ error }, 'error'),
    });
  });
  explorer.then((panel) => panel.update(), (error) => {
    explorer = null;
    messages.say({ error }, 'error');
  });
}

/**
 * Opens a game (a typical game of the explorer) at a ply: the position after that ply's move.
 * @param {{ fen: string, moves: string[], ply: number }} opened
 */
function openGame({ fen, moves: list, ply }) {
  game.tags = [];
  analysis.clearReview();
  const tree = GameTree.fromMoves(list);
  return game.show({ startFen: fen === STANDARD_FEN ? null : fen, tree, node: tree.mainLine()[ply] || tree.root }, { user: true });
}

// ---------- playing ----------

/**
 * A move made on the board or typed: shown at once, then confirmed by the rules (or rolled
 * back with the reason). Returns whether it was played.
 * @param {string} iccs
 * @param {{ fromComputer?: boolean }} [how]
 */
async function userMove(iccs, { fromComputer = false } = {}) {
  if (!game.view || setup.active) return false;
  const parent = game.node;
  const existed = parent.children.some((c) => c.iccs === iccs);
  board.playLocally(iccs);
  const child = game.tree.add(parent, iccs);
  child.byComputer = fromComputer;
  // The piece already moved (playLocally); the answer only confirms it.
  const ok = await game.show({ node: child }, { sound: true });
  if (!ok) {
    if (!existed) game.tree.remove(child);
    if (game.view) moves.render();
    return false;
  }
  for (const fn of moveListeners) fn(iccs, { fromComputer });
  if (!fromComputer && computer.auto) await computer.move();
  return true;
}

/**
 * Why a move the user tried cannot be played, from the rules library.
 * @param {string} iccs
 */
async function explainIllegal(iccs) {
  try {
    await api('/api/xq/move', { fen: game.fen, moves: game.pathMoves(), text: iccs });
    messages.say({ key: 'msg.illegal', vars: { move: iccs } }, 'error');
  } catch (error) {
    messages.say({ error }, 'error');
  }
}

function flip() {
  game.flipped = !game.flipped;
  board.setFlipped(game.flipped);
  $('board').dataset.flipped = String(game.flipped);
  if (game.view) analysis.render();
  address.update();
}

// ---------- drawing ----------

/** Redraws everything for the move on view. @param {{ slide?: string | null }} [options] */
function render({ slide = null } = {}) {
  const view = game.view;
  const node = game.node;
  board.setFlipped(game.flipped);
  // A finished game takes no more moves (the position may still have legal ones, e.g. after a draw).
  board.interactive = !view.status.over && !setup.active;
  board.setPosition({ pieces: view.board, legal: view.legal, last: view.last, checkSquare: kingInCheck(view), slide });
  const dataset = $('board').dataset;
  dataset.fen = view.fen;
  dataset.ply = String(view.ply);
  dataset.plies = String(view.plies);
  dataset.flipped = String(game.flipped);
  dataset.ready = 'true';
  renderStatus(view);
  moves.render();
  renderHeaders(game);
  renderDescription(board, view, node.parent ? game.moveText(node) : null);
  renderArrows();
  $('fen').value = view.fen;
  $('comment').value = node.comment || '';
  $('comment').disabled = !node.parent;
  $('ply-label').textContent = `${view.ply} / ${view.plies}`;
  $('first').disabled = $('prev').disabled = view.ply === 0;
  $('next').disabled = $('last').disabled = view.ply === view.plies;
  const atEnd = !node.children.length;
  $('undo').disabled = !node.parent || !atEnd;
  $('undo').title = atEnd ? '' : t('msg.undoAtEnd');
  $('engine').disabled = view.status.over;
  $('hint').hidden = !computer.auto;
  $('promote').disabled = !game.tree.branchOf(node);
  $('delete-move').disabled = !node.parent;
  analysis.update();
  analysis.renderReview();
  address.update();
  renderOpening();
}

/**
 * Brings the board back into view when the page was scrolled past it (on a phone, typing in the
 * record box below it): a record just opened is to be seen. Beside the board (it stays in view
 * there) and where it shows whole, nothing moves.
 */
function showBoard() {
  if ($('board').getBoundingClientRect().top < 0) window.scrollTo({ top: 0 });
}

function renderArrows() {
  board.setArrows([...analysis.arrows(), ...computer.arrows()]);
}

// ---------- wiring ----------

function wire() {
  $('new').addEventListener('click', () => {
    game.tags = [];
    analysis.clearReview();
    game.show({ startFen: null, tree: new GameTree(), node: null });
  });
  $('undo').addEventListener('click', () => replay.undo());
  $('engine').addEventListener('click', () => computer.move());
  $('hint').addEventListener('click', () => computer.showHint());
  $('engine-auto').addEventListener('change', () => game.view && render());
  $('flip').addEventListener('click', () => flip());
  $('first').addEventListener('click', () => replay.goToPly(0));
  $('prev').addEventListener('click', () => replay.goTo(game.node.parent));
  $('next').addEventListener('click', () => replay.goTo(game.node.children[0]));
  $('last').addEventListener('click', () => replay.goToPly(Infinity));
  $('moves').addEventListener('click', (/** @type {MouseEvent} */ e) => {
    const button = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest('.move'));
    if (button) replay.goTo(game.tree.node(button.dataset.node));
  });
  $('promote').addEventListener('click', () => {
    if (game.tree.promote(game.node)) render();
  });
  $('delete-move').addEventListener('click', async () => {
    if (game.node.parent) await replay.remove(game.node);
  });
  $('comment').addEventListener('input', (/** @type {any} */ e) => {
    game.node.comment = e.target.value;
  });
  $('comment').addEventListener('change', () => moves.render());
  $('notation').addEventListener('change', (/** @type {any} */ e) => {
    game.notation = e.target.value;
    localStorage.setItem('qi-notation', game.notation);
    render();
    if (messages.message) messages.render();
  });
  computer.wireLevel();
  $('analyse').checked = localStorage.getItem('qi-analyse') === '1';
  $('multipv').value = localStorage.getItem('qi-multipv') || '1';
  $('analyse').addEventListener('change', (/** @type {any} */ e) => {
    localStorage.setItem('qi-analyse', e.target.checked ? '1' : '0');
    if (game.view) render();
  });
  $('multipv').addEventListener('change', (/** @type {any} */ e) => {
    localStorage.setItem('qi-multipv', e.target.value);
    analysis.restart();
    if (game.view) analysis.update();
  });
  $('review').addEventListener('click', () => analysis.startReview());
  // The share link names the sharer's language only when asked to.
  $('share-lang').addEventListener('change', () => address.update());
  $('copy-embed').addEventListener('click', async () => {
    messages.say({ key: (await copyText($('embed-code').value, $('embed-code'))) ? 'msg.copied' : 'msg.copyFailed' });
  });
  $('copy-link').addEventListener('click', async () => {
    messages.say({ key: (await copyText($('share-link').value, $('share-link'))) ? 'msg.copied' : 'msg.copyFailed' });
  });
  records.wire();
  $('explorer-box').addEventListener('toggle', () => game.view && renderOpening());
  wireKeys(game, { replay, messages, editing: () => setup.active, play: (iccs) => userMove(iccs) });
  setup.wire();
  onLangChange(() => {
    if (game.view) address.update();
    if (setup.active) {
      setup.relabelAll();
      return;
    }
    if (!game.view) return;
    render();
    messages.render();
  });
}

wireTabs($('tool-tabs'));
setupLangButton();
wireSettings(board);
wire();
// The home page's "Play the computer": the computer answers each move from the start.
if (new URLSearchParams(location.search).get('play') === 'computer') $('engine-auto').checked = true;
address.load();

// ---------- for other scripts ----------

/**
 * Loads a game (start FEN or null, ICCS moves) as a fresh tree, at its last move.
 * @param {{ fen?: string | null, moves?: string[] }} [loaded]
 */
export async function loadGame({ fen = null, moves: list = [] } = {}) {
  const tree = GameTree.fromMoves(list);
  return game.show({ startFen: fen, tree, node: tree.mainLine().at(-1) || tree.root });
}

/**
 * Plays a move that came from elsewhere (an opponent), sliding it like the computer's.
 * @param {string} iccs
 */
export function applyMove(iccs) {
  return userMove(iccs, { fromComputer: true });
}

/**
 * Calls fn(iccs, { fromComputer }) after each accepted move.
 * @param {(iccs: string, how: { fromComputer: boolean }) => void} fn
 */
export function onMove(fn) {
  moveListeners.push(fn);
}

/** @param {boolean} flipped */
export function setFlipped(flipped) {
  if (game.flipped !== !!flipped) flip();
}

export function currentGame() {
  return { fen: game.startFen, moves: game.pathMoves(), node: game.node };
}

// ---------- for save-image.js ----------

/** @param {any} error */
export function errorText(error) {
  return messages.errorText(error);
}

/**
 * Shows an error (or null: clears the message) as the page's own.
 * @param {any} error
 */
export function showError(error) {
  messages.say(error ? { error } : null, 'error');
}

/**
 * Shows a message by its i18n key.
 * @param {string} key
 * @param {Record<string, any>} [vars]
 */
export function notify(key, vars = {}) {
  messages.say({ key, vars });
}

/**
 * What a picture of the board needs: the board as drawn (its pieces, last move, arrows, side
 * and piece set), the start position and the whole line on view (through its last move).
 */
export function pictureSource() {
  const line = game.tree.line(game.node);
  return { board, view: game.view, startFen: game.startFen, moves: line.map((n) => n.iccs), ply: game.tree.ply(game.node) };
}
