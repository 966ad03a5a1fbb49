// Variations, PGN records (headers, comments, files) and the move record as text.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { setup, boardState, clickSquare } from './harness.js';
import { open, waitMessage, waitPly, moveList, shot } from './xq-helpers.js';

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

const GAME = '/xq?moves=h2e2.h9g7.h0g2.i9h9.i0h0';

test('a different move from an earlier ply makes a branch; it can be promoted and deleted', async () => {
  const page = await open(env, GAME);
  await page.click('#moves .move[data-ply="2"]');
  await waitPly(page, 2);
  await clickSquare(page, 'b0'); // instead of h0g2
  await clickSquare(page, 'c2');
  await waitPly(page, 3, 3);
  let s = await boardState(page);
  assert.equal(s.ply, 3);
  assert.equal(s.plies, 3, 'the board shows the new line');
  // The old moves 3-5 are still there, and the new move is an indented variation.
  const rows = await moveList(page);
  assert.match(rows.join('\n'), /马二进三|馬二進三/, rows.join('\n'));
  assert.equal(await page.locator('#moves .variation').count(), 1);
  assert.match(await page.locator('#moves .variation').innerText(), /2\.\s*马八进七|2\.\s*馬八進七/);
  const indent = await page.locator('#moves .variation').evaluate((n) => parseFloat(getComputedStyle(n).marginLeft));
  assert.ok(indent > 0, 'the variation is indented');
  assert.equal(await page.locator('#moves .move[aria-current="step"]').textContent(), await page.locator('#moves .variation .move').first().textContent());
  await shot(page, 'variation');

  // The share link carries the main line (five moves), not the variation.
  await page.waitForFunction(() => !/b0c2/.test(document.getElementById('share-link').value));
  const link = await page.inputValue('#share-link');
  const other = await env.context.newPage();
  await other.goto(link);
  const copy = await boardState(other);
  assert.equal(copy.plies, 5);
  await other.close();

  // Back to the main line by clicking its last move, then into the variation again and promote it.
  await page.locator('#moves .move', { hasText: /车一平二|車一平二/ }).click();
  await waitPly(page, 5, 5);
  await page.locator('#moves .variation .move').first().click();
  await waitPly(page, 3, 3);
  await page.click('#promote');
  await page.waitForFunction(() => document.querySelectorAll('#moves > li:not(.variations) .move').length === 4);
  s = await boardState(page);
  assert.equal(s.plies, 3);
  assert.match((await moveList(page))[2], /马八进七|馬八進七/, 'the promoted move is now the main line');
  assert.match(await page.locator('#moves .variation').innerText(), /马二进三|馬二進三/, 'the old main line is a variation');

  // Delete the (now) variation: go into it, delete from there.
  await page.locator('#moves .variation .move').first().click();
  await waitPly(page, 3, 5);
  await page.click('#delete-move');
  await waitPly(page, 2, 3);
  assert.equal(await page.locator('#moves .variation').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.close();
});

const PGN = `[Game "Chinese Chess"]
[Event "Club final"]
[Date "2024.05.01"]
[Red "Li Lai"]
[Black "Wang Qu"]

{A classic opening} 1. 炮二平五 {the central cannon} 马8进7 (1... 炮8平5 {same-direction cannons}) 2. 马二进三 车9平8 1-0
`;

test('PGN import keeps variations, comments and headers; they are shown, editable and exported', async () => {
  const page = await open(env, '/xq');
  await page.fill('#pgn', PGN);
  await page.click('#pgn-import');
  await waitPly(page, 4, 4);
  await waitMessage(page, /Game loaded/);
  assert.match(await page.locator('#headers').innerText(), /Li Lai – Wang Qu/);
  assert.match(await page.locator('#headers').innerText(), /Club final · 2024\.05\.01 · 1-0/);
  assert.equal(await page.locator('#moves .variation').count(), 1);
  assert.match(await page.locator('#moves .variation').innerText(), /炮8平5\s+same-direction cannons/);
  await page.click('#moves .move[data-ply="1"]');
  await waitPly(page, 1, 4);
  assert.equal(await page.inputValue('#comment'), 'the central cannon');

  // Edit a header and a comment; both are exported.
  await page.click('#game-info summary');
  await page.fill('#header-fields input[data-tag="Event"]', 'City final');
  assert.match(await page.locator('#headers').innerText(), /City final/);
  await page.fill('#comment', 'the most common first move');
  await page.click('#pgn-export');
  await page.waitForFunction(() => document.getElementById('pgn').value.includes('City final'));
  const pgn = await page.inputValue('#pgn');
  assert.match(pgn, /\[Event "City final"\]/);
  assert.match(pgn, /\[Red "Li Lai"\]/);
  assert.match(pgn, /\[Result "1-0"\]/);
  assert.match(pgn, /\{the most common first move\}/);
  assert.match(pgn, /\(1\.\.\. 炮8平5\s+\{same-direction cannons\}\)/);
  assert.match(pgn, /\{A classic opening\}/);
  await shot(page, 'pgn-headers');
  await page.close();
});

test('a PGN file is opened from disk and the game downloaded as a .pgn file', async () => {
  const page = await open(env, '/xq');
  await page.setInputFiles('#pgn-file', { name: 'game.pgn', mimeType: 'text/plain', buffer: Buffer.from(PGN) });
  await waitPly(page, 4, 4);
  assert.match(await page.locator('#headers').innerText(), /Li Lai/);
  const download = page.waitForEvent('download');
  await page.click('#pgn-download');
  const file = await download;
  assert.equal(file.suggestedFilename(), 'Li Lai-Wang Qu.pgn');
  const text = readFileSync(await file.path(), 'utf8');
  assert.match(text, /\[Black "Wang Qu"\]/);
  assert.match(text, /1\. 炮二平五/);
  assert.match(text, /\(1\.\.\. 炮8平5/);
  await page.close();
});

test('"copy as text" gives the move record in Chinese, as people paste it into chats', async () => {
  const page = await open(env, '/xq?moves=h2e2.h9g7.h0g2');
  await page.selectOption('#notation', 'iccs'); // the text is Chinese whatever the list shows
  await page.click('#copy-text');
  await waitMessage(page, /Move record copied/);
  const text = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(text, /^1\. 炮二平五 (马8进7|馬8進7)\n2\. (马二进三|馬二進三)$/);
  await page.close();
});
