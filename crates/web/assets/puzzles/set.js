// @ts-check
// The shipped puzzle set (crates/puzzle/data/puzzles.tsv, made by `qi puzzle generate`): read
// on first use, and the choices the page makes from it: a puzzle near the player's rating not
// solved before (of the kind or theme the player practises), the day's puzzle (the same for
// everyone on a UTC day), one by its id.

/**
 * @typedef {{ id: string, fen: string, moves: string[], kind: 'mate' | 'win', mateIn: number | null,
 *   rating: number, themes: string[], source: string }} Puzzle
 */

/** Where the set is served (hashed by the import map, kept by the service worker). */
const SET_URL = '/assets/puzzles/xiangqi.tsv';

/** @type {Promise<Puzzle[]> | null} */
let loading = null;

/**
 * Reads the set's text: one puzzle a line, tab-separated, `#` lines are comments.
 * @param {string} text
 * @returns {Puzzle[]}
 */
export function parseSet(text) {
  /** @type {Puzzle[]} */
  const puzzles = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const [id, fen, moves, kind, mateIn, rating, themes, source] = line.split('\t');
    if (!source && source !== '') continue;
    puzzles.push({
      id,
      fen,
      moves: moves.split(' '),
      kind: kind === 'mate' ? 'mate' : 'win',
      mateIn: mateIn === '-' ? null : Number(mateIn),
      rating: Number(rating),
      themes: themes === '-' ? [] : themes.split(','),
      source,
    });
  }
  return puzzles;
}

/** The whole set, fetched once. */
export function loadSet() {
  if (!loading) {
    const url = typeof import.meta.resolve === 'function' ? import.meta.resolve(SET_URL) : SET_URL;
    loading = fetch(url)
      .then((r) => {
        if (!r.ok) throw new Error(`${r.status} ${r.statusText}`);
        return r.text();
      })
      .then(parseSet)
      .catch((e) => {
        loading = null;
        throw e;
      });
  }
  return loading;
}

/**
 * A number from a text, the same in every browser (FNV-1a, 32 bits).
 * @param {string} text
 */
function hash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * The day's puzzle: picked by the UTC date among the middle of the set (neither the easiest
 * nor the hardest), so everyone gets the same one that day.
 * @param {Puzzle[]} puzzles sorted by rating, as shipped
 * @param {Date} [now]
 */
export function dailyPuzzle(puzzles, now = new Date()) {
  const day = now.toISOString().slice(0, 10);
  const from = Math.floor(puzzles.length * 0.2);
  const to = Math.max(from + 1, Math.ceil(puzzles.length * 0.8));
  const middle = puzzles.slice(from, to);
  return middle[hash(day) % middle.length] || null;
}

/**
 * The choices of the page's "Practise" list that pick by kind: every puzzle, mates of a given
 * length, wins. Longer mates (4 to 7 moves) are one choice: there are too few of each length
 * to stand alone.
 * @type {Record<string, (puzzle: Puzzle) => boolean>}
 */
const BY_KIND = {
  any: () => true,
  'mate-in-1': (p) => p.kind === 'mate' && p.mateIn === 1,
  'mate-in-2': (p) => p.kind === 'mate' && p.mateIn === 2,
  'mate-in-3': (p) => p.kind === 'mate' && p.mateIn === 3,
  'mate-long': (p) => p.kind === 'mate' && (p.mateIn ?? 0) >= 4,
  win: (p) => p.kind === 'win',
};

/**
 * The choices that pick by one of the board's themes (the names of the set's `themes`): the
 * tactics, then the classic kills (杀法) a mate ends in.
 */
const BY_THEME = [
  'sacrifice', 'double-attack', 'pin', 'discovered-attack', 'quiet-move',
  'double-cannon', 'horse-cannon', 'smothered', 'trough-horse', 'facing-kings',
];

/** What a player may choose to practise (the page's "Practise" list and its `?theme=` link). */
export const PRACTICE = [...Object.keys(BY_KIND), ...BY_THEME];

/**
 * Whether `puzzle` is one to practise under `choice` (one of PRACTICE; anything else is 'any').
 * @param {Puzzle} puzzle
 * @param {string} choice
 */
export function matchesPractice(puzzle, choice) {
  if (BY_THEME.includes(choice)) return puzzle.themes.includes(choice);
  return (BY_KIND[choice] ?? BY_KIND.any)(puzzle);
}

/**
 * The text key of `choice`'s name: a theme is named as the puzzle's themes are.
 * @param {string} choice one of PRACTICE
 */
export function practiceLabel(choice) {
  return BY_THEME.includes(choice) ? `theme.${choice}` : `puzzle.practice.${choice}`;
}

/**
 * The next puzzle for a player rated `rating`: one not seen yet, of the closest rating (a
 * little random among the closest few, so two players do not walk the same path), among
 * those `choice` asks to practise (every puzzle when none does).
 * @param {Puzzle[]} puzzles
 * @param {number} rating
 * @param {Set<string>} seen
 * @param {() => number} [random]
 * @param {string} [choice] one of PRACTICE
 */
export function nextPuzzle(puzzles, rating, seen, random = Math.random, choice = 'any') {
  const chosen = puzzles.filter((p) => matchesPractice(p, choice));
  const candidates = chosen.length ? chosen : puzzles;
  const fresh = candidates.filter((p) => !seen.has(p.id));
  const pool = fresh.length ? fresh : candidates;
  const closest = [...pool].sort((a, b) => Math.abs(a.rating - rating) - Math.abs(b.rating - rating)).slice(0, 8);
  return closest[Math.floor(random() * closest.length)] || null;
}

/**
 * The puzzle called `id`, if the set has it.
 * @param {Puzzle[]} puzzles
 * @param {string} id
 */
export function puzzleById(puzzles, id) {
  return puzzles.find((p) => p.id === id) || null;
}
