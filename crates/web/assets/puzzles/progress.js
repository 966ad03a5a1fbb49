// @ts-check
// What the browser remembers of the player's puzzles (localStorage, never sent anywhere): a
// rating that follows the results, the streak of puzzles solved without a mistake, and the
// puzzles already seen; and what the player chose to practise.

const KEY = 'qi.puzzles';
/** Where a new player starts. */
export const START_RATING = 1200;
/** How far one result moves the rating (an Elo K factor). */
const K = 32;
/** The most puzzle ids remembered. */
const MAX_SEEN = 5000;

/** @typedef {{ rating: number, streak: number, best: number, solved: number, failed: number, seen: string[] }} Progress */

/** @returns {Progress} */
export function loadProgress() {
  /** @type {Progress} */
  const fresh = { rating: START_RATING, streak: 0, best: 0, solved: 0, failed: 0, seen: [] };
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || 'null');
    if (!saved || typeof saved !== 'object') return fresh;
    return {
      rating: Number.isFinite(saved.rating) ? saved.rating : START_RATING,
      streak: Number.isInteger(saved.streak) ? saved.streak : 0,
      best: Number.isInteger(saved.best) ? saved.best : 0,
      solved: Number.isInteger(saved.solved) ? saved.solved : 0,
      failed: Number.isInteger(saved.failed) ? saved.failed : 0,
      seen: Array.isArray(saved.seen) ? saved.seen.filter((s) => typeof s === 'string').slice(-MAX_SEEN) : [],
    };
  } catch {
    return fresh;
  }
}

/** @param {Progress} progress */
function save(progress) {
  try {
    localStorage.setItem(KEY, JSON.stringify({ ...progress, seen: progress.seen.slice(-MAX_SEEN) }));
  } catch {
    // private mode or a full store: the page still works, it only forgets
  }
}

/**
 * Records a result against a puzzle rated `puzzleRating`: the rating moves as Elo would, the
 * streak grows or ends. Returns the new progress.
 * @param {Progress} progress
 * @param {string} id
 * @param {number} puzzleRating
 * @param {boolean} solved without a mistake
 */
export function recordResult(progress, id, puzzleRating, solved) {
  const expected = 1 / (1 + 10 ** ((puzzleRating - progress.rating) / 400));
  const next = {
    ...progress,
    rating: Math.round(Math.max(400, Math.min(3200, progress.rating + K * ((solved ? 1 : 0) - expected)))),
    streak: solved ? progress.streak + 1 : 0,
    solved: progress.solved + (solved ? 1 : 0),
    failed: progress.failed + (solved ? 0 : 1),
    seen: progress.seen.includes(id) ? progress.seen : [...progress.seen, id],
  };
  next.best = Math.max(progress.best, next.streak);
  save(next);
  return next;
}

/** Where the player's choice of what to practise is kept. */
const PRACTICE_KEY = 'qi.puzzles.practice';

/**
 * What the player chose to practise last (one of set.js's PRACTICE), else 'any'.
 * @param {readonly string[]} choices
 */
export function loadPractice(choices) {
  try {
    const saved = localStorage.getItem(PRACTICE_KEY);
    return saved && choices.includes(saved) ? saved : 'any';
  } catch {
    return 'any';
  }
}

/** @param {string} choice */
export function savePractice(choice) {
  try {
    localStorage.setItem(PRACTICE_KEY, choice);
  } catch {
    // as in save(): the choice holds for this visit only
  }
}
