// @ts-check
// The Xiangqi puzzle page: a puzzle by the player's rating, the day's puzzle, or one by its
// link (?id=…). The player moves for the side to move; a right move is answered by the
// defender's reply from the solution, a wrong one is taken back. Hints, the solution move by
// move, a streak and a rating kept in the browser (puzzles/progress.js). The set is fetched on
// first use (puzzles/set.js); the rules (legal moves, check) come from the WebAssembly (api.js),
// so the page works offline and in the static site. The Endgames tab (puzzles/endgames.js)
// plays classic endgames out against the engine.

import { api } from './api.js';
import { XiangqiBoard } from './board.js';
import { $, copyText } from './dom.js';
import { setupLangButton, onLangChange, t } from './i18n.js';
import { kingInCheck, playSound } from './xq/board-view.js';
import { loadSet, dailyPuzzle, nextPuzzle, puzzleById, PRACTICE, matchesPractice, practiceLabel } from './puzzles/set.js';
import { loadProgress, recordResult, loadPractice, savePractice } from './puzzles/progress.js';
import { Endgames } from './puzzles/endgames.js';

/** @typedef {import('./puzzles/set.js').Puzzle} Puzzle */
/** @typedef {import('./qi/index.js').GameView} GameView */

/** How long the defender seems to think before its reply, and the solution's pace. */
const REPLY_MS = 450;
const SOLUTION_MS = 800;

const state = {
  /** @type {Puzzle[]} */
  puzzles: [],
  /** @type {Puzzle | null} */
  puzzle: null,
  /** Moves of the solution played so far. */
  step: 0,
  /** Whether this puzzle has counted against the player (a wrong move, a hint, the solution). */
  spoiled: false,
  /** Whether its result is recorded. */
  recorded: false,
  /** 'rated', 'daily' or 'link'. */
  mode: 'rated',
  /** @type {GameView | null} */
  view: null,
  progress: loadProgress(),
  /** What the player practises (one of PRACTICE): Next picks among those puzzles. */
  practice: loadPractice(PRACTICE),
  /** Bumped by every new puzzle or replay, so a pending reply of an old one does nothing. */
  epoch: 0,
  /**
   * Puzzles shown in this visit, solved or skipped: Next serves none of them again (the kept
   * `seen` holds only those with a result, so a skipped one would come back 1 time in 8).
   * @type {Set<string>}
   */
  shown: new Set(),
};

/** Which tab the board serves: 'puzzles' or 'endgames'. */
let track = 'puzzles';
const board = new XiangqiBoard($('board'), {
  onMove: (iccs) => (track === 'endgames' ? endgames.move(iccs) : tryMove(iccs)),
});
const endgames = new Endgames(board);

/**
 * Says something under the board.
 * @param {string} key
 * @param {Record<string, string | number>} [vars]
 * @param {string} [kind] '', 'good' or 'bad'
 */
function say(key, vars = {}, kind = '') {
  const node = $('puzzle-message');
  node.textContent = key ? t(key, vars) : '';
  node.className = kind;
  node.dataset.key = key;
}

/** The side that solves: the side to move in the puzzle's position. */
const solver = () => (state.puzzle && state.puzzle.fen.split(' ')[1] === 'b' ? 'black' : 'red');
const solved = () => !!state.puzzle && state.step >= state.puzzle.moves.length;

/** Shows the position after the first `state.step` moves of the solution. */
async function render({ slide = /** @type {string | null} */ (null) } = {}) {
  const puzzle = state.puzzle;
  if (!puzzle) return;
  const epoch = state.epoch;
  /** @type {GameView} */
  const view = await api('/api/xq/game', { fen: puzzle.fen, moves: puzzle.moves.slice(0, state.step) });
  if (epoch !== state.epoch) return;
  const before = state.view;
  state.view = view;
  const yourTurn = !solved() && view.turn === solver();
  board.setPosition({
    pieces: view.board,
    legal: yourTurn ? view.legal : [],
    last: view.last,
    checkSquare: kingInCheck(view),
    slide,
  });
  if (slide) playSound(before, view);
  const node = $('board');
  node.dataset.flipped = String(solver() === 'black');
  node.dataset.fen = view.fen;
  node.dataset.step = String(state.step);
  // The moves the player may make now (read by the browser tests).
  node.dataset.legal = yourTurn ? view.legal.join(' ') : '';
  node.dataset.ready = 'true';
  renderPanel();
}

function renderPanel() {
  const puzzle = state.puzzle;
  const p = state.progress;
  $('player-rating').textContent = String(p.rating);
  $('streak').textContent = String(p.streak);
  $('best-streak').textContent = String(p.best);
  if (!puzzle) return;
  const side = t(`turn.${solver()}`);
  $('puzzle-goal').textContent =
    puzzle.kind === 'mate' ? t('puzzle.goalMate', { side, n: puzzle.mateIn ?? 1 }) : t('puzzle.goalWin', { side });
  const done = solved();
  $('puzzle-about').hidden = !done;
  $('puzzle-rating').textContent = String(puzzle.rating);
  $('puzzle-themes').textContent = puzzle.themes.map((th) => t(`theme.${th}`)).join(', ') || '—';
  $('puzzle-source').textContent = puzzle.source;
  $('puzzle-mode').textContent = t(`puzzle.mode.${state.mode}`);
  $('hint').disabled = done;
  $('solution').disabled = done;
  document.body.dataset.puzzle = puzzle.id;
  document.body.dataset.state = done ? (state.spoiled ? 'shown' : 'solved') : 'playing';
}

