// How the board feels: moves slide, sounds (and the mute switch), the embedded piece font,
// the Western piece set, dark mode and themes, keyboard and screen-reader access, typed moves,
// and moves shown before the server answers.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { setup, boardState, clickMove, clickSquare, pointCentre } from './harness.js';
import { open, waitMessage, waitPly, shot } from './xq-helpers.js';

let env;
before(async () => {
  env = await setup();
  await env.context.addInitScript(() => {
    window.__sounds = [];
    document.addEventListener('qi-sound', (e) => window.__sounds.push(e.detail));
  });
});
after(async () => {
  await env?.close();
});

// Records the screen x of the piece that lands on `square` for a while, from the page itself.
async function sampleSlide(page, square) {
  await page.evaluate((sq) => {
    window.__xs = [];
    const end = performance.now() + 600;
    const tick = () => {
      const n = document.querySelector(`#board .piece[data-square="${sq}"]`);
      if (n) window.__xs.push(n.getBoundingClientRect().x);
      if (performance.now() < end) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }, square);
}

test('moves slide: when played, when replayed and when the computer moves', async () => {
  const page = await open(env, '/xq');
  const from = await pointCentre(page, 'h2');
  const to = await pointCentre(page, 'e2');
  await clickSquare(page, 'h2');
  await sampleSlide(page, 'e2');
  await clickSquare(page, 'e2');
  await page.waitForTimeout(700);
  const between = (xs) => xs.filter((x) => x + 27 < from.x - 2 && x + 27 > to.x + 2).length;
  let xs = await page.evaluate(() => window.__xs);
  assert.ok(between(xs) >= 2, `the cannon passes between h2 and e2: ${xs.map(Math.round)}`);
  // Replaying: one step forward slides too.
  await page.click('#prev');
  await waitPly(page, 0);
  await sampleSlide(page, 'e2');
  await page.click('#next');
  await page.waitForTimeout(700);
  xs = await page.evaluate(() => window.__xs);
  assert.ok(between(xs) >= 2, `replay slides: ${xs.map(Math.round)}`);
  // The computer's move slides: some piece is seen between two points.
  await page.evaluate(() => {
    window.__moving = 0;
    const end = performance.now() + 8000;
    const tick = () => {
      if (document.getAnimations().some((a) => a.effect?.target?.classList?.contains('piece'))) window.__moving += 1;
      if (performance.now() < end) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await page.click('#engine');
  await page.waitForSelector('#board[data-ready="true"][data-plies="2"]', { timeout: 15000 });
  await page.waitForTimeout(300);
  assert.ok(await page.evaluate(() => window.__moving) > 0, 'the computer move is animated');
  await page.close();
});

test('sounds for move, capture, check and game end; the mute switch survives a reload', async () => {
  const page = await open(env, '/xq');
  const sounds = () => page.evaluate(() => window.__sounds);
  const goto = async (path) => {
    await page.goto(env.base + path);
    await page.waitForSelector('#board[data-ready="true"]');
  };
  assert.equal(await page.isChecked('#mute'), false);
  await clickMove(page, 'h2e2');
  assert.deepEqual(await sounds(), ['move']);
  await goto('/xq?moves=h2e2.h9g7');
  await clickMove(page, 'e2e6'); // the cannon takes the pawn
  assert.deepEqual(await sounds(), ['capture']);
  await goto('/xq?fen=' + encodeURIComponent('3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1'));
  await clickMove(page, 'a0a9');
  assert.deepEqual(await sounds(), ['check']);
  await goto('/xq?fen=' + encodeURIComponent('3k5/9/3P5/9/9/9/9/9/9/4K3R w - - 0 1'));
  await clickMove(page, 'i0i9'); // mate
  assert.deepEqual(await sounds(), ['end']);
  // Replaying a move sounds too.
  await goto('/xq?moves=h2e2.h9g7.e2e6&ply=2');
  await page.click('#next');
  await page.waitForFunction(() => window.__sounds.length === 1);
  assert.deepEqual(await sounds(), ['capture']);

  await page.click('.settings summary');
  await page.check('#mute');
  await page.click('#prev');
  await waitPly(page, 2);
  await page.click('#next');
  await waitPly(page, 3);
  assert.deepEqual(await sounds(), ['capture'], 'muted: nothing more');
  await page.reload();
  await page.waitForSelector('#board[data-ready="true"]');
  assert.equal(await page.isChecked('#mute'), true, 'the switch is kept');
  await page.click('.settings summary');
  await page.uncheck('#mute');
  await page.close();
});

test('the pieces use the embedded font: 帥 and 將 show even with no CJK font installed', async () => {
  const page = await open(env, '/xq');
  await page.evaluate(() => document.fonts.ready);
  const loaded = await page.evaluate(() => [...document.fonts].some((f) => f.family.replace(/"/g, '') === 'Qi Xiangqi' && f.status === 'loaded'));
  assert.ok(loaded, 'the Qi Xiangqi font face is loaded');
  const font = await page.locator('#board .piece[data-square="e0"] text').evaluate((n) => getComputedStyle(n).fontFamily);
  assert.match(font, /^"?Qi Xiangqi/);
  const size = await page.evaluate(async () => (await fetch('/assets/fonts/qi-xiangqi.woff2')).headers.get('content-type'));
  assert.equal(size, 'font/woff2');
  await page.close();

  // A browser whose fontconfig knows only a Latin font (DejaVu): a machine without CJK fonts.
  const dir = mkdtempSync(join(tmpdir(), 'qi-nofonts-'));
  writeFileSync(join(dir, 'fonts.conf'), `<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig><dir>/usr/share/fonts/truetype/dejavu</dir><cachedir>${dir}/cache</cachedir></fontconfig>`);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
    env: { ...process.env, FONTCONFIG_FILE: join(dir, 'fonts.conf') },
  });
  try {
    const bare = await browser.newPage();
    await bare.goto(env.base + '/xq');
    await bare.waitForSelector('#board[data-ready="true"]');
    await bare.evaluate(() => document.fonts.ready);
    // Draw glyphs in the page's piece font: real glyphs differ from each other and from a
    // character the subset lacks (which can only come out as an empty box, or nothing).
    const images = await bare.evaluate(() => {
      const draw = (ch, family) => {
        const c = document.createElement('canvas');
        c.width = c.height = 48;
        const g = c.getContext('2d');
        g.font = `700 40px ${family}`;
        g.fillText(ch, 4, 40);
        const d = g.getImageData(0, 0, 48, 48).data;
        let ink = 0;
        let hash = 0;
        for (let i = 3; i < d.length; i += 4) {
          ink += d[i] > 128 ? 1 : 0;
          hash = (hash * 31 + (d[i] > 128 ? 1 : 0)) | 0;
        }
        return { ink, hash };
      };
      const family = '"Qi Xiangqi"';
      return { shuai: draw('帥', family), jiang: draw('將', family), missing: draw('鬱', family), sans: draw('帥', 'sans-serif') };
    });
    assert.ok(images.shuai.ink > 150 && images.jiang.ink > 150, JSON.stringify(images));
    assert.notEqual(images.shuai.hash, images.jiang.hash, 'two different glyphs');
    assert.notEqual(images.shuai.hash, images.missing.hash, 'not the missing-glyph box');
    assert.notEqual(images.shuai.hash, images.sans.hash, 'the system draws 帥 differently (or not at all) without the embedded font');
    await bare.screenshot({ path: `${process.env.QI_SHOTS || dir}/no-fonts.png` });
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a Western piece set, dark mode and board themes', async () => {
  const page = await open(env, '/xq');
  await page.click('.settings summary');
  await page.selectOption('#piece-set', 'western');
  assert.equal(await page.locator('#board .piece[data-square="e0"] text').textContent(), 'K');
  assert.equal(await page.locator('#board .piece[data-square="b0"] text').textContent(), 'H');
  await page.reload();
  await page.waitForSelector('#board[data-ready="true"]');
  assert.equal(await page.locator('#board .piece[data-square="e9"] text').textContent(), 'K', 'kept across reloads');
  await page.click('.settings summary');
  await page.selectOption('#piece-set', 'chinese');
  const wood = () => page.locator('#board .wood').evaluate((n) => getComputedStyle(n).fill);
  const light = await wood();
  await page.selectOption('#theme', 'jade');
  assert.notEqual(await wood(), light);
  await page.selectOption('#theme', 'wood');
  await page.emulateMedia({ colorScheme: 'dark' });
  const bg = await page.evaluate(() => getComputedStyle(document.body.parentElement).backgroundColor);
  const [r, g, b] = bg.match(/\d+/g).map(Number);
  assert.ok(r + g + b < 200, `dark background: ${bg}`);
  await shot(page, 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.close();
});

test('keyboard: walk the points, pick up and put down a piece; type moves in any notation', async () => {
  const page = await open(env, '/xq');
  await page.selectOption('#notation', 'chinese');
  await page.focus('#board .point[data-square="h2"]');
  assert.match(await page.locator('#board .point[data-square="h2"]').getAttribute('aria-label'), /h2 Red cannon/);
  await page.keyboard.press('Enter');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.square), 'e2');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#board[data-ready="true"][data-plies="1"]');
  assert.match(await page.locator('#board-desc').textContent(), /Last move: 炮二平五/);
  assert.match(await page.locator('#board-desc').textContent(), /Red: .*king e0/);
  assert.equal(await page.locator('#board svg').getAttribute('aria-describedby'), 'board-desc');

  for (const [text, plies] of [['马8进7', 2], ['H2+3', 3], ['i9h9', 4]]) {
    await page.fill('#move-input', text);
    await page.press('#move-input', 'Enter');
    await page.waitForSelector(`#board[data-ready="true"][data-plies="${plies}"]`);
    assert.equal(await page.inputValue('#move-input'), '');
  }
  assert.equal((await boardState(page)).fen, 'rnbakabr1/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3');
  await page.fill('#move-input', '炮八平九九');
  await page.press('#move-input', 'Enter');
  await waitMessage(page, /is not a move/);
  await page.fill('#move-input', 'e3e5');
  await page.press('#move-input', 'Enter');
  assert.match(await waitMessage(page, /Illegal/), /Illegal move 兵五进二: the pawn does not move that way/);
  await page.close();
});

test('a move is answered in the page, with no request to the server', async () => {
  const page = await open(env, '/xq');
  const requests = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/')) requests.push(r.url());
  });
  await clickSquare(page, 'h2');
  await clickSquare(page, 'e2');
  await page.waitForSelector('#board[data-ready="true"][data-plies="1"]');
  assert.equal(await page.locator('#board .piece[data-square="e2"]').count(), 1, 'the cannon is on e2');
  assert.equal((await boardState(page)).moves.at(-1), '炮二平五');
  assert.deepEqual(requests, [], 'nothing was asked of the server');
  await page.close();
});
