// The Xiangqi page in a real browser: play, share, open links, rotate, replay, FEN import.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, ready, boardState, clickMove, clickSquare, pointCentre, apiCalls, nextApiCall, pickLanguage } from './harness.js';

const START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';
const AFTER_H2E2 = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1';
const SEED_LINK = '/xq?p=gSQCL5P5oIDhCFJCIBJ4eQCAkX8&r=86pU6-4nbSh38OCojLarcupWOb1rXw&s=1';

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

async function open(path) {
  const page = await env.context.newPage();
  await page.goto(env.base + path);
  await ready(page);
  return page;
}

test('the board is drawn with 32 glyph pieces, the river and the palaces', async () => {
  const page = await open('/xq');
  const s = await boardState(page);
  assert.equal(s.fen, START);
  assert.equal(await page.locator('#board .piece').count(), 32);
  assert.equal(await page.locator('#board .piece.red').count(), 16);
  assert.equal(await page.locator('#board .piece[data-square="e0"] text').textContent(), '帥');
  assert.equal(await page.locator('#board .piece[data-square="e9"] text').textContent(), '將');
  const river = await page.locator('#board .river').allTextContents();
  assert.deepEqual(river.map((t) => t.replace(/\s/g, '')).sort(), ['楚河', '漢界'].sort());
  await page.close();
});

test('play moves by clicking and by dragging; an illegal move is refused', async () => {
  const page = await open('/xq');
  await clickMove(page, 'h2e2');
  let s = await boardState(page);
  assert.equal(s.fen, AFTER_H2E2);
  assert.deepEqual(s.moves.slice(1), [await page.locator('#moves .move[data-ply="1"]').textContent()]);
  assert.equal(await page.locator('#board .last-to[data-square="e2"]').count(), 1);
  await clickMove(page, 'h9g7');
  // Drag the rook from i0 to i1.
  const from = await pointCentre(page, 'i0');
  const to = await pointCentre(page, 'i1');
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
  await page.mouse.move(to.x, to.y, { steps: 4 });
  await page.mouse.up();
  await page.waitForSelector('#board[data-ready="true"][data-plies="3"]');
  s = await boardState(page);
  assert.equal(s.plies, 3);
  assert.equal(s.fen, 'rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/8R/RNBAKABN1 b - - 3 2');

  // The black pawn on e6 cannot move two points: the move is refused, in the chosen notation
  // and with the reason, and nothing changes.
  await clickSquare(page, 'e6');
  await clickSquare(page, 'e4');
  await page.waitForFunction(() => document.getElementById('message').className === 'error');
  assert.match(await page.locator('#message').textContent(), /卒5进2.*the pawn does not move that way/);
  s = await boardState(page);
  assert.equal(s.plies, 3);
  assert.equal(s.fen, 'rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/8R/RNBAKABN1 b - - 3 2');
  await page.close();
});

test('a move can be played by touch', async () => {
  const page = await open('/xq');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 1 });
  const tap = async (square) => {
    const { x, y } = await pointCentre(page, square);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  };
  await tap('h2');
  await page.waitForSelector('#board .target');
  await tap('e2');
  await page.waitForSelector('#board[data-ready="true"][data-plies="1"]');
  assert.equal((await boardState(page)).fen, AFTER_H2E2);
  await page.close();
});

test('the check is marked on the king', async () => {
  const page = await open('/xq?fen=' + encodeURIComponent('3k5/9/9/9/9/9/9/9/9/4K3R w - - 0 1'));
  await clickMove(page, 'i0i9');
  assert.match(await page.locator('#status').textContent(), /Check|将军/);
  assert.equal(await page.locator('#board .piece.in-check[data-square="d9"]').count(), 1);
  await page.close();
});