/**
 * Counts the puzzle once: solved cleanly, or not.
 * @param {boolean} clean
 */
function record(clean) {
  if (state.recorded || !state.puzzle) return;
  state.recorded = true;
  state.progress = recordResult(state.progress, state.puzzle.id, state.puzzle.rating, clean);
}

/** @param {string} iccs */
async function tryMove(iccs) {
  const puzzle = state.puzzle;
  if (!puzzle || solved()) return;
  board.setArrows([]);
  if (iccs !== puzzle.moves[state.step]) {
    state.spoiled = true;
    record(false);
    renderPanel();
    say('puzzle.wrong', {}, 'bad');
    board.playLocally(iccs);
    // Nothing to play until the position is back (render fills these again).
    $('board').dataset.legal = '';
    $('board').dataset.ready = 'false';
    const epoch = state.epoch;
    setTimeout(() => epoch === state.epoch && render(), REPLY_MS);
    return;
  }
  state.step += 1;
  await render({ slide: board.dragged === iccs ? null : iccs });
  if (solved()) return finish();
  say('puzzle.right', {}, 'good');
  const epoch = state.epoch;
  setTimeout(async () => {
    if (epoch !== state.epoch) return;
    state.step += 1;
    await render({ slide: puzzle.moves[state.step - 1] });
    say('puzzle.yourMove');
  }, REPLY_MS);
}

function finish() {
  record(!state.spoiled);
  say(state.spoiled ? 'puzzle.done' : 'puzzle.solved', { streak: state.progress.streak }, state.spoiled ? '' : 'good');
  renderPanel();
}

/**
 * Starts `puzzle` from its first move.
 * @param {Puzzle} puzzle
 * @param {string} mode
 */
async function start(puzzle, mode) {
  state.epoch += 1;
  state.puzzle = puzzle;
  state.shown.add(puzzle.id);
  state.mode = mode;
  state.step = 0;
  state.spoiled = false;
  state.recorded = false;
  state.view = null;
  board.setArrows([]);
  board.setFlipped(solver() === 'black');
  const url = new URL(location.href);
  url.search = mode === 'daily' ? '?daily' : `?id=${puzzle.id}`;
  history.replaceState(null, '', url);
  say('puzzle.yourMove');
  await render();
}

/** Shows the next move as an arrow (the puzzle then no longer counts as solved). */
function hint() {
  const puzzle = state.puzzle;
  if (!puzzle || solved()) return;
  state.spoiled = true;
  record(false);
  const mv = puzzle.moves[state.step];
  board.setArrows([{ from: mv.slice(0, 2), to: mv.slice(2, 4), kind: 'hint' }]);
  say('puzzle.hinted');
}

/** Plays the rest of the solution, a move at a time. */
async function showSolution() {
  const puzzle = state.puzzle;
  if (!puzzle || solved()) return;
  state.spoiled = true;
  record(false);
  board.setArrows([]);
  const epoch = state.epoch;
  while (!solved() && epoch === state.epoch) {
    state.step += 1;
    await render({ slide: puzzle.moves[state.step - 1] });
    if (!solved()) await new Promise((r) => setTimeout(r, SOLUTION_MS));
  }
  if (epoch === state.epoch) finish();
}

async function retry() {
  if (!state.puzzle) return;
  const spoiled = state.spoiled;
  const recorded = state.recorded;
  await start(state.puzzle, state.mode);
  // A second try never counts as a clean solve.
  state.spoiled = spoiled || recorded;
  state.recorded = recorded;
}

async function next() {
  const seen = new Set([...state.progress.seen, ...state.shown]);
  const puzzle = nextPuzzle(state.puzzles, state.progress.rating, seen, Math.random, state.practice);
  if (puzzle) await start(puzzle, 'rated');
}

/** Fills the Practise list in the page's language, with how many puzzles each choice has. */
function renderPractice() {
  const select = /** @type {HTMLSelectElement} */ ($('puzzle-practice'));
  select.replaceChildren(
    ...PRACTICE.map((choice) => {
      const option = document.createElement('option');
      option.value = choice;
      const count = state.puzzles.filter((p) => matchesPractice(p, choice)).length;
      const name = t(practiceLabel(choice));
      option.textContent = state.puzzles.length ? `${name} (${count})` : name;
      // A choice without a puzzle (in a set of one's own) is shown but cannot be picked.
      option.disabled = state.puzzles.length > 0 && count === 0 && choice !== state.practice;
      return option;
    }),
  );
  select.value = state.practice;
  document.body.dataset.practice = state.practice;
}

