// @ts-check
// The engine in Web Workers (engine-worker.js): one worker per kind of search (the computer's
// move, analysis, review), each keeping its engine and hash table between searches. A search
// that is aborted, or replaced by a new one of its kind, ends its worker at once (a search
// cannot be told to stop from outside without shared memory, which a plain static server
// cannot enable); the next search starts a fresh worker. Every worker evaluates with the
// engine's net, fetched on the first search.

import { wasmModule, QiError } from './qi/index.js';

/** @type {Promise<ArrayBuffer | null> | null} */
let netBytes = null;

/**
 * The engine's net, fetched once on the first search (it is not part of the page's first load;
 * the service worker keeps it afterwards). `null` if it cannot be had: the engine then plays
 * with its hand-written evaluation rather than not at all.
 * @returns {Promise<ArrayBuffer | null>}
 */
function net() {
  netBytes ??= fetch(import.meta.resolve('./nets/default.nnue'))
    .then((r) => (r.ok ? r.arrayBuffer() : null))
    .catch(() => null);
  return netBytes;
}

/** @type {Map<string, { worker: Worker, busy: null | { reject: (e: unknown) => void } }>} */
const workers = new Map();
let jobs = 0;

/** @param {string} kind */
async function workerFor(kind) {
  let entry = workers.get(kind);
  if (entry && entry.busy) {
    entry.busy.reject(new DOMException('replaced by a newer search', 'AbortError'));
    entry.worker.terminate();
    entry = undefined;
  }
  if (!entry) {
    const worker = new Worker(import.meta.resolve('./engine-worker.js'), { type: 'module' });
    const [module, bytes] = await Promise.all([wasmModule(), net()]);
    // Each worker gets its own copy of the net's bytes (a transfer would empty ours).
    worker.postMessage({ type: 'init', glue: import.meta.resolve('./qi/qi_wasm.js'), module, net: bytes?.slice(0) ?? null });
    entry = { worker, busy: null };
    workers.set(kind, entry);
  }
  return entry;
}

/**
 * Runs the search `path` (`/xq/engine`, `/xq/analyse`, `/xq/review`) with `body` in its
 * worker; `onEvent` gets the streamed events of analysis and review. Resolves with the answer
 * (the engine's move) or when the stream is done.
 * @param {string} path
 * @param {object} body
 * @param {((name: string, data: any) => void) | null} onEvent
 * @param {AbortSignal | null | undefined} signal
 * @returns {Promise<any>}
 */
export async function search(path, body, onEvent, signal) {
  if (signal?.aborted) throw new DOMException('aborted', 'AbortError');
  const entry = await workerFor(path);
  const id = ++jobs;
  return new Promise((resolve, reject) => {
    const stop = () => {
      entry.worker.terminate();
      if (workers.get(path) === entry) workers.delete(path);
      reject(new DOMException('aborted', 'AbortError'));
    };
    signal?.addEventListener('abort', stop, { once: true });
    const finish = () => {
      entry.busy = null;
      entry.worker.onmessage = null;
      signal?.removeEventListener('abort', stop);
    };
    entry.busy = { reject: (e) => { finish(); reject(e); } };
    entry.worker.onmessage = (event) => {
      const m = event.data;
      if (m.id !== id) return;
      if (m.type === 'event') onEvent?.(m.name, JSON.parse(m.data));
      else if (m.type === 'answer') {
        finish();
        if (m.status === 200) resolve(m.body);
        else reject(new QiError(m.body.error, m.status, m.body.code, m.body.vars));
      }
    };
    entry.worker.onerror = (event) => {
      finish();
      reject(new QiError(event.message || 'the engine stopped', 500));
    };
    entry.worker.postMessage({ type: 'run', id, path, body: JSON.stringify(body) });
  });
}
