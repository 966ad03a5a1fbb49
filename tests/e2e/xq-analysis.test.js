// Engine analysis on the page: the live best lines with the evaluation bar and the arrow, the
// review of a whole game, and the hint while playing the computer.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, boardState, clickMove, apiCalls, nextApiCall } from './harness.js';
import { open, waitMessage, waitPly, shot } from './xq-helpers.js';

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

// Red mates in one (a1d1): the engine must say so.
const MATE_IN_ONE = '/xq?fen=' + encodeURIComponent('3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1');

test('"Analyse" shows the evaluation bar, the best lines in the chosen notation and the best move as an arrow', async () => {
  const page = await open(env, MATE_IN_ONE);
  await page.check('#analyse');
  assert.equal((await nextApiCall(page, '/api/xq/analyse', 0)).multipv, 1);
  await page.waitForSelector('#lines li .score');
  await page.waitForFunction(() => /#1/.test(document.querySelector('#lines li .score').textContent));
  assert.equal(await page.locator('#eval-bar').isVisible(), true);
  assert.equal(await page.locator('#eval-bar').getAttribute('data-eval'), '#1');
  const share = await page.locator('#eval-bar').evaluate((n) => n.style.getPropertyValue('--red-share'));
  assert.equal(share, '100%', 'Red is winning: the bar is all red');
  assert.match(await page.locator('#lines li .pv').first().textContent(), /^车九平六/);
  const arrow = page.locator('#board .arrow.best');
  assert.equal(await arrow.getAttribute('data-from'), 'a1');
  assert.equal(await arrow.getAttribute('data-to'), 'd1');
  await page.selectOption('#notation', 'wxf');
  assert.match(await page.locator('#lines li .pv').first().textContent(), /^R9\.6/);
  await shot(page, 'analysis');
  await page.uncheck('#analyse');
  assert.equal(await page.locator('#eval-bar').isVisible(), false);
  assert.equal(await page.locator('#board .arrow').count(), 0);
  await page.close();
});

test('MultiPV gives three different lines, and the analysis follows the user through the game', async () => {
  const page = await open(env, '/xq?moves=h2e2.h9g7');
  await page.selectOption('#multipv', '3');
  await page.check('#analyse');
  await page.waitForFunction(() => document.querySelectorAll('#lines li').length === 3);
  const firsts = await page.$$eval('#lines li', (lis) => lis.map((li) => li.dataset.first));
  assert.equal(new Set(firsts).size, 3, firsts.join());
  // Step back: the old stream is closed and the lines are for the new position (Black to move).
  const seen = (await apiCalls(page, '/api/xq/analyse')).length;
  await page.click('#prev');
  await waitPly(page, 1);
  assert.deepEqual((await nextApiCall(page, '/api/xq/analyse', seen)).moves, ['h2e2']);
  await page.waitForFunction(() => {
    const li = document.querySelectorAll('#lines li');
    return li.length === 3 && [...li].every((l) => /^[a-i]\d[a-i]\d$/.test(l.dataset.first) && Number(l.dataset.first[1]) >= 5);
  });
  // The page's own API answers while analysis runs (the engine thinks in a worker).
  const t0 = Date.now();
  const answer = await page.evaluate(async () => (await import('/assets/api.js')).api('/api/xq/game', {}));
  assert.equal(answer.legal.length, 44);
  assert.ok(Date.now() - t0 < 2000, 'the game API is not blocked by the engine');
  await page.close();
});

test('"Review game" scores every move, draws the graph and marks the blunder with the better move', async () => {
  // Black's third move leaves the rook on i9... the horse hangs: 3... h7h0?? gives away the cannon.
  const page = await open(env, '/xq?moves=h2e2.h9g7.h0g2.h7h0.i0h0');
  await page.click('#review');
  await page.waitForFunction(() => /Review done/.test(document.getElementById('review-status').textContent), null, { timeout: 20000 });
  const points = await page.locator('#review-graph .graph-line').getAttribute('points');
  assert.equal(points.trim().split(/\s+/).length, 6, 'one point per position');
  assert.ok(await page.locator('#review-graph .graph-mark').count() >= 1);
  const judged = page.locator('#moves .move.blunder, #moves .move.mistake');
  assert.ok(await judged.count() >= 1, 'the losing move is marked');
  assert.match(await judged.first().getAttribute('title'), /(Blunder|Mistake) — better was /);
  // Each count in its plural form: "1 blunder", "0 blunders" (#45).
  const summary = await page.locator('#review-summary').innerText();
  assert.match(summary, /Black: \d+ inaccurac(y|ies), \d+ mistakes?, \d+ blunders?/);
  for (const [, n, word] of summary.matchAll(/(\d+) (inaccurac\w+|mistakes?|blunders?)/g)) {
    assert.equal(Number(n) === 1, !/(s|ies)$/.test(word), `${n} ${word}`);
  }
  await shot(page, 'review');
  // Clicking the graph goes to that point of the game.
  const box = await page.locator('#review-graph svg').boundingBox();
  await page.mouse.click(box.x + 2, box.y + box.height / 2);
  await waitPly(page, 0);
  await page.close();
});

test('a hint while playing the computer draws its move and names it', async () => {
  const page = await open(env, '/xq');
  await page.selectOption('#notation', 'chinese');
  assert.equal(await page.locator('#hint').isVisible(), false, 'no hint outside a game against the computer');
  await page.check('#engine-auto');
  assert.equal(await page.locator('#hint').isVisible(), true);
  await page.click('#hint');
  const text = await waitMessage(page, /Hint: /);
  assert.match(text, /Hint: [\u4e00-\u9fff]/, 'named in the chosen (Chinese) notation');
  assert.equal(await page.locator('#board .arrow.hint').count(), 1);
  const from = await page.locator('#board .arrow.hint').getAttribute('data-from');
  assert.ok(await page.locator(`#board .piece.red[data-square="${from}"]`).count(), 'the arrow starts at a red piece');
  // Playing the hinted move works like any other; the computer answers.
  const to = await page.locator('#board .arrow.hint').getAttribute('data-to');
  await clickMove(page, from + to);
  await page.waitForSelector('#board[data-ready="true"][data-plies="2"]', { timeout: 15000 });
  assert.equal((await boardState(page)).plies, 2);
  await page.close();
});
