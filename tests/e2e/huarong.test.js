// The Huarong Dao page in a real browser: classic layouts, moves, undo, editor, share link,
// and the solution animated to the solved position.

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

async function open(path) {
  const page = await env.context.newPage();
  await page.goto(env.base + path);
  await page.waitForSelector('#hr-board[data-ready="true"]');
  return page;
}

const board = (page) =>
  page.evaluate(() => {
    const b = document.getElementById('hr-board');
    return { layout: b.dataset.layout, steps: Number(b.dataset.steps), solved: b.dataset.solved === 'true' };
  });

async function loadText(page, text) {
  await page.fill('#layout-text', text);
  await page.click('#layout-load');
  await page.waitForFunction((t) => document.getElementById('hr-board').dataset.layout === t, text);
}

// Screen centre of a cell (row * 4 + col) of the 4x5 tray (cells 100 units, 20 from the edge).
async function cellCentre(page, cell) {
  return page.evaluate((c) => {
    const svg = document.querySelector('#hr-board svg');
    const p = new DOMPoint(20 + (c % 4) * 100 + 50, 20 + Math.floor(c / 4) * 100 + 50).matrixTransform(svg.getScreenCTM());
    return { x: p.x, y: p.y };
  }, cell);
}

test('a classic layout is chosen by name and shown', async () => {
  const page = await open('/huarong');
  const first = await board(page);
  assert.equal(first.layout, 'VCCV/VCCV/VHHV/VSSV/S..S');
  assert.equal(await page.locator('#hr-board .block').count(), 10);
  const option = page.locator('#classic option', { hasText: '峰回路转' });
  await page.selectOption('#classic', await option.getAttribute('value'));
  await page.waitForFunction((l) => document.getElementById('hr-board').dataset.layout !== l, first.layout);
  assert.equal((await board(page)).steps, 0);
  const chosen = (await board(page)).layout;
  await page.close();
  for (const name of ['峰回路转', 'feng-hui-lu-zhuan']) {
    const named = await open(`/huarong?name=${encodeURIComponent(name)}`);
    assert.equal((await board(named)).layout, chosen);
    await named.close();
  }
});

test('pieces move by clicking and by dragging, with a step counter and undo', async () => {
  const page = await open('/huarong');
  // The soldier at row 4, col 0 (cell 16) moves right into cell 17: click it, then the place.
  await page.mouse.click(...Object.values(await cellCentre(page, 16)));
  await page.mouse.click(...Object.values(await cellCentre(page, 17)));
  await page.waitForFunction(() => document.getElementById('hr-board').dataset.steps === '1');
  assert.equal((await board(page)).layout, 'VCCV/VCCV/VHHV/VSSV/.S.S');
  // Drag the soldier at cell 19 one cell left.
  const from = await cellCentre(page, 19);
  const to = await cellCentre(page, 18);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 6 });
  await page.mouse.up();
  await page.waitForFunction(() => document.getElementById('hr-board').dataset.steps === '2');
  assert.equal((await board(page)).layout, 'VCCV/VCCV/VHHV/VSSV/.SS.');
  await page.click('#undo');
  await page.waitForFunction(() => document.getElementById('hr-board').dataset.steps === '1');
  assert.equal((await board(page)).layout, 'VCCV/VCCV/VHHV/VSSV/.S.S');
  await page.close();
});

test('Solve animates a shortest solution that ends in the solved position', async () => {
  const page = await open('/huarong');
  const start = 'VSSV/VCCV/.CC./VHHV/V..V';
  await loadText(page, start);
  const solution = await page.evaluate(async (layout) => {
    const r = await fetch('/api/huarong/solve', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ layout }),
    });
    return r.json();
  }, start);
  assert.ok(solution.steps > 0 && solution.steps < 40, JSON.stringify(solution.steps));
  await page.click('#solve');
  await page.waitForFunction(
    () => document.getElementById('hr-board').dataset.solved === 'true'
      && document.getElementById('hr-board').dataset.animating === 'false',
    null,
    { timeout: 60000 },
  );
  const end = await board(page);
  assert.equal(end.steps, solution.steps);
  assert.equal(end.layout, solution.path[solution.path.length - 1].layout);
  assert.match(end.layout, /^.{4}\/.{4}\/.{4}\/.CC.\/.CC.$/, 'Cao Cao at the exit');
  assert.match(await page.locator('#status').textContent(), new RegExp(String(solution.steps)));
  await page.close();
});

test('the share link opens the same layout; the editor builds a layout', async () => {
  const page = await open('/huarong');
  await loadText(page, 'SSSS/SSSS/..../CC../CC..');
  const link = await page.inputValue('#share-link');
  assert.equal(page.url(), link);
  const other = await open(link.slice(env.base.length));
  assert.equal((await board(other)).layout, 'SSSS/SSSS/..../CC../CC..');
  await other.close();

  await page.click('#edit');
  await page.click('#clear');
  await page.click('#palette [data-shape="C"]');
  await page.mouse.click(...Object.values(await cellCentre(page, 0)));
  await page.click('#palette [data-shape="S"]');
  for (const cell of [2, 3, 6, 7]) await page.mouse.click(...Object.values(await cellCentre(page, cell)));
  await page.click('#done');
  await page.waitForFunction(() => document.getElementById('hr-board').dataset.layout === 'CCSS/CCSS/..../..../....');
  assert.equal(await page.locator('#editor').isHidden(), true);
  await page.close();
});

