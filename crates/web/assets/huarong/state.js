// @ts-check
// The Huarong Dao page's state: one object (the layout on view, the start it came from, the
// moves made and undone, the solution, the editor, the timer, the message), the pieces'
// shapes, and localStorage for the personal bests and the solved list.

/** [height, width] of each shape: the general (C), a vertical (V) or horizontal (H) one, a soldier (S). */
export const SIZE = /** @type {Record<string, [number, number]>} */ ({ C: [2, 2], V: [2, 1], H: [1, 2], S: [1, 1] });

/** localStorage as JSON, forgiving (private mode keeps nothing). */
export const store = {
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

/** @typedef {{ key?: string, vars?: Record<string, any>, text?: string }} Words */
/** @typedef {{ piece: string, from: number, to: number, layout?: string }} HrMove */

export function createState() {
  return {
    /** @type {any} the API's description of the current layout */
    view: null,
    /** @type {string | null} layout text of the last chosen or loaded layout (Reset goes back to it) */
    start: null,
    /** @type {string | null} its share code: personal bests and the solved list are kept by it */
    startCode: null,
    /** @type {Words | null} the layout's title, kept across moves */
    name: null,
    /** share code of the classic chosen in the list */
    classic: '',
    /** @type {number | null} minimum steps from the start, when known */
    minimum: null,
    /** @type {{ layout: string, from: number, to: number }[]} moves made (layout before), for Undo */
    history: [],
    /** @type {{ layout: string, from: number, to: number }[]} moves undone (layout after), for Redo */
    redo: [],
    steps: 0,
    /** @type {number | null} top-left cell of the selected piece */
    selected: null,
    /** @type {number | null} target cell of the hinted move */
    hint: null,
    /** @type {{ steps: number | null, path: any[], index: number, byHand?: boolean } | null} the solver's; index = steps of it played; byHand once the player follows it by hand */
    solution: null,
    /** @type {{ stop: boolean } | null} while the solution plays */
    playing: null,
    /** the solver's moves were used since the start */
    assisted: false,
    /** @type {{ placements: { shape: string, cell: number }[], shape: string } | null} in the editor */
    editing: null,
    /** leave the address bar as the user gave it (a bad link) until they act */
    keepAddress: false,
    /** one board action runs at a time */
    busy: false,
    /** @type {{ started: number | null, elapsed: number }} */
    timer: { started: null, elapsed: 0 },
    /** @type {(Words & { kind: string }) | null} */
    message: null,
  };
}

/** @typedef {ReturnType<typeof createState>} HrState */

/**
 * Whether a piece of shape `piece` at `topLeft` covers `cell`.
 * @param {string} piece
 * @param {number} topLeft
 * @param {number} cell
 */
export function covers(piece, topLeft, cell) {
  const [h, w] = SIZE[piece];
  const r = Math.floor(cell / 4) - Math.floor(topLeft / 4);
  const c = (cell % 4) - (topLeft % 4);
  return r >= 0 && r < h && c >= 0 && c < w;
}

/**
 * The editor's placements as layout text (`VCCV/...`).
 * @param {{ shape: string, cell: number }[]} placements
 */
export function layoutText(placements) {
  const grid = Array(20).fill('.');
  for (const p of placements) {
    const [h, w] = SIZE[p.shape];
    for (let r = 0; r < h; r++) for (let c = 0; c < w; c++) grid[p.cell + r * 4 + c] = p.shape;
  }
  const rows = [];
  for (let r = 0; r < 5; r++) rows.push(grid.slice(r * 4, r * 4 + 4).join(''));
  return rows.join('/');
}

/**
 * The time played, in ms.
 * @param {HrState} state
 */
export function elapsed(state) {
  const tm = state.timer;
  return tm.elapsed + (tm.started === null ? 0 : Date.now() - tm.started);
}
