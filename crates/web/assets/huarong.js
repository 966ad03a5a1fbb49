// @ts-check
// The Huarong Dao page: pick or build a layout, move pieces, count steps, watch the solution.
// The layouts' rules (which moves exist, the solution) come from the Huarong library in the
// page (api.js, WebAssembly). This file holds the actions on the page's one state object
// (huarong/state.js); the board (huarong/board-view.js) and what is said around it
// (huarong/status-view.js) are drawn from that state.

import { api } from './api.js';
import { $, copyText } from './dom.js';
import { setupLangButton, onLangChange } from './i18n.js';
import { BoardView } from './huarong/board-view.js';
import { createState, store, covers, layoutText, SIZE } from './huarong/state.js';
import * as status from './huarong/status-view.js';

const STEP_MS = [700, 450, 280, 150, 70]; // by the speed slider, slow to fast
// Difficulty slider positions: [min, max] minimum steps.
const LEVELS = [[10, 30], [31, 60], [61, 90], [91, 120], [121, 138]];
const DAILY = [40, 100];

const state = createState();
const board = new BoardView($('hr-board'), state, { play: (move) => play(move), editAt: (cell) => editAt(cell) });
setInterval(() => state.timer.started !== null && status.renderTimer(state), 500);

/**
 * @param {(import('./huarong/state.js').Words & { error?: any }) | null} message
 * @param {string} [kind] 'info' or 'error'
 */
const say = (message, kind = 'info') => status.say(state, message, kind);
const renderStatus = () => status.renderStatus(state);
const renderSelection = () => board.renderSelection();
/** @param {{ piece: string, cell: number }[]} pieces */
const renderPieces = (pieces) => board.renderPieces(pieces);
/** @param {number} from @param {number} to */
const slide = (from, to) => board.slide(from, to);

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
 * @param {{ piece?: string, from: number, to: number, layout?: string }} move
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
    // Kept for "minimum from here", but its replay controls go: the player plays by hand now.
    if (next && next.layout === move.layout) {
      state.solution.index += 1;
      state.solution.byHand = true;
    } else state.solution = null;
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
    const node = board.pieceAt(answer.move.from);
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
  status.renderPalette(ed.shape);
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
  return layoutText(state.editing.placements);
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
  $('difficulty').addEventListener('input', status.renderDifficulty);
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
    status.renderDifficulty();
    board.relabel();
    if (state.view) renderStatus();
    if (state.message) say(state.message, state.message.kind);
  });
  status.renderDifficulty();
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
