// The Huarong Dao page: pick or build a layout, move pieces, count steps, watch the solution.
// The layouts' rules (which moves exist, the solution) come from the server's API.

import { api } from './api.js';
import { t, setupLangButton, onLangChange } from './i18n.js';

const SVG = 'http://www.w3.org/2000/svg';
const CELL = 100;
const MARGIN = 20;
const WIDTH = MARGIN * 2 + CELL * 4;
const HEIGHT = MARGIN * 2 + CELL * 5;
const SIZE = { C: [2, 2], V: [2, 1], H: [1, 2], S: [1, 1] }; // [height, width]
const LABEL = { C: '曹操', V: '将', H: '关羽', S: '兵' };
const STEP_MS = 280;
const $ = (id) => document.getElementById(id);

const state = {
  view: null, // the API's description of the current layout
  start: null, // layout text of the last chosen or loaded layout (Reset goes back to it)
  history: [], // earlier layout texts, for Undo
  steps: 0,
  selected: null, // top-left cell of the selected piece
  solving: null, // { stop: bool } while the solution is animated
  editing: null, // { placements: [{ shape, cell }], shape } in the editor
  message: null,
};

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

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

function cellXY(cell) {
  return [MARGIN + (cell % 4) * CELL, MARGIN + Math.floor(cell / 4) * CELL];
}

function say(message, kind = 'info') {
  state.message = message ? { ...message, kind } : null;
  const m = state.message;
  $('message').textContent = !m ? '' : m.text ?? t(m.key, m.vars);
  $('message').className = m ? m.kind : '';
}

function pieceNode(piece, cell) {
  const [h, w] = SIZE[piece];
  const g = el('g', { class: `block ${piece}`, 'data-piece': piece, 'data-cell': cell });
  el('rect', { x: 4, y: 4, width: w * CELL - 8, height: h * CELL - 8, rx: 12 }, g);
  const text = el('text', { x: (w * CELL) / 2, y: (h * CELL) / 2 }, g);
  text.textContent = LABEL[piece];
  placeNode(g, cell);
  return g;
}

function placeNode(node, cell) {
  const [x, y] = cellXY(cell);
  node.dataset.cell = String(cell);
  node.style.transform = `translate(${x}px, ${y}px)`;
}

function renderPieces(pieces) {
  pieceLayer.replaceChildren(...pieces.map((p) => pieceNode(p.piece, p.cell)));
  renderSelection();
}

function renderSelection() {
  ghostLayer.replaceChildren();
  for (const node of pieceLayer.children) node.classList.toggle('selected', Number(node.dataset.cell) === state.selected);
  if (state.selected === null || !state.view) return;
  for (const m of state.view.moves.filter((mv) => mv.from === state.selected)) {
    const [h, w] = SIZE[m.piece];
    const [x, y] = cellXY(m.to);
    el('rect', {
      x: x + 6, y: y + 6, width: w * CELL - 12, height: h * CELL - 12, rx: 12, class: 'ghost', 'data-to': m.to,
    }, ghostLayer);
  }
}

function renderStatus() {
  const view = state.view;
  const board = $('hr-board');
  board.dataset.layout = view.layout;
  board.dataset.steps = String(state.steps);
  board.dataset.solved = String(view.solved);
  $('steps').textContent = String(state.steps);
  $('layout-text').value = view.layout;
  const status = $('status');
  if (view.solved) {
    status.textContent = t('hr.solved', { steps: state.steps });
    status.className = 'over';
  } else if (state.solution && state.solution.steps !== null) {
    status.textContent = t('hr.minimum', { steps: state.solution.steps });
    status.className = '';
  } else {
    status.textContent = '';
    status.className = '';
  }
  $('undo').disabled = state.history.length === 0 || !!state.solving;
  $('solve').textContent = t(state.solving ? 'hr.stop' : 'hr.solve');
  const params = new URLSearchParams({ l: view.code });
  history.replaceState(null, '', `/huarong?${params}`);
  $('share-link').value = `${location.origin}/huarong?${params}`;
  const option = [...$('classic').options].find((o) => o.value === view.code);
  $('classic').value = option ? option.value : '';
}

// Shows a layout the server has described; `fresh` rebuilds the pieces instead of moving one.
function showView(view, { fresh = true } = {}) {
  state.view = view;
  state.selected = null;
  if (fresh) renderPieces(view.pieces);
  else renderSelection();
  renderStatus();
  $('hr-board').dataset.ready = 'true';
}

async function describe(layout) {
  return api('/api/huarong/layout', { layout });
}

// Starts over from a layout (text or share code): steps and history cleared.
async function load(layout) {
  stopSolving();
  try {
    const view = await describe(layout);
    state.start = view.layout;
    state.history = [];
    state.steps = 0;
    state.solution = null;
    showView(view);
    say(null);
    return true;
  } catch (error) {
    say({ text: error.message }, 'error');
    return false;
  }
}

// Moves one piece on screen (animated by CSS) from one top-left cell to another.
function slide(from, to) {
  const node = [...pieceLayer.children].find((n) => Number(n.dataset.cell) === from);
  if (node) placeNode(node, to);
}

