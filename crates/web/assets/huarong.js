// @ts-check
// The Huarong Dao page: pick or build a layout, move pieces, count steps, watch the solution.
// The layouts' rules (which moves exist, the solution) come from the Huarong library in the
// page (api.js, WebAssembly).

import { api } from './api.js';
import { $, svgEl as el, copyText } from './dom.js';
import { t, setupLangButton, onLangChange } from './i18n.js';
import { showQr } from './qr.js';

const CELL = 100;
const MARGIN = 20;
const WIDTH = MARGIN * 2 + CELL * 4;
const HEIGHT = MARGIN * 2 + CELL * 5;
const SIZE = { C: [2, 2], V: [2, 1], H: [1, 2], S: [1, 1] }; // [height, width]
const STEP_MS = [700, 450, 280, 150, 70]; // by the speed slider, slow to fast
// Difficulty slider positions: [min, max] minimum steps.
const LEVELS = [[10, 30], [31, 60], [61, 90], [91, 120], [121, 138]];
const DAILY = [40, 100];
/** localStorage as JSON, forgiving (private mode keeps nothing). */
const store = {
  /**
   * @param {string} key
   * @param {any} fallback
   */
  get(key, fallback) {
    try {
      return JSON.parse(localStorage.getItem(key)) ?? fallback;
    } catch {
      return fallback;
    }
  },
  /**
   * @param {string} key
   * @param {any} value
   */
  set(key, value) {
    try {
      localStorage.setItem(key, JSON.stringify(value));
    } catch {
      // private mode: nothing is kept
    }
  },
};

const state = {
  view: null, // the API's description of the current layout
  start: null, // layout text of the last chosen or loaded layout (Reset goes back to it)
  startCode: null, // its share code: personal bests and the solved list are kept by it
  name: null, // { key, vars } or { text }: the layout's title, kept across moves
  classic: '', // share code of the classic chosen in the list
  minimum: null, // minimum steps from the start, when known
  history: [], // moves made: { layout (before), from, to }, for Undo
  redo: [], // moves undone: { layout (after), from, to }, for Redo
  steps: 0,
  selected: null, // top-left cell of the selected piece
  hint: null, // target cell of the hinted move
  solution: null, // { steps, path, index } from the solver; index = steps of it played
  playing: null, // { stop: bool } while the solution plays
  assisted: false, // the solver's moves were used since the start
  editing: null, // { placements: [{ shape, cell }], shape } in the editor
  keepAddress: false, // leave the address bar as the user gave it (a bad link) until they act
  timer: { started: null, elapsed: 0 },
  message: null,
};

