// Regression tests for the Xiangqi page's bugs of issue 11: bad links, undo, messages and their
// language, 404 page and favicon, layout, home page.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, boardState, clickMove, clickSquare, pickLanguage } from './harness.js';
import { open, message, waitMessage, waitPly, shot, showTab } from './xq-helpers.js';

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

test('a bad link is reported and the address stays as the user gave it until they act', async () => {
  const page = await open(env, '/xq?g=@@@');
  const text = await waitMessage(page, /could not be opened/);
  assert.match(text, /bad link/);
  assert.equal(new URL(page.url()).search, '?g=@@@', 'the address is not rewritten');
  assert.equal((await boardState(page)).plies, 0);
  await clickMove(page, 'h2e2'); // the user acts: now the address follows the game
  assert.match(page.url(), /\/xq\?g=[\w-]+$/);
  assert.equal(await message(page), '', 'the old message is gone');
  await page.close();
});

test('a link with an illegal move keeps the moves before it and says which one failed and why', async () => {
  const page = await open(env, '/xq?moves=h2e2.h2e2');
  const text = await waitMessage(page, /could not be opened/);
  assert.match(text, /Move 2 \(h2e2\) is illegal: there is no piece there\. Kept: 1 moves/);
  const s = await boardState(page);
  assert.equal(s.plies, 1, 'the valid first move is kept');
  assert.equal(new URL(page.url()).search, '?moves=h2e2.h2e2');
  await page.close();
});

test('undo against the computer takes back a full round, and is disabled on an earlier move', async () => {
  const page = await open(env, '/xq');
  await page.check('#engine-auto');
  await clickMove(page, 'h2e2');
  await page.waitForSelector('#board[data-ready="true"][data-plies="2"]', { timeout: 15000 });
  await page.click('#undo');
  await page.waitForSelector('#board[data-ready="true"][data-plies="0"]');
  assert.match(await page.locator('#status').textContent(), /Red to move/);
  await page.waitForTimeout(1500);
  assert.equal((await boardState(page)).plies, 0, 'the computer does not move for the user');
  // The game goes on normally.
  await clickMove(page, 'b0c2');
  await page.waitForSelector('#board[data-ready="true"][data-plies="2"]', { timeout: 15000 });
  await page.uncheck('#engine-auto');
  // Viewing an earlier move: undo is disabled (it would take back a move not on view).
  await page.click('#prev');
  await waitPly(page, 1, 2);
  assert.equal(await page.isDisabled('#undo'), true);
  await page.click('#last');
  await waitPly(page, 2, 2);
  await page.click('#undo');
  await waitPly(page, 1, 1);
  await page.close();
});

test('messages: stale ones go, illegal moves say why in the chosen notation, server errors are translated', async () => {
  const pinned = '/xq?fen=' + encodeURIComponent('3kr4/9/9/9/9/9/4R4/9/9/4K4 w - - 0 1');
  const page = await open(env, pinned);
  await page.selectOption('#notation', 'chinese');
  await clickSquare(page, 'e3');
  await clickSquare(page, 'd3');
  let text = await waitMessage(page, /pinned/);
  assert.equal(text, 'Illegal move 车五平六: the rook is pinned: the king would be in check from e9');
  await page.selectOption('#notation', 'wxf');
  assert.equal(await message(page), 'Illegal move R5.6: the rook is pinned: the king would be in check from e9');
  await clickMove(page, 'e3e9'); // a legal move clears the message
  assert.equal(await message(page), '');
  assert.equal(await page.locator('#message').isVisible(), false);

  await page.goto(env.base + '/xq');
  await page.waitForSelector('#board[data-ready="true"]');
  await page.selectOption('#notation', 'chinese');
  await clickSquare(page, 'b0');
  await clickSquare(page, 'd1'); // the elephant on c0 stands on the horse's leg
  assert.match(await waitMessage(page, /leg/), /the horse’s leg is blocked \(on c0\)/);
  await pickLanguage(page, 'zh-Hans');
  assert.match(await message(page), /蹩马腿（c0）/);
  await page.fill('#fen', 'not a fen');
  await page.click('#fen-load');
  assert.equal(await waitMessage(page, /FEN/), 'FEN 有误：棋盘有 1 行，应为 10 行'.replace('：', ': '));
  await pickLanguage(page, 'en');
  await page.close();
});

test('the favicon, a real 404 page with a link home, and the page title in Chinese', async () => {
  const page = await env.context.newPage();
  const icon = await page.request.get(env.base + '/favicon.ico');
  assert.equal(icon.status(), 200);
  assert.equal(icon.headers()['content-type'], 'image/x-icon');
  for (const path of ['/xq/', '/no/such/page']) {
    const response = await page.goto(env.base + path);
    assert.equal(response.status(), 404, path);
    assert.equal(await page.locator('h1').textContent(), 'Page not found');
  }
  await pickLanguage(page, 'zh-Hans');
  assert.equal(await page.locator('h1').textContent(), '找不到页面');
  assert.equal(await page.title(), '找不到页面 · 棋');
  await page.click('#home');
  await page.waitForURL(env.base + '/');
  // (every test page starts in English)
  assert.equal(await page.title(), 'Qi');
  await pickLanguage(page, 'zh-Hans');
  assert.equal(await page.title(), '棋');
  await page.goto(env.base + '/xq');
  await page.waitForSelector('#board[data-ready="true"]');
  assert.equal(await page.title(), 'Xiangqi · Qi');
  await pickLanguage(page, 'zh-Hans');
  assert.equal(await page.title(), '象棋 · 棋');
  await pickLanguage(page, 'en');
  await page.close();
});

test('no empty space is reserved for messages, and the header keeps its height in both languages', async () => {
  const page = await open(env, '/xq');
  assert.equal(await page.locator('#message').isVisible(), false);
  const statusBox = await page.locator('#status').boundingBox();
  const buttons = await page.locator('#new').boundingBox();
  assert.ok(buttons.y - (statusBox.y + statusBox.height) < 24, 'the buttons follow the status line closely');
  const header = async () => (await page.locator('header.top').boundingBox()).height;
  const en = await header();
  await pickLanguage(page, 'zh-Hans');
  assert.equal(await header(), en);
  await page.setViewportSize({ width: 390, height: 800 });
  assert.equal(await header(), en, 'on a phone too');
  // Nothing sticks out sideways on a phone, even with long engine lines shown.
  await showTab(page, 'analysis');
  await page.check('#analyse');
  await page.waitForSelector('#lines li .pv');
  await page.waitForFunction(() => document.querySelector('#lines li .pv').textContent.split(' ').length > 3);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling');
  await page.uncheck('#analyse');
  await pickLanguage(page, 'en');
  assert.equal(await header(), en);
  await page.close();
});

test('the home page shows a live famous game and the classic puzzle', async () => {
  const page = await env.context.newPage();
  await page.goto(env.base + '/');
  await page.waitForSelector('#example-game[data-plies]');
  assert.equal(await page.locator('#example-board .piece').count() > 10, true, 'a board with the game');
  assert.equal(await page.locator('#classic-puzzle').getAttribute('href'), '/huarong?name=%E6%A8%AA%E5%88%80%E7%AB%8B%E9%A9%AC');
  await shot(page, 'home');
  await page.click('#example-game');
  await page.waitForSelector('#board[data-ready="true"]');
  // Hu Ronghua - Liu Dahua, Five Rams Cup 1997: 57 moves (#45).
  assert.equal((await boardState(page)).plies, 114);
  await page.goto(env.base + '/');
  await page.click('#classic-puzzle');
  await page.waitForURL(/\/huarong\?/);
  await page.close();
});