async function play(move) {
  if (state.solving || state.busy) return;
  state.busy = true;
  try {
    const view = await describe(move.layout);
    state.history.push(state.view.layout);
    state.steps += 1;
    state.solution = null;
    slide(move.from, move.to);
    showView(view, { fresh: false });
    say(null);
  } catch (error) {
    say({ text: error.message }, 'error');
    renderPieces(state.view.pieces);
  } finally {
    state.busy = false;
  }
}

async function undo() {
  if (!state.history.length || state.solving) return;
  const previous = state.history.pop();
  try {
    const view = await describe(previous);
    state.steps -= 1;
    state.solution = null;
    showView(view);
  } catch (error) {
    say({ text: error.message }, 'error');
  }
}

function stopSolving() {
  if (state.solving) state.solving.stop = true;
}

async function solve() {
  if (state.solving) {
    stopSolving();
    return;
  }
  say({ key: 'hr.solving' });
  let solution;
  try {
    solution = await api('/api/huarong/solve', { layout: state.view.layout });
  } catch (error) {
    say({ text: error.message }, 'error');
    return;
  }
  state.solution = solution;
  if (solution.steps === null) {
    say({ key: 'hr.unsolvable' }, 'error');
    return;
  }
  say(null);
  const run = { stop: false };
  state.solving = run;
  state.selected = null;
  renderSelection();
  renderStatus();
  $('hr-board').dataset.animating = 'true';
  for (const step of solution.path) {
    if (run.stop) break;
    await new Promise((resolve) => setTimeout(resolve, STEP_MS));
    if (run.stop) break;
    state.history.push(state.view.layout);
    state.steps += 1;
    slide(step.from, step.to);
    state.view = { ...state.view, layout: step.layout, code: step.code, solved: step.solved, moves: [] };
    renderStatus();
  }
  state.solving = null;
  // Ask for the layout reached so that moves and the share code are the server's again.
  try {
    showView(await describe(state.view.layout));
  } catch (error) {
    say({ text: error.message }, 'error');
  }
  $('hr-board').dataset.animating = 'false';
}

// Pointer handling: drag a piece to where it can go, or click it and then a highlighted place.
let drag = null;

function svgPoint(event) {
  return new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
}

function cellAt(p) {
  const col = Math.floor((p.x - MARGIN) / CELL);
  const row = Math.floor((p.y - MARGIN) / CELL);
  return col >= 0 && col < 4 && row >= 0 && row < 5 ? row * 4 + col : null;
}

svg.addEventListener('pointerdown', (event) => {
  if (state.solving || !state.view) return;
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

function covers(piece, topLeft, cell) {
  const [h, w] = SIZE[piece];
  const r = Math.floor(cell / 4) - Math.floor(topLeft / 4);
  const c = (cell % 4) - (topLeft % 4);
  return r >= 0 && r < h && c >= 0 && c < w;
}

// The editor: placements on a grid, checked by the server when done.
function startEditing() {
  stopSolving();
  state.editing = { placements: state.view.pieces.map((p) => ({ shape: p.piece, cell: p.cell })), shape: 'S' };
  state.selected = null;
  $('editor').hidden = false;
  $('edit').disabled = true;
  renderEditor();
}

function renderEditor() {
  const ed = state.editing;
  renderPieces(ed.placements.map((p) => ({ piece: p.shape, cell: p.cell })));
  for (const b of $('palette').querySelectorAll('button')) b.setAttribute('aria-pressed', String(b.dataset.shape === ed.shape));
}

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
  if (await load(editorText())) {
    state.editing = null;
    $('editor').hidden = true;
    $('edit').disabled = false;
  }
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

async function main() {
  setupLangButton();
  $('undo').addEventListener('click', undo);
  $('reset').addEventListener('click', () => state.start && load(state.start));
  $('solve').addEventListener('click', solve);
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
  $('classic').addEventListener('change', (e) => e.target.value && load(e.target.value));
  $('layout-load').addEventListener('click', () => load($('layout-text').value));
  $('layout-text').addEventListener('keydown', (e) => e.key === 'Enter' && load($('layout-text').value));
  $('copy-link').addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText($('share-link').value);
      say({ key: 'msg.copied' });
    } catch {
      $('share-link').select();
      say({ key: 'msg.copyFailed' });
    }
  });
  document.addEventListener('keydown', (e) => {
    if (e.target.closest('input, textarea, select')) return;
    if ((e.ctrlKey || e.metaKey) && e.key === 'z') undo();
  });
  onLangChange(() => state.view && renderStatus());
  const classics = await loadClassics();
  // `?l=CODE` opens a layout; `?name=横刀立马` (or the pinyin, `hengdaolima`) a classic.
  const params = new URLSearchParams(location.search);
  const squeeze = (text) => text.replace(/[\s_-]/g, '').toLowerCase();
  const name = params.get('name');
  const named = name && classics.find((c) => c.name === name.trim() || squeeze(c.pinyin) === squeeze(name));
  const wanted = params.get('l') || (named && named.code);
  if (!(wanted && (await load(wanted))) && classics.length) await load(classics[0].code);
}

main();