// The board: a tray with the exit below the middle two columns.
const svg = el('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'hr-board', role: 'img', 'aria-label': 'Huarong Dao board' });
$('hr-board').appendChild(svg);
el('rect', { x: 0, y: 0, width: WIDTH, height: HEIGHT, rx: 14, class: 'tray' }, svg);
el('rect', { x: MARGIN + CELL, y: HEIGHT - MARGIN, width: CELL * 2, height: MARGIN, class: 'exit' }, svg);
const cellLayer = el('g', {}, svg);
for (let cell = 0; cell < 20; cell++) {
  const [x, y] = cellXY(cell);
  el('rect', { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, class: 'cell', 'data-cell': cell }, cellLayer);
}
const ghostLayer = el('g', {}, svg);
const pieceLayer = el('g', {}, svg);

/**
 * The top-left corner of a cell (0..19, row by row) on the board.
 * @param {number} cell
 * @returns {[number, number]}
 */
function cellXY(cell) {
  return [MARGIN + (cell % 4) * CELL, MARGIN + Math.floor(cell / 4) * CELL];
}

/**
 * @param {{ key?: string, vars?: Record<string, any>, text?: string, error?: any } | null} message
 * @param {string} [kind] 'info' or 'error'
 */
function say(message, kind = 'info') {
  state.message = message ? { ...message, kind } : null;
  const m = state.message;
  $('message').textContent = !m ? '' : m.text ?? t(m.key, m.vars);
  $('message').className = m ? m.kind : '';
}

// The apps' names: 关羽 is the first horizontal general, 张飞, 赵云, 马超 and 黄忠 the vertical
// ones in board order, any further general takes a name left over. Names follow the pieces as
// they move (the label is set when the pieces are laid out, never on a slide).
const GENERALS = ['guan', 'zhang', 'zhao', 'ma', 'huang'];

/** @param {{ piece: string, cell: number }[]} pieces */
function pieceNames(pieces) {
  const names = new Map();
  const left = [...GENERALS];
  const take = (name) => {
    const i = left.indexOf(name);
    return i >= 0 ? left.splice(i, 1)[0] : left.shift();
  };
  const firstH = pieces.find((p) => p.piece === 'H');
  if (firstH) names.set(firstH.cell, take('guan'));
  for (const p of pieces.filter((q) => q.piece === 'V')) names.set(p.cell, take('zhang'));
  for (const p of pieces.filter((q) => q.piece === 'H' && q !== firstH)) names.set(p.cell, take('guan'));
  return (p) => (p.piece === 'C' || p.piece === 'S' ? p.piece : names.get(p.cell) ?? null);
}

/** @param {string} name */
function label(name) {
  return name ? t(`hr.name.${name}`) : '将';
}

/**
 * @param {string} piece its shape: C, V, H or S
 * @param {number} cell its top-left cell
 * @param {string} name
 */
function pieceNode(piece, cell, name) {
  const [h, w] = SIZE[piece];
  const g = el('g', { class: `block ${piece}`, 'data-piece': piece, 'data-cell': cell, 'data-name': name ?? '' });
  el('rect', { x: 4, y: 4, width: w * CELL - 8, height: h * CELL - 8, rx: 12 }, g);
  const text = el('text', { x: (w * CELL) / 2, y: (h * CELL) / 2 }, g);
  text.textContent = label(name);
  if (piece === 'H' || piece === 'V') text.classList.add(piece === 'V' ? 'vertical' : 'horizontal');
  placeNode(g, cell);
  return g;
}

/**
 * @param {SVGElement} node
 * @param {number} cell
 */
function placeNode(node, cell) {
  const [x, y] = cellXY(cell);
  node.dataset.cell = String(cell);
  node.style.transform = `translate(${x}px, ${y}px)`;
}

/** @param {{ piece: string, cell: number }[]} pieces */
function renderPieces(pieces) {
  const nameOf = pieceNames(pieces);
  pieceLayer.replaceChildren(...pieces.map((p) => pieceNode(p.piece, p.cell, nameOf(p))));
  renderSelection();
}

function relabel() {
  for (const node of pieceLayer.children) node.querySelector('text').textContent = label(node.dataset.name || null);
}

function renderSelection() {
  ghostLayer.replaceChildren();
  for (const node of pieceLayer.children) node.classList.toggle('selected', Number(node.dataset.cell) === state.selected);
  if (state.selected === null || !state.view) return;
  for (const m of state.view.moves.filter((mv) => mv.from === state.selected)) {
    const [h, w] = SIZE[m.piece];
    const [x, y] = cellXY(m.to);
    el('rect', {
      x: x + 6, y: y + 6, width: w * CELL - 12, height: h * CELL - 12, rx: 12,
      class: m.to === state.hint ? 'ghost hint' : 'ghost', 'data-to': m.to,
    }, ghostLayer);
  }
}

/** @param {number} ms */
function clock(ms) {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function elapsed() {
  const tm = state.timer;
  return tm.elapsed + (tm.started === null ? 0 : Date.now() - tm.started);
}

function renderTimer() {
  $('timer').textContent = clock(elapsed());
}
setInterval(() => state.timer.started !== null && renderTimer(), 500);

/** @param {{ key?: string, vars?: Record<string, any>, text?: string } | null} name */
function title(name) {
  return !name ? '' : name.text ?? t(name.key, name.vars);
}

function renderStatus() {
  const view = state.view;
  const board = $('hr-board');
  board.dataset.layout = view.layout;
  board.dataset.steps = String(state.steps);
  board.dataset.solved = String(view.solved);
  board.dataset.solvedBy = view.solved ? (state.assisted ? 'computer' : 'player') : '';
  $('steps').textContent = String(state.steps);
  $('layout-name').textContent = title(state.name);
  $('layout-text').value = view.layout;
  renderTimer();
  const status = $('status');
  if (view.solved && state.steps > 0) {
    if (state.assisted) {
      status.textContent = t('hr.computerSolved', { steps: state.steps });
      status.className = '';
    } else {
      status.textContent = state.minimum === null
        ? t('hr.youSolvedPlain', { steps: state.steps })
        : t('hr.youSolved', { steps: state.steps, min: state.minimum });
      status.className = 'over';
    }
  } else if (state.solution && state.solution.steps !== null && !view.solved) {
    status.textContent = t('hr.minimum', { steps: state.solution.steps - state.solution.index });
    status.className = '';
  } else {
    status.textContent = '';
    status.className = '';
  }
  const best = store.get(`qi-hr-best:${state.startCode}`, null);
  $('best').textContent = best ? t('hr.best', { steps: best.steps, time: clock(best.ms) }) : '';
  $('solved-count').textContent = t('hr.solvedCount', { count: store.get('qi-hr-solved', []).length });
  const editing = !!state.editing;
  $('undo').disabled = state.history.length === 0 || !!state.playing || editing;
  $('redo').disabled = state.redo.length === 0 || !!state.playing || editing;
  $('hint').disabled = view.solved || !!state.playing || editing;
  $('solve').disabled = editing;
  $('reset').disabled = editing;
  $('edit').disabled = editing;
  $('solve').textContent = t(state.playing ? 'hr.stop' : 'hr.solve');
  const sol = state.solution;
  $('solution-controls').hidden = !(sol && sol.steps);
  if (sol) {
    $('sol-back').disabled = sol.index === 0 || editing;
    $('sol-forward').disabled = sol.index >= sol.path.length || editing;
    $('sol-play').textContent = t(state.playing ? 'hr.pause' : 'hr.play');
    $('sol-play').disabled = (sol.index >= sol.path.length && !state.playing) || editing;
  }
  const params = new URLSearchParams({ l: view.code });
  if (!state.keepAddress) history.replaceState(null, '', `/huarong?${params}`);
  $('share-link').value = `${location.origin}/huarong?${params}`;
  showQr($('share-qr'), $('share-link').value, t('share.qr'));
  $('classic').value = state.classic;
}

// Shows a layout the server has described; `fresh` rebuilds the pieces instead of moving one.
/**
 * @param {any} view the API's description of a layout
 * @param {{ fresh?: boolean }} [options]
 */
function showView(view, { fresh = true } = {}) {
  state.view = view;
  state.selected = null;
  state.hint = null;
  if (fresh) renderPieces(view.pieces);
  else renderSelection();
  renderStatus();
  $('hr-board').dataset.ready = 'true';
}

/** @param {string} layout */
async function describe(layout) {
  return api('/api/huarong/layout', { layout });
}

// Starts over from a layout (text or share code): steps, history, solution and timer cleared.
// `name` is its title ({ key, vars } or { text }), `minimum` its minimum steps when known.
/**
 * @param {string} layout
 * @param {{ name?: { key?: string, vars?: Record<string, any>, text?: string } | null, classic?: string, minimum?: number | null }} [options]
 */
async function load(layout, { name = null, classic = '', minimum = null } = {}) {
  stopPlaying();
  try {
    const view = await describe(layout);
    cancelEditing();
    state.start = view.layout;
    state.startCode = view.code;
    state.name = name;
    state.classic = classic;
    state.minimum = minimum;
    state.history = [];
    state.redo = [];
    state.steps = 0;
    state.solution = null;
    state.assisted = false;
    state.timer = { started: null, elapsed: 0 };
    showView(view);
    say(null);
    return true;
  } catch (error) {
    say({ text: error.message }, 'error');
    return false;
  }
}

// The user acted: from now on the address bar follows the layout.
function acted() {
  state.keepAddress = false;
}

// Moves one piece on screen (animated by CSS) from one top-left cell to another.
/**
 * @param {number} from
 * @param {number} to
 */
function slide(from, to) {
  const node = [...pieceLayer.children].find((n) => Number(n.dataset.cell) === from);
  if (node) placeNode(node, to);
}

// The player solved it: stop the clock, keep the personal best and the solved list.
function finished() {
  const tm = state.timer;
  if (tm.started !== null) {
    tm.elapsed += Date.now() - tm.started;
    tm.started = null;
  }
  if (state.assisted || !state.startCode) return;
  const key = `qi-hr-best:${state.startCode}`;
  const best = store.get(key, null);
  const mine = { steps: state.steps, ms: tm.elapsed };
  if (!best || mine.steps < best.steps || (mine.steps === best.steps && mine.ms < best.ms)) store.set(key, mine);
  const solved = store.get('qi-hr-solved', []);
  if (!solved.includes(state.startCode)) store.set('qi-hr-solved', [...solved, state.startCode]);
}

// Makes one move (the player's, a redo or a solution step) and asks the server for the layout.
/**
 * @param {{ piece: string, from: number, to: number, layout?: string }} move
 * @param {{ from?: 'player' | 'redo' | 'solution' | string }} [options]
 */
async function step(move, { from = 'player' } = {}) {
  const view = await describe(move.layout);
  state.history.push({ layout: state.view.layout, from: move.from, to: move.to });
  state.steps += 1;
  if (from === 'solution') state.assisted = true;
  if (from !== 'redo') state.redo = [];
  if (from === 'player' && state.solution) {
    // Off the solution's path unless it is the solution's own next move.
    const next = state.solution.path[state.solution.index];
    if (next && next.layout === move.layout) state.solution.index += 1;
    else state.solution = null;
  }
  if (state.timer.started === null && !view.solved) state.timer.started = Date.now();
  slide(move.from, move.to);
  showView(view, { fresh: false });
  if (view.solved) finished();
  renderStatus();
}

// Runs one board action at a time (not while the solution plays or the editor is open); a
// failure is shown, after `rollback` has put back what the action took.
/**
 * @param {() => Promise<any>} action
 * @param {() => void} [rollback]
 */
async function exclusive(action, rollback = () => {}) {
  if (state.playing || state.editing || state.busy) return;
  state.busy = true;
  acted();
  try {
    await action();
    say(null);
  } catch (error) {
    rollback();
    say({ text: error.message }, 'error');
  } finally {
    state.busy = false;
  }
}

/** @param {{ piece: string, from: number, to: number, layout?: string }} move */
function play(move) {
  return exclusive(() => step(move), () => renderPieces(state.view.pieces));
}

function undo() {
  if (!state.history.length) return undefined;
  let last = null;
  return exclusive(async () => {
    last = state.history.pop();
    const view = await describe(last.layout);
    state.redo.push({ layout: state.view.layout, from: last.from, to: last.to });
    state.steps -= 1;
    if (state.solution) {
      if (state.solution.index > 0) state.solution.index -= 1;
      else state.solution = null;
    }
    slide(last.to, last.from);
    showView(view, { fresh: false });
  }, () => last && state.history.push(last));
}

function redo() {
  if (!state.redo.length) return undefined;
  let next = null;
  return exclusive(async () => {
    next = state.redo.pop();
    await step(next, { from: 'redo' });
  }, () => next && state.redo.push(next));
}

function stopPlaying() {
  if (state.playing) state.playing.stop = true;
}

/**
 * @param {number} ms
 * @returns {Promise<void>}
 */
function wait(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// Asks the solver for a shortest solution from here (kept while the player follows it).
async function fetchSolution() {
  say({ key: 'hr.solving' });
  const solution = await api('/api/huarong/solve', { layout: state.view.layout });
  say(null);
  state.solution = { steps: solution.steps, path: solution.path, index: 0 };
  return solution;
}

// Plays the solution from where it stands, one step every STEP_MS of the speed slider.
async function playSolution() {
  const sol = state.solution;
  if (!sol || state.playing) return;
  const run = { stop: false };
  state.playing = run;
  state.selected = null;
  renderSelection();
  renderStatus();
  $('hr-board').dataset.animating = 'true';
  try {
    while (!run.stop && sol.index < sol.path.length && state.solution === sol) {
      await wait(STEP_MS[Number($('speed').value) - 1] ?? 280);
      if (run.stop) break;
      const next = sol.path[sol.index];
      sol.index += 1;
      await step(next, { from: 'solution' });
    }
  } catch (error) {
    say({ text: error.message }, 'error');
  } finally {
    state.playing = null;
    $('hr-board').dataset.animating = 'false';
    renderStatus();
  }
}

async function solve() {
  if (state.playing) {
    stopPlaying();
    return;
  }
  if (state.editing) {
    say({ key: 'hr.finishEditing' }, 'error');
    return;
  }
  acted();
  try {
    const solution = await fetchSolution();
    if (solution.steps === null) {
      say({ key: 'hr.unsolvable' }, 'error');
      renderStatus();
      return;
    }
  } catch (error) {
    say({ text: error.message }, 'error');
    return;
  }
  await playSolution();
}

/** @param {boolean} forward */
function solutionStep(forward) {
  const sol = state.solution;
  if (!sol) return undefined;
  if (!forward) return undo();
  if (sol.index >= sol.path.length) return undefined;
  return exclusive(async () => {
    const next = sol.path[sol.index];
    sol.index += 1;
    await step(next, { from: 'solution' });
  }, () => {
    sol.index -= 1;
  });
}

async function hint() {
  if (state.playing || state.editing || state.view.solved) return;
  acted();
  try {
    const answer = await api('/api/huarong/hint', { layout: state.view.layout });
    if (!answer.move) {
      say({ key: answer.steps === 0 ? 'hr.hintSolved' : 'hr.unsolvable' }, answer.steps === 0 ? 'info' : 'error');
      return;
    }
    state.selected = answer.move.from;
    state.hint = answer.move.to;
    renderSelection();
    const node = [...pieceLayer.children].find((n) => Number(n.dataset.cell) === answer.move.from);
    const piece = node ? node.querySelector('text').textContent : answer.move.piece;
    say({ key: 'hr.hintMove', vars: { piece, steps: answer.steps } });
  } catch (error) {
    say({ text: error.message }, 'error');
  }
}

/** @param {boolean} daily today's puzzle (the same for everyone) rather than a random one */
async function newPuzzle(daily) {
  acted();
  const date = new Date().toISOString().slice(0, 10);
  const [min, max] = daily ? DAILY : LEVELS[Number($('difficulty').value)];
  const body = daily ? { min, max, seed: `daily-${date}` } : { min, max, pieces: $('pieces').value };
  try {
    const puzzle = await api('/api/huarong/puzzle', body);
    const name = daily ? { key: 'hr.dailyName', vars: { date } } : { key: 'hr.puzzle', vars: { steps: puzzle.steps } };
    await load(puzzle.code, { name, minimum: puzzle.steps });
  } catch (error) {
    say({ text: error.message }, 'error');
  }
}

function renderDifficulty() {
  $('difficulty-name').textContent = t(`hr.level.${$('difficulty').value}`);
}

// Pointer handling: drag a piece to where it can go, or click it and then a highlighted place.
let drag = null;

/** @param {PointerEvent} event */
function svgPoint(event) {
  return new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
}

/**
 * @param {DOMPoint} p
 * @returns {number | null}
 */
function cellAt(p) {
  const col = Math.floor((p.x - MARGIN) / CELL);
  const row = Math.floor((p.y - MARGIN) / CELL);
  return col >= 0 && col < 4 && row >= 0 && row < 5 ? row * 4 + col : null;
}

svg.addEventListener('pointerdown', (event) => {
  if (state.playing || !state.view) return;
  const p = svgPoint(event);
  if (state.editing) {
    editAt(cellAt(p));
    return;
  }
  const ghost = event.target.closest('.ghost');
  const block = event.target.closest('.block');
  if (!block || ghost) {
    // A click on an empty place while a piece is selected: go there if the piece can.
    const cell = ghost ? Number(ghost.dataset.to) : cellAt(p);
    if (state.selected !== null && cell !== null) {
      const moves = state.view.moves.filter((m) => m.from === state.selected);
      const exact = moves.find((m) => m.to === cell);
      const covering = moves.find((m) => covers(m.piece, m.to, cell));
      if (exact || covering) play(exact || covering);
    }
    return;
  }
  event.preventDefault();
  const cell = Number(block.dataset.cell);
  state.selected = cell;
  renderSelection();
  drag = { node: block, cell, start: p, moved: false };
  svg.setPointerCapture?.(event.pointerId);
});

svg.addEventListener('pointermove', (event) => {
  if (!drag) return;
  const p = svgPoint(event);
  const dx = p.x - drag.start.x;
  const dy = p.y - drag.start.y;
  if (!drag.moved && Math.hypot(dx, dy) < 8) return;
  drag.moved = true;
  const [x, y] = cellXY(drag.cell);
  drag.node.classList.add('dragging');
  drag.node.style.transition = 'none';
  drag.node.style.transform = `translate(${x + dx}px, ${y + dy}px)`;
});

svg.addEventListener('pointerup', (event) => {
  if (!drag) return;
  const d = drag;
  drag = null;
  d.node.classList.remove('dragging');
  d.node.style.transition = '';
  if (!d.moved) return;
  const p = svgPoint(event);
  const col = (d.cell % 4) + Math.round((p.x - d.start.x) / CELL);
  const row = Math.floor(d.cell / 4) + Math.round((p.y - d.start.y) / CELL);
  const to = col >= 0 && col < 4 && row >= 0 && row < 5 ? row * 4 + col : null;
  const move = state.view.moves.find((m) => m.from === d.cell && m.to === to);
  if (move) {
    play(move);
  } else {
    placeNode(d.node, d.cell);
  }
});

/**
 * Whether a piece of shape `piece` at `topLeft` covers `cell`.
 * @param {string} piece
 * @param {number} topLeft
 * @param {number} cell
 */
function covers(piece, topLeft, cell) {
  const [h, w] = SIZE[piece];
  const r = Math.floor(cell / 4) - Math.floor(topLeft / 4);
  const c = (cell % 4) - (topLeft % 4);
  return r >= 0 && r < h && c >= 0 && c < w;
}

// The editor: placements on a grid, checked by the server when done.
function startEditing() {
  if (state.playing) return;
  acted();
  state.editing = { placements: state.view.pieces.map((p) => ({ shape: p.piece, cell: p.cell })), shape: 'S' };
  state.selected = null;
  $('editor').hidden = false;
  renderEditor();
  renderStatus();
}

// Leaves the editor without using its layout (another layout was chosen).
function cancelEditing() {
  if (!state.editing) return;
  state.editing = null;
  $('editor').hidden = true;
}

function renderEditor() {
  const ed = state.editing;
  renderPieces(ed.placements.map((p) => ({ piece: p.shape, cell: p.cell })));
  for (const b of $('palette').querySelectorAll('button')) b.setAttribute('aria-pressed', String(b.dataset.shape === ed.shape));
}

/** @param {number | null} cell */
function editAt(cell) {
  const ed = state.editing;
  if (cell === null) return;
  const hit = ed.placements.findIndex((p) => covers(p.shape, p.cell, cell));
  if (hit >= 0) {
    ed.placements.splice(hit, 1);
  } else {
    const [h, w] = SIZE[ed.shape];
    const row = Math.floor(cell / 4);
    const col = cell % 4;
    if (row + h > 5 || col + w > 4) return;
    for (let r = row; r < row + h; r++) {
      for (let c = col; c < col + w; c++) if (ed.placements.some((p) => covers(p.shape, p.cell, r * 4 + c))) return;
    }
    ed.placements.push({ shape: ed.shape, cell });
  }
  renderEditor();
}

function editorText() {
  const grid = Array(20).fill('.');
  for (const p of state.editing.placements) {
    const [h, w] = SIZE[p.shape];
    for (let r = 0; r < h; r++) for (let c = 0; c < w; c++) grid[p.cell + r * 4 + c] = p.shape;
  }
  const rows = [];
  for (let r = 0; r < 5; r++) rows.push(grid.slice(r * 4, r * 4 + 4).join(''));
  return rows.join('/');
}

async function finishEditing() {
  acted();
  await load(editorText());
}

async function loadClassics() {
  try {
    const { classics } = await api('/api/huarong/classics');
    const select = $('classic');
    select.replaceChildren(new Option('—', ''));
    for (const c of classics) {
      const steps = c.steps === null ? '∞' : c.steps;
      select.appendChild(new Option(`${c.name} (${c.pinyin}) · ${steps}`, c.code));
    }
    return classics;
  } catch (error) {
    say({ text: error.message }, 'error');
    return [];
  }
}

let classics = [];

/** @param {{ name: string, pinyin: string, layout: string, code: string, steps: number | null }} c */
function classicLoad(c) {
  return load(c.code, { name: { text: c.name }, classic: c.code, minimum: c.steps });
}

async function main() {
  setupLangButton();
  $('undo').addEventListener('click', undo);
  $('redo').addEventListener('click', redo);
  $('hint').addEventListener('click', hint);
  $('reset').addEventListener('click', () => {
    acted();
    if (state.start) load(state.start, { name: state.name, classic: state.classic, minimum: state.minimum });
  });
  $('solve').addEventListener('click', solve);
  $('sol-back').addEventListener('click', () => solutionStep(false));
  $('sol-forward').addEventListener('click', () => solutionStep(true));
  $('sol-play').addEventListener('click', () => (state.playing ? stopPlaying() : playSolution()));
  $('edit').addEventListener('click', startEditing);
  $('done').addEventListener('click', finishEditing);
  $('clear').addEventListener('click', () => {
    state.editing.placements = [];
    renderEditor();
  });
  $('palette').addEventListener('click', (e) => {
    const b = e.target.closest('button');
    if (b && state.editing) {
      state.editing.shape = b.dataset.shape;
      renderEditor();
    }
  });
  $('classic').addEventListener('change', (e) => {
    acted();
    const c = classics.find((x) => x.code === e.target.value);
    if (c) classicLoad(c);
  });
  $('new-puzzle').addEventListener('click', () => newPuzzle(false));
  $('daily').addEventListener('click', () => newPuzzle(true));
  $('difficulty').addEventListener('input', renderDifficulty);
  $('layout-load').addEventListener('click', () => {
    acted();
    load($('layout-text').value);
  });
  $('layout-text').addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return;
    acted();
    load($('layout-text').value);
  });
  $('copy-link').addEventListener('click', async () => {
    const copied = await copyText($('share-link').value, $('share-link'));
    say({ key: copied ? 'msg.copied' : 'msg.copyFailed' });
  });
  document.addEventListener('keydown', (e) => {
    if (/** @type {Element} */ (e.target).closest('input, textarea, select')) return;
    if ((e.ctrlKey || e.metaKey) && e.key === 'z') undo();
    if ((e.ctrlKey || e.metaKey) && e.key === 'y') redo();
  });
  onLangChange(() => {
    renderDifficulty();
    relabel();
    if (state.view) renderStatus();
    if (state.message) say(state.message, state.message.kind);
  });
  renderDifficulty();
  classics = await loadClassics();
  // `?l=CODE` opens a layout; `?name=横刀立马` (or the pinyin, `hengdaolima`) a classic. A link
  // that names nothing valid opens the first classic, says what was wrong, and the address
  // stays as given until the user acts.
  const params = new URLSearchParams(location.search);
  const squeeze = (text) => text.replace(/[\s_-]/g, '').toLowerCase();
  const name = params.get('name');
  const named = name && classics.find((c) => c.name === name.trim() || squeeze(c.pinyin) === squeeze(name));
  let problem = null;
  if (params.has('l')) {
    const code = params.get('l').trim();
    if (!code) {
      problem = { key: 'hr.emptyLink' };
    } else {
      const byCode = classics.find((c) => c.code === code);
      if (byCode ? await classicLoad(byCode) : await load(code)) return;
      problem = { key: 'hr.badLink', vars: { what: `l=${code}`, error: state.message?.text ?? '' } };
    }
  } else if (name !== null) {
    if (named && (await classicLoad(named))) return;
    problem = { key: 'hr.badName', vars: { name } };
  }
  if (problem) state.keepAddress = true;
  if (classics.length) await classicLoad(classics[0]);
  if (problem) say(problem, 'error');
}

main();
