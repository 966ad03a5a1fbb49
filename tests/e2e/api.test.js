// The JSON API answers garbage with a 4xx and a JSON message, never a 500.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './harness.js';

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

test('garbage requests get a 4xx with an error message', async () => {
  const page = await env.context.newPage();
  await page.goto(env.base + '/xq');
  const answers = await page.evaluate(async () => {
    const post = async (path, body, type = 'application/json') => {
      const r = await fetch(path, { method: 'POST', headers: { 'Content-Type': type }, body });
      let json = null;
      try {
        json = await r.json();
      } catch {
        // not JSON
      }
      return { status: r.status, error: json && json.error };
    };
    return [
      await post('/api/xq/game', '\u0000garbage{{'),
      await post('/api/xq/game', '{"moves": "h2e2"}'),
      await post('/api/xq/game', '{"moves": ["zz99"]}'),
      await post('/api/xq/game', '{"moves": ["e0e2"]}'),
      await post('/api/xq/game', '{"fen": "rnbakabnr/9/9"}'),
      await post('/api/xq/game', 'x'.repeat(100000)),
      await post('/api/xq/game', '{}', 'text/plain'),
      await post('/api/no/such/endpoint', '{}'),
    ];
  });
  for (const a of answers) {
    assert.ok(a.status >= 400 && a.status < 500, JSON.stringify(a));
  }
  for (const a of answers.slice(0, 5)) assert.equal(typeof a.error, 'string', JSON.stringify(a));
  await page.close();
});