test('the copied share link opens the same game in a new page', async () => {
  const page = await open('/xq');
  for (const m of ['h2e2', 'h9g7', 'h0g2', 'i9h9']) await clickMove(page, m);
  const original = await boardState(page);
  await page.click('#copy-link');
  await page.waitForFunction(() => /copied|复制/.test(document.getElementById('message').textContent));
  const link = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(link, await page.inputValue('#share-link'));
  assert.ok(link.startsWith(env.base + '/xq?'), link);
  assert.match(link, /\/xq\?g=[\w-]+$/, 'the compact share link');
  assert.equal(page.url(), link, 'the address bar holds the game');

  const other = await env.context.newPage();
  await other.goto(link);
  const copy = await boardState(other);
  assert.equal(copy.fen, original.fen);
  assert.equal(copy.ply, 4);
  assert.deepEqual(copy.moves, original.moves);

  // A reload keeps the game too, and the ply on view travels with the link.
  await page.keyboard.press('ArrowLeft');
  await page.waitForSelector('#board[data-ready="true"][data-ply="3"]');
  await page.reload();
  const reloaded = await boardState(page);
  assert.equal(reloaded.ply, 3);
  assert.equal(reloaded.plies, 4);
  await page.close();
  await other.close();
});

test("the seed's example link opens at its last move with the whole move list", async () => {
  const page = await open(SEED_LINK);
  const s = await boardState(page);
  assert.equal(s.plies, 20);
  assert.equal(s.ply, 20);
  assert.equal(s.moves.length, 21); // "start" and 20 moves
  await page.keyboard.press('Home');
  await page.waitForSelector('#board[data-ready="true"][data-ply="0"]');
  assert.equal((await boardState(page)).fen, START);
  await page.close();
});

test('rotate turns the board by 180 degrees, not a mirror', async () => {
  const page = await open('/xq');
  const centre = async (sq) => pointCentre(page, sq);
  const [a0, i0, e0, e9] = [await centre('a0'), await centre('i0'), await centre('e0'), await centre('e9')];
  assert.ok(a0.x < i0.x && e0.y > e9.y, 'Red at the bottom, a-file on the left');
  await page.click('#flip');
  await page.waitForSelector('#board[data-flipped="true"]');
  const [a0r, i0r, e0r, e9r] = [await centre('a0'), await centre('i0'), await centre('e0'), await centre('e9')];
  assert.ok(e0r.y < e9r.y, 'Red at the top');
  assert.ok(a0r.x > i0r.x, 'a-file on the right: rotated, not mirrored');
  assert.ok(Math.abs(a0r.x - i0.x) < 2 && Math.abs(a0r.y - e9.y) < 2, 'a0 lands where i9 was');
  assert.match(page.url(), /flip=1/);
  await page.reload();
  assert.equal((await boardState(page)).flipped, true);
  await page.close();
});

test('replay with the arrow keys and the buttons', async () => {
  const page = await open('/xq?moves=h2e2.h9g7.h0g2.i9h9.i0h0');
  let s = await boardState(page);
  assert.equal(s.ply, 5);
  await page.keyboard.press('ArrowLeft');
  await page.waitForSelector('#board[data-ready="true"][data-ply="4"]');
  await page.keyboard.press('ArrowLeft');
  await page.waitForSelector('#board[data-ready="true"][data-ply="3"]');
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('#board[data-ready="true"][data-ply="4"]');
  await page.keyboard.press('Home');
  await page.waitForSelector('#board[data-ready="true"][data-ply="0"]');
  assert.equal((await boardState(page)).fen, START);
  await page.keyboard.press('End');
  await page.waitForSelector('#board[data-ready="true"][data-ply="5"]');
  await page.click('#first');
  await page.waitForSelector('#board[data-ready="true"][data-ply="0"]');
  await page.click('#next');
  await page.waitForSelector('#board[data-ready="true"][data-ply="1"]');
  assert.equal((await boardState(page)).fen, AFTER_H2E2);
  await page.click('#moves .move[data-ply="3"]');
  await page.waitForSelector('#board[data-ready="true"][data-ply="3"]');
  s = await boardState(page);
  assert.equal(s.plies, 5, 'replaying keeps the whole game');
  await page.close();
});