const click = async (page, cell) => page.mouse.click(...Object.values(await cellCentre(page, cell)));
const waitSteps = (page, n) =>
  page.waitForFunction((s) => document.getElementById('hr-board').dataset.steps === String(s), n);
const waitIdle = (page) =>
  page.waitForFunction(() => document.getElementById('hr-board').dataset.animating === 'false', null, { timeout: 60000 });

test('bug 1: Solve is refused while editing, and choosing a classic leaves the editor', async () => {
  const page = await open('/huarong');
  await page.click('#edit');
  assert.equal(await page.locator('#solve').isDisabled(), true, 'no Solve on a half-built layout');
  assert.equal(await page.locator('#hint').isDisabled(), true);
  assert.equal(await page.locator('#hr-board .block').count(), 10, 'the editor shows the layout');
  const option = page.locator('#classic option', { hasText: '峰回路转' });
  await page.selectOption('#classic', await option.getAttribute('value'));
  await page.waitForFunction(() => document.getElementById('hr-board').dataset.layout === 'SSSV/CCVV/CCVV/.HHV/.SHH');
  assert.equal(await page.locator('#editor').isHidden(), true);
  assert.equal(await page.locator('#edit').isDisabled(), false);
  assert.equal(await page.locator('#solve').isDisabled(), false);
  // Editing now starts from the classic chosen, not the old layout.
  await page.click('#edit');
  await page.click('#done');
  await page.waitForFunction(() => document.getElementById('editor').hidden);
  assert.equal((await board(page)).layout, 'SSSV/CCVV/CCVV/.HHV/.SHH');
  await page.close();
});

test('bug 2: bad links say what was wrong and keep the address', async () => {
  for (const [query, expected] of [
    ['?l=zzzz', /zzzz/],
    ['?name=nosuch', /nosuch/],
    ['?l=', /empty/],
  ]) {
    const page = await open(`/huarong${query}`);
    await page.waitForFunction(() => document.getElementById('message').textContent !== '');
    assert.match(await page.locator('#message').textContent(), expected, query);
    assert.equal(await page.locator('#message').getAttribute('class'), 'error');
    assert.equal(new URL(page.url()).search, query === '?l=' ? '?l=' : query, 'address kept');
    assert.equal((await board(page)).layout, 'VCCV/VCCV/VHHV/VSSV/S..S', 'a playable layout meanwhile');
    // The first move is the user's action: from then on the address follows the board.
    await click(page, 16);
    await click(page, 17);
    await waitSteps(page, 1);
    assert.match(page.url(), /\?l=[A-Za-z0-9_-]+$/);
    assert.notEqual(new URL(page.url()).search, query);
    await page.close();
  }
});

test('bug 6: the pieces have their names and the layout keeps its name after a move', async () => {
  const page = await open('/huarong?name=横刀立马');
  const names = await page.locator('#hr-board .block text').allTextContents();
  assert.deepEqual([...names].sort(), ['关羽', '兵', '兵', '兵', '兵', '张飞', '曹操', '赵云', '马超', '黄忠'].sort());
  assert.equal(await page.locator('#hr-board .block.H text').textContent(), '关羽');
  assert.equal(await page.locator('#layout-name').textContent(), '横刀立马');
  await click(page, 16);
  await click(page, 17);
  await waitSteps(page, 1);
  assert.equal(await page.locator('#layout-name').textContent(), '横刀立马');
  assert.equal(await page.locator('#classic').inputValue() !== '', true, 'the list still shows the classic');
  // The soldier that moved keeps its name; the generals keep theirs.
  assert.equal(await page.locator('#hr-board .block.H text').textContent(), '关羽');
  await page.close();
});

test('bug 6: a computer solution is not congratulated; it can be stepped back and forward', async () => {
  const page = await open('/huarong');
  const start = 'VSSV/VCCV/.CC./VHHV/V..V';
  await loadText(page, start);
  await page.fill('#speed', '5');
  await page.click('#solve');
  await page.waitForFunction(() => document.getElementById('hr-board').dataset.solved === 'true', null, { timeout: 60000 });
  await waitIdle(page);
  const end = await board(page);
  const status = await page.locator('#status').textContent();
  assert.doesNotMatch(status, /Solved in|!/, status);
  assert.match(status, /computer/);
  assert.equal(await page.evaluate(() => document.getElementById('hr-board').dataset.solvedBy), 'computer');
  assert.equal(await page.locator('#solution-controls').isHidden(), false);
  await page.click('#sol-back');
  await waitSteps(page, end.steps - 1);
  assert.equal((await board(page)).solved, false);
  await page.click('#sol-back');
  await waitSteps(page, end.steps - 2);
  await page.click('#sol-forward');
  await waitSteps(page, end.steps - 1);
  await page.click('#sol-play');
  await page.waitForFunction(() => document.getElementById('hr-board').dataset.solved === 'true');
  await waitIdle(page);
  assert.equal((await board(page)).layout, end.layout);
  // Stopping: play from the start at the slowest speed and pause after a step or two.
  await page.click('#reset');
  await waitSteps(page, 0);
  await page.fill('#speed', '1');
  await page.click('#solve');
  await waitSteps(page, 1);
  await page.click('#sol-play');
  await waitIdle(page);
  const paused = (await board(page)).steps;
  await new Promise((r) => setTimeout(r, 1200));
  assert.equal((await board(page)).steps, paused, 'paused');
  assert.ok(paused < end.steps);
  await page.close();
});

