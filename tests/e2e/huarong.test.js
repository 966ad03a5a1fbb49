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