/**
 * Makes `choice` what the player practises from now on (kept in the browser); anything not
 * in PRACTICE is 'any'.
 * @param {string} choice
 */
function choosePractice(choice) {
  state.practice = PRACTICE.includes(choice) ? choice : 'any';
  savePractice(state.practice);
  renderPractice();
}

/**
 * Practises `choice`: the next puzzle is one of them, unless the one on the board already is.
 * @param {string} choice
 */
async function practise(choice) {
  choosePractice(choice);
  if (!state.puzzle || !matchesPractice(state.puzzle, state.practice) || solved()) await next();
}

async function daily() {
  const puzzle = dailyPuzzle(state.puzzles);
  if (puzzle) await start(puzzle, 'daily');
}

$('hint').addEventListener('click', hint);
$('solution').addEventListener('click', () => showSolution());
$('retry').addEventListener('click', () => retry());
$('next').addEventListener('click', () => next());
$('daily').addEventListener('click', () => daily());
$('puzzle-practice').addEventListener('change', (e) => practise(/** @type {HTMLSelectElement} */ (e.target).value));
$('analyse').addEventListener('click', () => {
  if (!state.puzzle) return;
  const fen = state.view ? state.view.fen : state.puzzle.fen;
  location.href = `/xq?fen=${encodeURIComponent(fen)}`;
});
$('share').addEventListener('click', async () => {
  if (!state.puzzle) return;
  const link = `${location.origin}/puzzles?id=${state.puzzle.id}`;
  $('share-link').value = link;
  $('share-row').hidden = false;
  await copyText(link, /** @type {HTMLInputElement} */ ($('share-link')));
  say('puzzle.copied');
});

/**
 * Shows one tab's panel; the board then plays that tab's game.
 * @param {'puzzles' | 'endgames'} which
 */
async function showTrack(which) {
  track = which;
  // A pending reply or engine move of the other tab does nothing.
  state.epoch += 1;
  endgames.epoch += 1;
  document.body.dataset.track = which;
  $('puzzle-panel').hidden = which !== 'puzzles';
  $('endgame-panel').hidden = which !== 'endgames';
  $('share-row').hidden = true;
  $('tab-puzzles').setAttribute('aria-selected', String(which === 'puzzles'));
  $('tab-endgames').setAttribute('aria-selected', String(which === 'endgames'));
  $('board').dataset.ready = 'false';
  if (which === 'puzzles') {
    if (state.puzzle) await retry();
    else await openPuzzles();
    return;
  }
  try {
    await endgames.load();
  } catch (error) {
    endgames.say('puzzle.unavailable', { why: String(error && /** @type {Error} */ (error).message) }, 'bad');
    return;
  }
  const params = new URLSearchParams(location.search);
  const id = params.get('endgame');
  const fen = params.get('fen');
  const wanted = id ? endgames.track.find((e) => e.id === id) : null;
  if (wanted) await endgames.start(wanted);
  else if (fen) {
    const goal = params.get('goal') === 'draw' ? 'draw' : 'win';
    const custom = { id: '', grade: 0, fen, goal, nameZh: '', nameEn: '', source: '—' };
    await endgames.start(/** @type {import('./puzzles/endgame-set.js').Endgame} */ (custom)).catch((error) => {
      endgames.say('endgame.badPosition', { why: String(error && error.message) }, 'bad');
    });
  } else if (endgames.endgame) await endgames.start(endgames.endgame);
  else await endgames.next();
  if (id && !wanted) endgames.say('endgame.unknown', { id }, 'bad');
}

$('tab-puzzles').addEventListener('click', () => showTrack('puzzles'));
$('tab-endgames').addEventListener('click', () => {
  history.replaceState(null, '', '/puzzles?endgames');
  showTrack('endgames');
});

setupLangButton();
onLangChange(() => {
  endgames.renderLabels();
  renderPractice();
  renderPanel();
  const key = $('puzzle-message').dataset.key;
  if (key) say(key, { streak: state.progress.streak }, $('puzzle-message').className);
});

/** Loads the puzzle set and opens the puzzle the address names (else the next by rating). */
async function openPuzzles() {
  say('puzzle.loading');
  try {
    state.puzzles = await loadSet();
  } catch (error) {
    say('puzzle.unavailable', { why: String(error && /** @type {Error} */ (error).message) }, 'bad');
    return;
  }
  const params = new URLSearchParams(location.search);
  // A link may name what to practise (`?theme=pin`), which then stays the player's choice.
  const asked = params.get('theme');
  if (asked && PRACTICE.includes(asked)) choosePractice(asked);
  else renderPractice();
  const id = params.get('id');
  const wanted = id ? puzzleById(state.puzzles, id) : null;
  if (wanted) await start(wanted, 'link');
  else if (params.has('daily')) await daily();
  else await next();
  if (id && !wanted) say('puzzle.unknown', { id }, 'bad');
}

const query = new URLSearchParams(location.search);
if (query.has('endgame') || query.has('endgames') || query.has('fen')) showTrack('endgames');
else showTrack('puzzles');
