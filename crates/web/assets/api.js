// Talks to the server's JSON API. Every error comes back as {"error": "...", "code"?, "vars"?};
// it is thrown as an ApiError carrying the code and values the page translates.

export class ApiError extends Error {
  constructor(message, { code = null, vars = {}, status = 0 } = {}) {
    super(message);
    this.code = code;
    this.vars = vars || {};
    this.status = status;
  }
}

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

export async function api(path, body, { signal } = {}) {
  const init = body === undefined
    ? { method: 'GET', signal }
    : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), signal };
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    throw new ApiError(error.message, { code: 'network' });
  }
  if (!response.ok) throw await failure(response);
  return response.json();
}

// POSTs `body` and reads the answer as server-sent events, calling onEvent(name, data) for
// each; resolves when the stream ends. Aborting `signal` closes the stream (the server then
// stops its work).
export async function stream(path, body, onEvent, { signal } = {}) {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok) throw await failure(response);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) name = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length) onEvent(name, JSON.parse(data.join('\n')));
    }
  }
}
