// What a visit to `qi serve` costs: the first load of /xq in bytes on the wire (compressed;
// goal at most 500 KB) and the second (goal: nothing but the page itself, revalidated with a
// 304). The service worker is blocked here so that the browser's own HTTP cache is measured.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setup, ready, launchPersistent } from './harness.js';

let env;
let context;
let profile;
before(async () => {
  env = await setup();
  profile = mkdtempSync(join(tmpdir(), 'qi-e2e-cache-'));
  context = await launchPersistent(profile, { serviceWorkers: 'block' });
});
after(async () => {
  await context?.close();
  await env?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/** Loads `url` in `page` and returns what went over the network: [{url, status, bytes}]. */
async function visit(page, url) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const responses = new Map();
  const wire = [];
  cdp.on('Network.responseReceived', (e) => {
    if (!e.response.fromDiskCache && !e.response.fromServiceWorker && !e.response.fromPrefetchCache) {
      responses.set(e.requestId, { url: e.response.url, status: e.response.status });
    }
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = responses.get(e.requestId);
    if (r) wire.push({ ...r, bytes: e.encodedDataLength });
  });
  await page.goto(url);
  await ready(page);
  // The WebAssembly and the piece font load after the board: let them finish.
  await page.waitForLoadState('networkidle');
  await cdp.detach();
  return wire;
}

test('the first load of /xq is compressed and small; the second sends nothing but the page', async () => {
  const page = await context.newPage();
  const first = await visit(page, env.base + '/xq');
  const bytes = first.reduce((sum, r) => sum + r.bytes, 0);
  console.log(`# first load of /xq: ${first.length} responses, ${bytes} bytes on the wire`);
  assert.ok(first.some((r) => r.url.endsWith('.wasm')), 'the WebAssembly is part of the page');
  assert.ok(bytes <= 500 * 1024, `${bytes} bytes`);
  const second = await visit(page, env.base + '/xq');
  const wireBytes = second.reduce((sum, r) => sum + r.bytes, 0);
  console.log(`# second load of /xq: ${JSON.stringify(second)} (${wireBytes} bytes)`);
  // What came over the network at all (memory-cache hits show with no bytes): only the page,
  // revalidated (a 304, which Chromium reports to the page as the cached 200).
  const fetched = second.filter((r) => r.bytes > 0);
  assert.deepEqual(fetched.map((r) => new URL(r.url).pathname), ['/xq']);
  assert.ok(fetched[0].bytes < 1024, `the page was revalidated, not sent again: ${fetched[0].bytes} bytes`);
  await page.close();
});

test('hashed files are cached for ever, compressed, and validated by their hash', async () => {
  const page = await context.newPage();
  await page.goto(env.base + '/xq');
  const map = JSON.parse(await page.locator('script[type="importmap"]').textContent());
  const hashed = map.imports['/assets/xq.js'];
  assert.match(hashed, /^\/assets\/xq\.[0-9a-f]{10}\.js$/);
  const res = await page.request.get(env.base + hashed, { headers: { 'Accept-Encoding': 'br, gzip' } });
  assert.equal(res.headers()['cache-control'], 'public, max-age=31536000, immutable');
  assert.equal(res.headers()['content-encoding'], 'br');
  const etag = res.headers().etag;
  const again = await page.request.get(env.base + '/assets/xq.js', { headers: { 'If-None-Match': etag } });
  assert.equal(again.status(), 304);
  assert.equal(again.headers()['cache-control'], 'no-cache');
  await page.close();
});