test('FEN import loads a position; a bad FEN is refused with a message', async () => {
  const page = await open('/xq');
  const fen = '3k5/4a4/9/9/9/9/9/9/4A4/4KR3 w - - 0 1';
  await page.fill('#fen', fen);
  await page.click('#fen-load');
  await page.waitForFunction((f) => document.getElementById('board').dataset.fen === f, fen);
  assert.equal(await page.locator('#board .piece').count(), 5);
  await page.fill('#fen', 'not a fen');
  await page.click('#fen-load');
  await page.waitForFunction(() => document.getElementById('message').className === 'error');
  assert.match(await page.locator('#message').textContent(), /FEN/);
  assert.equal((await boardState(page)).fen, fen);
  await page.close();
});

test('the language menu switches between English and Chinese', async () => {
  const page = await open('/xq');
  await pickLanguage(page, 'zh-Hans');
  assert.equal(await page.locator('#new').textContent(), '新局');
  assert.match(await page.locator('#status').textContent(), /红方/);
  await pickLanguage(page, 'en');
  assert.equal(await page.locator('#new').textContent(), 'New game');
  await page.close();
});

test('the end of the game is announced and the board takes no more moves', async () => {
  const page = await open('/xq?fen=' + encodeURIComponent('3k5/9/3P5/9/9/9/9/9/9/4K3R w - - 0 1'));
  await clickMove(page, 'i0i9');
  assert.match(await page.locator('#status').textContent(), /Red wins.*checkmate/);
  await clickSquare(page, 'd9');
  assert.equal(await page.locator('#board .target').count(), 0);
  await pickLanguage(page, 'zh-Hans');
  assert.match(await page.locator('#status').textContent(), /红胜.*将死/);
  await pickLanguage(page, 'en');
  await page.close();
});

test('PGN export and import', async () => {
  const page = await open('/xq?moves=h2e2.h9g7');
  await page.selectOption('#notation', 'chinese');
  await page.click('#pgn-export');
  await page.waitForFunction(() => document.getElementById('pgn').value.includes('炮二平五'));
  assert.match(await page.inputValue('#pgn'), /马8进7|馬8進7/);
  await page.fill('#pgn', '[Game "Chinese Chess"]\n\n1. C2.5 H8+7 2. H2+3 R9.8 *\n');
  await page.click('#pgn-import');
  await page.waitForSelector('#board[data-ready="true"][data-plies="4"]');
  const s = await boardState(page);
  assert.equal(s.ply, 4);
  await page.fill('#pgn', '1. C2.9 *');
  await page.click('#pgn-import');
  await page.waitForFunction(() => document.getElementById('message').className === 'error');
  assert.equal((await boardState(page)).plies, 4);
  await page.close();
});

test('the computer answers a move when asked, and by itself when the box is ticked', async () => {
  const page = await open('/xq');
  await clickMove(page, 'h2e2');
  await page.click('#engine');
  await page.waitForSelector('#board[data-ready="true"][data-plies="2"]', { timeout: 15000 });
  let s = await boardState(page);
  assert.equal(s.plies, 2);
  assert.match(s.fen, / w /, 'Red to move after the computer played Black');
  await page.check('#engine-auto');
  await clickMove(page, 'b0c2');
  await page.waitForSelector('#board[data-ready="true"][data-plies="4"]', { timeout: 15000 });
  s = await boardState(page);
  assert.equal(s.plies, 4);
  // The beginner is level 1 of 8, shown with its rough strength; the choice survives a reload.
  assert.equal(await page.locator('#engine-level option').count(), 8);
  await page.selectOption('#engine-level', 'beginner');
  await page.waitForFunction(() => /Elo/.test(document.getElementById('engine-rating')?.textContent ?? ''));
  const seen = (await apiCalls(page, '/api/xq/engine')).length;
  await page.click('#engine');
  assert.equal((await nextApiCall(page, '/api/xq/engine', seen)).level, 1);
  await page.waitForSelector('#board[data-ready="true"][data-plies="5"]', { timeout: 15000 });
  await page.reload();
  await page.waitForSelector('#board[data-ready="true"]');
  assert.equal(await page.inputValue('#engine-level'), 'beginner');
  await page.close();
});
