// The puzzle page's Endgames tab (残局) in a real browser: the track served and picked by
// grade, a position by its link answered by the engine at full strength, and finished games
// judged by the rules (a mate one move away; a track position won with the server's engine
// choosing the player's moves) and remembered in the browser.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, clickSquare } from './harness.js';
import { judge, parseTrack } from '../../crates/web/assets/puzzles/endgame-set.js';

let env;
/** The shipped track, read the way the page reads it. */
let track;
before(async () => {
  env = await setup();
  track = parseTrack(await (await fetch(`${env.base}/assets/puzzles/endgames.tsv`)).text());
});
after(async () => {
  await env?.close();
});

async function open(path) {
  const page = await env.context.newPage();
  await page.goto(env.base + path);
  await page.waitForSelector('#board[data-ready="true"]');
  return page;
}

async function play(page, iccs) {
  await clickSquare(page, iccs.slice(0, 2));
  await clickSquare(page, iccs.slice(2, 4));
}

/** Waits until the game has `ply` moves and the player may move again (or it is over). */
const plyIs = (page, ply) => page.waitForSelector(`#board[data-ply="${ply}"][data-ready="true"]`);

test('the verdict for the player: won, held or lost, and whether the goal is reached', () => {
  assert.deepEqual(judge({ winner: 'red' }, 'red', 'win'), { result: 'won', reached: true });
  assert.deepEqual(judge({ winner: null }, 'black', 'draw'), { result: 'held', reached: true });
  assert.deepEqual(judge({ winner: null }, 'red', 'win'), { result: 'held', reached: false });
  assert.deepEqual(judge({ winner: 'red' }, 'black', 'draw'), { result: 'lost', reached: false });
});

test('the track is served: at least 30 positions over five grades, each to win or hold', () => {
  assert.ok(track.length >= 30, `${track.length} endgames`);
  assert.deepEqual([...new Set(track.map((e) => e.grade))].sort(), [1, 2, 3, 4, 5]);
  for (const e of track) {
    assert.match(e.id, /^[a-z0-9-]+$/);
    assert.ok(['win', 'draw'].includes(e.goal), e.id);
    assert.ok(e.nameZh && e.nameEn && e.source, e.id);
  }
});

test('an endgame by its link: the player moves and the engine answers at full strength', async () => {
  const endgame = track.find((e) => e.id === 'rook-two-elephants');
  const page = await open(`/puzzles?endgame=${endgame.id}`);
  assert.equal(await page.getAttribute('body', 'data-track'), 'endgames');
  assert.equal(await page.isHidden('#puzzle-panel'), true);
  assert.equal(await page.getAttribute('body', 'data-endgame'), endgame.id);
  assert.match(await page.textContent('#endgame-goal'), /Red to move — win against the engine/);
  assert.match(await page.textContent('#endgame-name'), /单车胜双象/);
  assert.equal(await page.inputValue('#endgame-grade'), String(endgame.grade));
  assert.equal(await page.inputValue('#endgame-pick'), endgame.id);
  await page.evaluate(() => {
    window.asked = [];
    window.addEventListener('qi:api', (e) => window.asked.push(e.detail));
  });
  const legal = (await page.getAttribute('#board', 'data-legal')).split(' ');
  await play(page, legal.includes('h3h9') ? 'h3h9' : legal[0]);
  await plyIs(page, 2);
  await page.waitForSelector('body[data-state="playing"]');
  assert.ok((await page.getAttribute('#board', 'data-legal')).length > 0, 'the player moves again');
  const engine = (await page.evaluate(() => window.asked)).find((a) => a.path === '/api/xq/engine');
  assert.equal(engine.body.level, 8, 'full strength');
  assert.equal(engine.body.fen, endgame.fen);
  // Retry starts over; another grade lists its positions.
  await page.click('#endgame-retry');
  await plyIs(page, 0);
  await page.selectOption('#endgame-grade', '5');
  const options = await page.$$eval('#endgame-pick option', (os) => os.map((o) => o.value));
  assert.deepEqual(options, track.filter((e) => e.grade === 5).map((e) => e.id));
  await page.close();
});

test('a mate one move away is judged won; a custom position is not remembered', async () => {
  const fen = '4k4/9/9/9/5R3/R8/8p/9/9/3K5 w - - 0 1';
  const page = await open(`/puzzles?fen=${encodeURIComponent(fen)}&goal=win`);
  assert.equal(await page.getAttribute('body', 'data-endgame'), 'custom');
  await play(page, 'a4e4');
  await page.waitForSelector('body[data-state="won"]');
  assert.match(await page.textContent('#endgame-message'), /Won \(checkmate\)\. Solved!/);
  assert.equal(await page.getAttribute('#board', 'data-legal'), '', 'nothing more to play');
  assert.equal(await page.evaluate(() => localStorage.getItem('qi.endgames')), null);
  await page.close();
});

test('a track position won against the engine is remembered and marked', async () => {
  const endgame = track.find((e) => e.id === 'rook-lone-king');
  const page = await open(`/puzzles?endgame=${endgame.id}`);
  const over = () => page.evaluate(() => ['won', 'held', 'lost'].includes(document.body.dataset.state));
  for (let i = 0; i < 10 && !(await over()); i++) {
    const played = (await page.getAttribute('#board', 'data-moves')).split(' ').filter(Boolean);
    // The server's engine chooses the player's move (the same engine, at the same API).
    const answer = await (await fetch(`${env.base}/api/xq/engine`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fen: endgame.fen, moves: played, movetime_ms: 300 }),
    })).json();
    await play(page, answer.bestmove);
    // The engine's answer, or the end; then the board takes the next move (clicks made
    // before it is ready again are not moves).
    await page.waitForFunction((n) => {
      const state = document.body.dataset.state;
      const board = document.getElementById('board');
      const ply = Number(board.dataset.ply);
      return ['won', 'held', 'lost'].includes(state) || (state === 'playing' && ply >= n && board.dataset.ready === 'true');
    }, played.length + 2);
    // The reply's slide over: a click on a piece still sliding is not taken as a move.
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  }
  await page.waitForSelector('body[data-state="won"]');
  assert.match(await page.textContent('#endgame-message'), /Won/);
  assert.deepEqual(JSON.parse(await page.evaluate(() => localStorage.getItem('qi.endgames'))).solved, [endgame.id]);
  assert.match(await page.textContent('#endgame-solved'), new RegExp(`^1 of ${track.length}$`));
  await page.reload();
  await page.waitForSelector('#board[data-ready="true"]');
  assert.match(await page.$eval('#endgame-pick option:checked', (o) => o.textContent), /^✓ /);
  await page.close();
});
