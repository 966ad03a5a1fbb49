// @ts-check
// The "Board size" setting: the board is drawn as large as the window allows, or smaller, for
// players who want room for the tools beside it. Kept in localStorage and applied as the style
// sheet's --board-scale, which every page's board size is multiplied by.

const KEY = 'qi-board-size';

/** The sizes offered, as fractions of the largest board that fits. */
export const SIZES = /** @type {const} */ ({ large: 1, medium: 0.85, small: 0.7 });

/** The size chosen: a key of SIZES. @returns {keyof typeof SIZES} */
export function boardSize() {
  const stored = localStorage.getItem(KEY);
  return stored && Object.hasOwn(SIZES, stored) ? /** @type {keyof typeof SIZES} */ (stored) : 'large';
}

/** Sizes the page's board as chosen. */
export function applyBoardSize() {
  document.documentElement.style.setProperty('--board-scale', String(SIZES[boardSize()]));
}

/**
 * Chooses a size (an unknown one means the largest) and applies it.
 * @param {string} size
 */
export function setBoardSize(size) {
  localStorage.setItem(KEY, Object.hasOwn(SIZES, size) ? size : 'large');
  applyBoardSize();
}
