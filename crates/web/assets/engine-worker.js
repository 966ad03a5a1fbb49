// The engine's Web Worker: loads the WebAssembly it is given (the page compiled it once) and the
// engine's net (the page fetched it once), then
// runs one search at a time: the computer's move (`/xq/engine`, answered as the server's
// `POST /api/xq/engine`), or analysis and review, whose events it posts as they come.

/** @type {any} */
let qi = null;
/** @type {any} */
let engine = null;
/** @type {Promise<void> | null} */
let ready = null;

self.onmessage = async (event) => {
  const m = event.data;
  if (m.type === 'init') {
    ready = import(m.glue).then(async (glue) => {
      await glue.default({ module_or_path: m.module });
      qi = glue;
      // The net first: engines made afterwards (and the computer's moves) evaluate with it.
      // A net that does not load leaves the hand-written evaluation: a weaker engine, not none.
      if (m.net) {
        try {
          glue.loadNet(new Uint8Array(m.net));
        } catch (e) {
          console.warn('the engine net did not load:', e);
        }
      }
      engine = new glue.Engine(16);
    });
    return;
  }
  await ready;
  const post = (/** @type {object} */ message) => self.postMessage({ id: m.id, ...message });
  const onEvent = (/** @type {string} */ name, /** @type {string} */ data) => {
    post({ type: 'event', name, data });
    return true;
  };
  let answer;
  if (m.path === '/xq/engine') answer = qi.call(m.path, m.body);
  else if (m.path === '/xq/analyse') answer = engine.analyse(m.body, onEvent);
  else if (m.path === '/xq/review') answer = engine.review(m.body, onEvent);
  else answer = JSON.stringify({ status: 404, body: { error: `no search ${m.path}` } });
  const { status, body } = answer ? JSON.parse(answer) : { status: 200, body: null };
  post({ type: 'answer', status, body });
};
