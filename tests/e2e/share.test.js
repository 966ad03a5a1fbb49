// A shared game shows itself: the preview tags and picture of each link form, the embeddable
// board in an iframe on another origin (from the oEmbed answer), the share panels' QR codes
// decoded back to their links, bad links answered 400, and the embed page in the static site.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import jsQR from 'jsqr';
import { setup, ready, clickMove } from './harness.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const MOVES = ['h2e2', 'h9g7', 'h0g2', 'i9h9', 'i0h0', 'b9c7'];

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

/** The server's JSON API. */
async function post(path, body) {
  const response = await fetch(env.base + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(response.status, 200, path);
  return response.json();
}

/** The FEN after `ply` of MOVES. */
async function fenAt(ply) {
  return (await post('/api/xq/game', { moves: MOVES, ply })).fen;
}

/** The content of meta tag `name` in `html`. */
function meta(html, name) {
  const match = html.match(new RegExp(`(?:property|name)="${name}" content="([^"]*)"`));
  return match ? match[1].replace(/&amp;/g, '&') : null;
}

/** A PNG's width and height from its header. */
function pngSize(bytes) {
  assert.deepEqual([...bytes.subarray(1, 4)], [0x50, 0x4e, 0x47], 'a PNG');
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return [view.getUint32(16), view.getUint32(20)];
}

test('each link form carries preview tags, and its picture is a large PNG, the same bytes each time', async () => {
  const links = await post('/api/xq/link/encode', { moves: MOVES });
  const forms = [links.compact, links.seed, `fen=${encodeURIComponent((await post('/api/xq/game', { moves: [] })).fen)}&moves=${MOVES.join('.')}`];
  const pictures = [];
  for (const query of forms) {
    const html = await (await fetch(`${env.base}/xq?${query}`, { headers: { 'Accept-Language': 'zh-CN,zh;q=0.9' } })).text();
    assert.equal(meta(html, 'og:title'), '象棋对局 · 6 步', query);
    assert.match(meta(html, 'og:description'), /^共 6 步，最后一步 马2进3。轮到红方走棋。/);
    assert.equal(meta(html, 'twitter:card'), 'summary_large_image');
    assert.equal(meta(html, 'og:url'), `${env.base}/xq?${query}`);
    const image = meta(html, 'og:image');
    assert.ok(image.startsWith(`${env.base}/preview/xq.png?`), image);
    const response = await fetch(image);
    assert.equal(response.status, 200);
    assert.ok(response.headers.get('etag'));
    const bytes = new Uint8Array(await response.arrayBuffer());
    const [w, h] = pngSize(bytes);
    assert.ok(w >= 1200 && h >= 630, `${w}x${h}`);
    pictures.push(Buffer.from(bytes).toString('base64'));
  }
  assert.equal(new Set(pictures).size, 1, 'one game, one picture, whatever the link form');
  const other = await fetch(`${env.base}/preview/xq.png?moves=h2e2`);
  assert.notEqual(Buffer.from(await other.arrayBuffer()).toString('base64'), pictures[0], 'two games, two pictures');
  // The Huarong page: the layout and its minimum steps.
  const html = await (await fetch(`${env.base}/huarong?l=VCCV/VCCV/VHHV/VSSV/S..S`)).text();
  assert.equal(meta(html, 'og:title'), '横刀立马 · Huarong Dao');
  assert.match(meta(html, 'og:description'), /81 steps/);
  const [w, h] = pngSize(new Uint8Array(await (await fetch(meta(html, 'og:image'))).arrayBuffer()));
  assert.deepEqual([w, h], [1200, 630]);
});

test('bad links get a clear 400', async () => {
  for (const path of ['/preview/xq.png?g=BQ*g', '/preview/xq.png?moves=h2e2.h2e2', '/preview/huarong.png?l=nope', '/oembed?url=http%3A%2F%2Fx%2Fxq%3Fg%3D*&format=json']) {
    const response = await fetch(env.base + path);
    assert.equal(response.status, 400, path);
    assert.ok((await response.json()).error, path);
  }
});

test('the oEmbed iframe on another origin shows the last move, steps back and fits 280 px', async () => {
  const { compact } = await post('/api/xq/link/encode', { moves: MOVES });
  const url = encodeURIComponent(`${env.base}/xq?${compact}`);
  const oembed = await (await fetch(`${env.base}/oembed?url=${url}&format=json&maxwidth=280`)).json();
  assert.equal(oembed.type, 'rich');
  assert.equal(oembed.width, 280);
  const page = await env.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // Another site on another origin (another port: Chromium keeps public pages from framing
  // loopback ones, so the forum is local too).
  const forum = createServer((req, res) => {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(`<!doctype html><h1>A forum</h1>${oembed.html}`);
  });
  await new Promise((resolve) => forum.listen(0, '127.0.0.1', resolve));
  after(() => forum.close());
  await page.goto(`http://127.0.0.1:${forum.address().port}/thread`);
  const frame = page.frameLocator('iframe');
  const board = frame.locator('#board[data-ready="true"]');
  await board.waitFor();
  assert.equal(await board.getAttribute('data-fen'), await fenAt(6), 'at the last move');
  assert.equal(await frame.locator('#board .last-to').count(), 1, 'the last move marked');
  assert.equal(await frame.locator('#moves li').count(), 6);
  assert.equal(await frame.locator('#moves li.current').textContent(), '马2进3');
  // A step back with the button, another with the arrow key.
  await frame.locator('#prev').click();
  await frame.locator('#board[data-ply="5"]').waitFor();
  assert.equal(await frame.locator('#board').getAttribute('data-fen'), await fenAt(5));
  await frame.locator('#board').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('ArrowLeft');
  await frame.locator('#board[data-ply="4"]').waitFor();
  assert.equal(await frame.locator('#board').getAttribute('data-fen'), await fenAt(4));
  // Rotate; the link back to the full board keeps the ply on view.
  await frame.locator('#flip').click();
  await frame.locator('#board[data-flipped="true"]').waitFor();
  const back = await frame.locator('#full').getAttribute('href');
  assert.equal(back, `${env.base}/xq?${compact}&ply=4&flip=1`);
  // It fits 280 px: nothing sticks out sideways.
  const inner = page.frames().find((f) => f.url().startsWith(`${env.base}/embed`));
  const widths = await inner.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  assert.ok(widths[0] <= widths[1], `scroll width ${widths[0]} in ${widths[1]}`);
  assert.ok(widths[1] <= 280, `${widths[1]}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the embed page plays itself with autoplay', async () => {
  const page = await env.context.newPage();
  await page.goto(`${env.base}/embed?moves=${MOVES.slice(0, 2).join('.')}&autoplay=1`);
  await page.waitForSelector('#autoplay[aria-pressed="true"]');
  await page.waitForSelector('#board[data-ply="2"]', { timeout: 10000 });
  await page.waitForSelector('#autoplay[aria-pressed="false"]', { timeout: 10000 });
  await page.close();
});

/** Decodes the QR code drawn in `selector` (an SVG) on `page`: drawn on a canvas, read by jsQR. */
async function decodeQr(page, selector) {
  const image = await page.evaluate(async (sel) => {
    const svg = document.querySelector(sel);
    const text = new XMLSerializer().serializeToString(svg);
    const img = new Image();
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
    await img.decode();
    const size = 400;
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = size;
    const ctx = canvas.getContext('2d');
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(img, 0, 0, size, size);
    return { size, data: Array.from(ctx.getImageData(0, 0, size, size).data) };
  }, selector);
  const code = jsQR(Uint8ClampedArray.from(image.data), image.size, image.size);
  assert.ok(code, `a QR code in ${selector}`);
  return code.data;
}

test('the share panels show the link as a QR code that decodes back to it, and the embed snippet', async () => {
  const page = await env.context.newPage();
  await page.goto(`${env.base}/xq?moves=${MOVES.join('.')}`);
  await ready(page);
  await clickMove(page, 'c3c4');
  await page.click('#share-more summary');
  await page.waitForFunction(() => document.querySelector('#share-qr svg')?.dataset.text === document.getElementById('share-link').value);
  const link = await page.inputValue('#share-link');
  assert.equal(await decodeQr(page, '#share-qr svg'), link);
  const snippet = await page.inputValue('#embed-code');
  assert.match(snippet, /^<iframe src="http:\/\/[^"]+\/embed\?g=[^"]+" width="400" height="600"/);

  await page.goto(`${env.base}/huarong?l=VCCV/VCCV/VHHV/VSSV/S..S`);
  await page.waitForSelector('#share-qr svg', { state: 'attached' });
  await page.click('#share-more summary');
  assert.equal(await decodeQr(page, '#share-qr svg'), await page.inputValue('#share-link'));
  await page.close();
});

test('the room page shows the invite link as a QR code', async () => {
  const room = await post('/api/rooms', {});
  const page = await env.context.newPage();
  // The creator's page remembers the invitation it handed out (as the "Play a friend" dialog does).
  await page.goto(`${env.base}/`);
  await page.evaluate((r) => localStorage.setItem(`qi-room-${r.room}`, JSON.stringify({ invite: r.links.black, watch: r.links.watch })), room);
  await page.goto(room.links.red);
  await page.waitForSelector('#online-invite-qr svg', { state: 'attached' });
  await page.click('#online-links details summary');
  assert.equal(await page.inputValue('#online-invite'), room.links.black);
  assert.equal(await decodeQr(page, '#online-invite-qr svg'), room.links.black);
  assert.equal(await decodeQr(page, '#online-watch-qr svg'), room.links.watch);
  await page.close();
});

test('the embed page works in the static site, with no server', async () => {
  const site = mkdtempSync(join(tmpdir(), 'qi-site-embed-'));
  const binary = process.env.QI_BIN || join(ROOT, 'target', 'release', 'qi');
  execFileSync(binary, ['site', '--out', site, '--json'], { encoding: 'utf8' });
  const child = spawn('python3', ['-u', '-m', 'http.server', '--bind', '127.0.0.1', '--directory', site, '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const port = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
        const match = out.match(/port (\d+)/);
        if (match) resolve(match[1]);
      });
      child.on('exit', (code) => reject(new Error(`http.server exited with ${code}`)));
    });
    const { compact } = await post('/api/xq/link/encode', { moves: MOVES });
    const page = await env.context.newPage();
    await page.goto(`http://127.0.0.1:${port}/embed/?${compact}`);
    await page.waitForSelector('#board[data-ready="true"][data-ply="6"]');
    assert.equal(await page.getAttribute('#board', 'data-fen'), await fenAt(6));
    await page.keyboard.press('Home');
    await page.waitForSelector('#board[data-ply="0"]');
    await page.close();
  } finally {
    child.kill();
    rmSync(site, { recursive: true, force: true });
  }
});
