// @ts-check
// The endgame track (残局, crates/puzzle/data/endgames.tsv, listed by `qi puzzle endgames`):
// read on first use, and which of its positions this browser has won or held (localStorage,
// never sent anywhere).

/**
 * @typedef {{ id: string, grade: number, fen: string, goal: 'win' | 'draw', nameZh: string,
 *   nameEn: string, source: string }} Endgame
 */

/** Where the track is served (hashed by the import map, kept by the service worker). */
const TRACK_URL = '/assets/puzzles/endgames.tsv';
const KEY = 'qi.endgames';
/** The most ids remembered as solved. */
const MAX_SOLVED = 1000;

/** @type {Promise<Endgame[]> | null} */
let loading = null;

/**
 * Reads the track's text: one endgame a line, tab-separated, `#` lines are comments.
 * @param {string} text
 * @returns {Endgame[]}
 */
export function parseTrack(text) {
  /** @type {Endgame[]} */
  const track = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const [id, grade, fen, goal, nameZh, nameEn, source] = line.split('\t');
    if (source === undefined) continue;
    track.push({ id, grade: Number(grade), fen, goal: goal === 'draw' ? 'draw' : 'win', nameZh, nameEn, source });
  }
  return track;
}

/** The whole track, fetched once. */
export function loadTrack() {
  if (!loading) {
    const url = typeof import.meta.resolve === 'function' ? import.meta.resolve(TRACK_URL) : TRACK_URL;
    loading = fetch(url)
      .then((r) => {
        if (!r.ok) throw new Error(`${r.status} ${r.statusText}`);
        return r.text();
      })
      .then(parseTrack)
      .catch((e) => {
        loading = null;
        throw e;
      });
  }
  return loading;
}

/** The ids of the endgames this browser has won or held. */
export function loadSolved() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || 'null');
    const ids = Array.isArray(saved?.solved) ? saved.solved : [];
    return new Set(ids.filter((/** @type {unknown} */ s) => typeof s === 'string').slice(-MAX_SOLVED));
  } catch {
    return new Set();
  }
}

/**
 * Remembers `id` as solved; returns the solved ids.
 * @param {string} id
 */
export function markSolved(id) {
  const solved = loadSolved();
  solved.add(id);
  try {
    localStorage.setItem(KEY, JSON.stringify({ solved: [...solved].slice(-MAX_SOLVED) }));
  } catch {
    // private mode or a full store: the page still works, it only forgets
  }
  return solved;
}

/**
 * The verdict of a finished game for the player (the side to move at the start): won, held
 * (a draw) or lost, and whether that reaches the goal.
 * @param {{ winner?: string | null }} status the rules' verdict of a finished game
 * @param {'red' | 'black'} player
 * @param {'win' | 'draw'} goal
 */
export function judge(status, player, goal) {
  const result = !status.winner ? 'held' : status.winner === player ? 'won' : 'lost';
  const reached = result === 'won' || (goal === 'draw' && result === 'held');
  return { result, reached };
}