test('bug 6: hint shows the solver\'s next move; undo and redo', async () => {
  const page = await open('/huarong?name=横刀立马');
  await page.click('#hint');
  await page.waitForSelector('#hr-board .ghost.hint');
  assert.match(await page.locator('#message').textContent(), /Hint: move .+ 81 steps to go/);
  const target = Number(await page.locator('#hr-board .ghost.hint').getAttribute('data-to'));
  await click(page, target);
  await waitSteps(page, 1);
  await page.click('#hint');
  await page.waitForFunction(() => /80 steps/.test(document.getElementById('message').textContent));
  const after = (await board(page)).layout;
  await page.click('#undo');
  await waitSteps(page, 0);
  assert.equal(await page.locator('#redo').isDisabled(), false);
  await page.click('#redo');
  await waitSteps(page, 1);
  assert.equal((await board(page)).layout, after);
  assert.equal(await page.locator('#redo').isDisabled(), true);
  await page.close();
});

test('bug 6: the timer runs, and a solve by the player is congratulated, kept as the best and counted', async () => {
  const page = await open('/huarong');
  await loadText(page, 'SSSS/SSSS/..../CC../CC..');
  assert.equal(await page.locator('#timer').textContent(), '0:00');
  const before = await page.locator('#solved-count').textContent();
  // Drag Cao Cao (top-left on cell 12) one cell right.
  const from = await cellCentre(page, 12);
  const to = await cellCentre(page, 13);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 6 });
  await page.mouse.up();
  await waitSteps(page, 1);
  assert.equal((await board(page)).solved, true);
  // One step, in the singular (Intl.PluralRules, #45).
  assert.match(await page.locator('#status').textContent(), /Solved in 1 step!/);
  assert.match(await page.locator('#best').textContent(), /best here: 1 step in/);
  assert.notEqual(await page.locator('#solved-count').textContent(), before);
  await page.close();
  // The best stays in the browser for the layout it started from.
  const fresh = await open('/huarong');
  await loadText(fresh, 'SSSS/SSSS/..../CC../CC..');
  assert.match(await fresh.locator('#best').textContent(), /1 step in 0:0\d/);
  // The clock runs from the first move.
  await click(fresh, 4);
  await click(fresh, 8);
  await waitSteps(fresh, 1);
  await fresh.waitForFunction(() => document.getElementById('timer').textContent !== '0:00', null, { timeout: 5000 });
  await fresh.close();
});

test('new puzzle by difficulty and piece set, and a daily puzzle the same for everyone', async () => {
  const page = await open('/huarong');
  await page.fill('#difficulty', '0');
  await page.selectOption('#pieces', '4V+1H+4S');
  const first = (await board(page)).layout;
  await page.click('#new-puzzle');
  await page.waitForFunction((l) => document.getElementById('hr-board').dataset.layout !== l, first);
  const puzzle = await board(page);
  assert.match(await page.locator('#layout-name').textContent(), /^\d+-step puzzle$/);
  const solved = await page.evaluate(async (layout) => {
    const r = await fetch('/api/huarong/solve', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ layout }) });
    return r.json();
  }, puzzle.layout);
  assert.ok(solved.steps >= 10 && solved.steps <= 30, String(solved.steps));
  assert.equal(await page.locator('#layout-name').textContent(), `${solved.steps}-step puzzle`);
  assert.equal(puzzle.layout.replace(/[^V]/g, '').length, 8, 'four vertical generals');
  await page.click('#daily');
  await page.waitForFunction(() => /^Daily /.test(document.getElementById('layout-name').textContent));
  const daily = (await board(page)).layout;
  await page.close();
  const other = await open('/huarong');
  await other.click('#daily');
  await other.waitForFunction(() => /^Daily /.test(document.getElementById('layout-name').textContent));
  assert.equal((await board(other)).layout, daily);
  await other.close();
});

test('bug 7: no empty status lines, and on a phone the Solve button is above the fold', async () => {
  const page = await open('/huarong');
  assert.equal(await page.locator('#status').isVisible(), false, 'an empty status takes no room');
  assert.equal(await page.locator('#message').isVisible(), false, 'an empty message takes no room');
  await page.setViewportSize({ width: 375, height: 667 });
  const solve = await page.locator('#solve').boundingBox();
  assert.ok(solve && solve.y + solve.height <= 667, JSON.stringify(solve));
  const boardBox = await page.locator('#hr-board svg').boundingBox();
  assert.ok(boardBox.width > 200, 'the board is still a good size');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.close();
});
