// Talks to the server's JSON API. Every error comes back as {"error": "..."}; it is thrown as an Error.

export async function api(path, body) {
  const init = body === undefined
    ? { method: 'GET' }
    : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
  const response = await fetch(path, init);
  let data = null;
  try {
    data = await response.json();
  } catch {
    // a non-JSON answer (e.g. a proxy error page): reported below by status
  }
  if (!response.ok) {
    throw new Error(data && data.error ? data.error : `${response.status} ${response.statusText}`);
  }
  return data;
}
