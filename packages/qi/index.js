// @ts-check
// Qi for JavaScript: the Xiangqi rules, share links, PGN records, engine and Huarong Dao solver
// of the Qi Rust crates, compiled to WebAssembly. One implementation of the rules: the same
// code answers `qi serve`'s API. Call `await load()` once, then use the rest.

import init, * as wasm from './qi_wasm.js';

export { Board, Engine, moveToIccs, iccsToMove, loadNet, unloadNet, netChecksum, evaluate } from './qi_wasm.js';

/** An error answered by Qi: the message, the HTTP-like status, and a code with its values. */
export class QiError extends Error {
  /**
   * @param {string} message
   * @param {number} status
   * @param {string | null} [code]
   * @param {Record<string, string>} [vars]
   */
  constructor(message, status, code = null, vars = {}) {
    super(message);
    this.name = 'QiError';
    this.status = status;
    this.code = code ?? null;
    this.vars = vars ?? {};
  }
}

/** Where the WebAssembly is: hashed by the site's import map in a page, beside this file else. */
function wasmUrl() {
  const meta = /** @type {any} */ (import.meta);
  return new URL(typeof meta.resolve === 'function' ? meta.resolve('./qi_wasm_bg.wasm') : './qi_wasm_bg.wasm', import.meta.url);
}

/** @type {Promise<WebAssembly.Module> | null} */
let compiled = null;

/**
 * The compiled WebAssembly module (once), e.g. to hand to a Web Worker with postMessage.
 * @returns {Promise<WebAssembly.Module>}
 */
export function wasmModule() {
  compiled ??= (async () => {
    const url = wasmUrl();
    if (url.protocol === 'file:') {
      const { readFile } = await import('node:fs/promises');
      return WebAssembly.compile(await readFile(url));
    }
    const response = await fetch(url);
    if (!response.ok) throw new QiError(`cannot load ${url}: ${response.status}`, response.status);
    return WebAssembly.compile(await response.arrayBuffer());
  })();
  return compiled;
}

/** @type {Promise<void> | null} */
let loaded = null;

/**
 * Loads and starts the WebAssembly once; every call returns the same promise.
 * @param {WebAssembly.Module | BufferSource} [source] the module or its bytes (default: the
 *   `qi_wasm_bg.wasm` beside this file, read from disk under Node, fetched in a browser)
 * @returns {Promise<void>}
 */
export function load(source) {
  loaded ??= (async () => {
    await init({ module_or_path: source ?? (await wasmModule()) });
  })();
  return loaded;
}

/**
 * Asks the page API for `path` (as `qi serve` answers `POST /api{path}`) with `body`.
 * @param {string} path `/xq/game`, `/xq/link`, `/xq/record/import`, `/huarong/solve`, …
 * @param {object} [body]
 * @returns {any} the answer
 * @throws {QiError} what the API says is wrong
 */
export function call(path, body = {}) {
  const { status, body: answer } = JSON.parse(wasm.call(path, JSON.stringify(body)));
  if (status !== 200) throw new QiError(answer.error, status, answer.code, answer.vars);
  return answer;
}

/**
 * A game (start FEN and ICCS moves) checked and described at a ply: board, legal moves,
 * check, status, the moves in three notations, its share link.
 * @param {{ fen?: string, moves?: string[], ply?: number }} game
 */
export const describeGame = (game) => call('/xq/game', game);

/** Share links: the compact format and the seed's (game.hullqin.cn). */
export const links = {
  /** @param {string} link a URL, query string or bare value */
  decode: (link) => call('/xq/link', { link }),
  /** @param {{ fen?: string, moves: string[] }} game */
  encode: (game) => call('/xq/link/encode', game),
};

/** PGN records with variations, comments and headers. */
export const pgn = {
  /** @param {string} text */
  read: (text) => call('/xq/record/import', { pgn: text }),
  /** @param {{ fen?: string, tags?: [string, string][], comment?: string, tree: object[], notation?: string }} record */
  write: (record) => call('/xq/record/export', record).pgn,
};

/** Huarong Dao: layouts as text (`VCCV/VCCV/VHHV/VSSV/S..S`) or share codes. */
export const huarong = {
  classics: () => call('/huarong/classics').classics,
  /** @param {string} layout */
  describe: (layout) => call('/huarong/layout', { layout }),
  /** @param {string} layout */
  solve: (layout) => call('/huarong/solve', { layout }),
  /** @param {string} layout */
  hint: (layout) => call('/huarong/hint', { layout }),
  /**
   * A puzzle whose minimum is `min` to `max` steps (both `steps` for exactly that many).
   * @param {{ min?: number, max?: number, steps?: number, pieces?: string, seed?: string }} want
   */
  puzzle: ({ steps, ...want } = {}) => call('/huarong/puzzle', steps ? { ...want, min: steps, max: steps } : want),
};
