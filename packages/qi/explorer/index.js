// @ts-check
// Qi's opening explorer and opening names for JavaScript: a WebAssembly module of its own
// (crates/wasm-explorer), apart from the package's main one, so that a page loads the master
// games only when it needs them. Call `await loadExplorer()` once, then use the rest; they
// answer as `qi explore --json`, `qi opening --json` and the server's `/api/xq/explore` do.

import init, * as wasm from './qi_explorer.js';

/** Where the WebAssembly is: hashed by the site's import map in a page, beside this file else. */
function wasmUrl() {
  const meta = /** @type {any} */ (import.meta);
  const name = './qi_explorer_bg.wasm';
  return new URL(typeof meta.resolve === 'function' ? meta.resolve(name) : name, import.meta.url);
}

/** @type {Promise<void> | null} */
let loaded = null;

/**
 * Loads and starts the explorer's WebAssembly once; every call returns the same promise.
 * @param {WebAssembly.Module | BufferSource} [source] the module or its bytes (default: the
 *   `qi_explorer_bg.wasm` beside this file, read from disk under Node, fetched in a browser)
 * @returns {Promise<void>}
 */
export function loadExplorer(source) {
  loaded ??= (async () => {
    let module = source;
    if (!module) {
      const url = wasmUrl();
      if (url.protocol === 'file:') {
        const { readFile } = await import('node:fs/promises');
        module = await readFile(url);
      } else {
        const response = await fetch(url);
        if (!response.ok) throw new Error(`cannot load ${url}: ${response.status}`);
        module = await response.arrayBuffer();
      }
    }
    await init({ module_or_path: module });
  })();
  // A failed load (offline, say) may be tried again.
  loaded.catch(() => { loaded = null; });
  return loaded;
}

/**
 * The module's answer, or its error thrown.
 * @param {string} text
 */
function unwrap(text) {
  const { status, body } = JSON.parse(text);
  if (status !== 200) throw Object.assign(new Error(body.error), { status });
  return body;
}

/**
 * The explorer's report for a position: the moves played from it, with their games, results and
 * a typical game, and the ECCO opening.
 * @param {{fen?: string, moves?: string[]}} position moves in any notation
 * @param {'all' | 'master' | 'mine'} [sources] the master games, the user's, or both (default)
 */
export function explore(position, sources = 'all') {
  return unwrap(wasm.explore(JSON.stringify(position), sources));
}

/**
 * The ECCO opening of a game: `{code, name_zh, name_en}`, or null.
 * @param {{fen?: string, moves?: string[]}} game
 */
export function classify(game) {
  return unwrap(wasm.classify(JSON.stringify(game)));
}

/**
 * Adds games to the user's explorer (all or none): `{added, games}`.
 * @param {{id: string, fen?: string, moves: string[], result?: string}[]} games
 */
export function addGames(games) {
  return unwrap(wasm.addGames(JSON.stringify(games)));
}

/** The user's explorer packed (about one byte a move), to keep. */
export function myGames() {
  return wasm.myGames();
}

/** How many games the user's explorer holds. */
export function myGamesCount() {
  return wasm.myGamesCount();
}

/**
 * Replaces the user's explorer with what `myGames` gave: `{games}`.
 * @param {Uint8Array} bytes
 */
export function loadMyGames(bytes) {
  return unwrap(wasm.loadMyGames(bytes));
}

/** Empties the user's explorer. */
export function clearMyGames() {
  wasm.clearMyGames();
}
