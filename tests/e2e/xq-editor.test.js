// The position editor: palette drags, removal, side to move, clear / start / flip, and only
// legal positions can be confirmed, with the library's reason in the user's language.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, boardState, pointCentre, pickLanguage } from './harness.js';
import { open, shot } from './xq-helpers.js';

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

async function dragFromPalette(page, letter, square) {
  const tool = await page.locator(`#palette .tool[data-tool="${letter}"]`).boundingBox();
  const to = await pointCentre(page, square);
  await page.mouse.move(tool.x + tool.width / 2, tool.y + tool.height / 2);
  await page.mouse.down();
  await page.mouse.move((tool.x + to.x) / 2, (tool.y + to.y) / 2, { steps: 5 });
  await page.mouse.move(to.x, to.y, { steps: 5 });
  await page.mouse.up();
  await page.waitForSelector(`#board .piece[data-square="${square}"][data-piece="${letter}"]`);
}

async function editorStatus(page, pattern) {
  await page.waitForFunction((src) => new RegExp(src).test(document.getElementById('editor-status').textContent), pattern.source);
  return page.locator('#editor-status').textContent();
}

test('set up a position by dragging from the palette; only a legal one can be played', async () => {
  const page = await open(env, '/xq');
  await page.click('#edit');
  // The editor's code loads on its first opening (it is not part of the page's first load).
  await page.locator('#editor').waitFor({ state: 'visible' });
  assert.equal(await page.locator('#new').isVisible(), false, 'the game controls make room for the editor');
  await page.click('#editor-clear');
  await page.waitForFunction(() => document.querySelectorAll('#board .piece').length === 0);
  await editorStatus(page, /Red has no king/);
  assert.equal(await page.isDisabled('#editor-play'), true);

  await dragFromPalette(page, 'K', 'e0');
  await editorStatus(page, /Black has no king/);
  await dragFromPalette(page, 'k', 'e9');
  // The kings face each other on the open e-file: the library says so, and it cannot be played.
  await editorStatus(page, /The kings face each other/);
  assert.equal(await page.isDisabled('#editor-play'), true);
  await dragFromPalette(page, 'R', 'a1');
  await dragFromPalette(page, 'k', 'd9'); // a second black king is placed...
  await editorStatus(page, /Black has 2 × king, at most 1/);
  // ...and removed again with the eraser.
  await page.click('#palette .tool[data-tool="erase"]');
  const e9 = await pointCentre(page, 'e9');
  await page.mouse.click(e9.x, e9.y);
  await editorStatus(page, /A legal position/);
  assert.equal(await page.isDisabled('#editor-play'), false);

  // In Chinese the same library reason reads in Chinese.
  await pickLanguage(page, 'zh-Hans');
  await page.click('#palette .tool[data-tool="erase"]'); // (the tool stays chosen; unpick and pick)
  await page.click('#palette .tool[data-tool="erase"]');
  const d9 = await pointCentre(page, 'd9');
  await page.mouse.click(d9.x, d9.y);
  assert.match(await editorStatus(page, /没有将帅/), /黑方没有将帅/);
  await pickLanguage(page, 'en');
  await page.click('#palette .tool[data-tool="erase"]');
  await dragFromPalette(page, 'k', 'd9');
  await editorStatus(page, /A legal position/);

  // Black to move, then play from here.
  await page.check('input[name="editor-turn"][value="b"]');
  await editorStatus(page, /A legal position/);
  await shot(page, 'editor');
  await page.click('#editor-play');
  await page.waitForSelector('#board[data-ready="true"][data-plies="0"]');
  const s = await boardState(page);
  assert.equal(s.fen, '3k5/9/9/9/9/9/9/9/R8/4K4 b - - 0 1');
  assert.equal(await page.locator('#editor').isVisible(), false);
  await page.reload(); // the address holds the new position
  assert.equal((await boardState(page)).fen, '3k5/9/9/9/9/9/9/9/R8/4K4 b - - 0 1');
  await page.close();
});

test('dragging a piece off the board removes it; start position, flip and "analyse" work', async () => {
  const page = await open(env, '/xq');
  await page.click('#edit');
  await page.waitForSelector('#board .piece[data-square="a0"]');
  // Drag the rook on a0 off the board.
  const a0 = await pointCentre(page, 'a0');
  await page.mouse.move(a0.x, a0.y);
  await page.mouse.down();
  await page.mouse.move(a0.x - 100, a0.y + 150, { steps: 6 });
  await page.mouse.up();
  await page.waitForFunction(() => !document.querySelector('#board .piece[data-square="a0"]'));
  assert.equal(await page.locator('#board .piece').count(), 31);
  // Drag a piece from one point to another.
  const b0 = await pointCentre(page, 'b0');
  const a2 = await pointCentre(page, 'a2');
  await page.mouse.move(b0.x, b0.y);
  await page.mouse.down();
  await page.mouse.move(a2.x, a2.y, { steps: 6 });
  await page.mouse.up();
  await page.waitForSelector('#board .piece[data-square="a2"][data-piece="N"]');
  await page.click('#editor-start');
  await page.waitForFunction(() => document.querySelectorAll('#board .piece').length === 32);
  await editorStatus(page, /A legal position/);
  const before = await pointCentre(page, 'e0');
  await page.click('#editor-flip'); // the board turns round, Black's side at the bottom
  await page.waitForSelector('#board[data-flipped="true"]');
  const after = await pointCentre(page, 'e0');
  assert.ok(after.y < before.y, 'Red now sits at the top');
  await page.click('#editor-analyse');
  await page.waitForSelector('#board[data-ready="true"][data-plies="0"]');
  assert.equal(await page.isChecked('#analyse'), true);
  await page.waitForSelector('#lines li');
  await page.uncheck('#analyse');
  await page.close();
});
