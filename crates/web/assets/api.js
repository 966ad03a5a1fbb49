// @ts-check
// The page's API. Everything that is not a room is answered in the page by the Qi libraries
// compiled to WebAssembly (packages/qi): the same functions, and the same JSON, as the server's
// `POST /api/...`, so a share link, the editor, PGN, hints, Huarong Dao and the computer work
// with no server at all. Searches (the computer's move, analysis, review) run in a Web Worker
// (engine.js, loaded with the first search: a page's first load does not carry it) so the page
// never freezes. Rooms (`/api/rooms/...`) go to the server, which is
// their authority. Every error is thrown as an ApiError carrying the code and values the page
// translates.

import { load, call, QiError } from './qi/index.js';

export class ApiError extends Error {
  /**
   * @param {string} message
   * @param {{ code?: string | null, vars?: Record<string, string>, status?: number }} [details]
   */
  constructor(message, { code = null, vars = {}, status = 0 } = {}) {
    super(message);
    this.code = code;
    this.vars = vars || {};
    this.status = status;
  }
}

/** Paths answered in a worker rather than on the page's thread (they think for seconds). */
const SEARCHES = new Set(['/api/xq/engine', '/api/xq/analyse', '/api/xq/review']);

/**
 * A search in the engine's worker (engine.js's `search`, its module fetched on first use).
 * @param {Parameters<typeof import('./engine.js').search>} args
 */
const search = async (...args) => (await import('./engine.js')).search(...args);

/** @param {string} path */
const isLocal = (path) => path.startsWith('/api/') && !path.startsWith('/api/rooms');

/** @param {Response} response */
async function failure(response) {
  let data = null;
  try {
    data = await response.json();
  } catch {
    // a non-JSON answer (e.g. a proxy error page): reported below by status
  }
  const message = data && data.error ? data.error : `${response.status} ${response.statusText}`;
  const code = data?.code ?? (response.status === 429 ? 'busy' : null);
  return new ApiError(message, { code, vars: data?.vars, status: response.status });
}

/**
 * Tells listeners (the browser tests) what the page asked: a `qi:api` event with
 * `{path, body}`, since a local call leaves no request to watch.
 * @param {string} path
 * @param {object | undefined} body
 */
function announce(path, body) {
  if (typeof window !== 'undefined') window.dispatchEvent(new CustomEvent('qi:api', { detail: { path, body } }));
}

/** @param {unknown} error */
function asApiError(error) {
  if (error instanceof QiError) return new ApiError(error.message, { code: error.code, vars: error.vars, status: error.status });
  return error;
}

/**
 * Asks `path` (`/api/...`): locally for everything but rooms, else the server.
 * @param {string} path
 * @param {object} [body] absent for a GET
 * @param {{ signal?: AbortSignal }} [options]
 * @returns {Promise<any>}
 */
export async function api(path, body, { signal } = {}) {
  announce(path, body);
  if (isLocal(path)) {
    try {
      if (SEARCHES.has(path)) return await search(path.slice(4), body ?? {}, null, signal);
      await load();
      return call(path.slice(4), body ?? {});
    } catch (error) {
      throw asApiError(error);
    }
  }
  const init = body === undefined
    ? { method: 'GET', signal }
    : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), signal };
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (error instanceof Error && error.name === 'AbortError') throw error;
    throw new ApiError(error instanceof Error ? error.message : String(error), { code: 'network' });
  }
  if (!response.ok) throw await failure(response);
  return response.json();
}

/**
 * Runs a streamed search (`/api/xq/analyse`, `/api/xq/review`) in the engine worker, calling
 * onEvent(name, data) for each event (`info`/`done`, `position`/`done`) as the server's
 * server-sent events would; resolves when it ends. Aborting `signal` stops the search.
 * @param {string} path
 * @param {object} body
 * @param {(name: string, data: any) => void} onEvent
 * @param {{ signal?: AbortSignal }} [options]
 */
export async function stream(path, body, onEvent, { signal } = {}) {
  announce(path, body);
  try {
    await search(path.slice(4), body, onEvent, signal);
  } catch (error) {
    throw asApiError(error);
  }
}
