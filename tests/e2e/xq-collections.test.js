// A record of several games on /xq (#48): the list of its games (sorted by a click on a
// column's header, narrowed by the filter box), and a game picked from it opens on the board.
// The list's code is not part of the page's first load: it comes with the first collection.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './harness.js';
import { open, waitMessage, waitPly, shot } from './xq-helpers.js';

// Three games as a PGN collection holds them: different players, events, dates and lengths.
const THREE = `[Event "全国个人赛"]
[Date "1980.05.01"]
[Red "胡荣华"]
[Black "柳大华"]
[Result "1-0"]

1. 炮二平五 马8进7 2. 马二进三 车9平8 1-0

[Event "五羊杯"]
[Date "1999.01.10"]
[Red "许银川"]
[Black "吕钦"]
[Result "1/2-1/2"]

1. 相三进五 卒7进1 1/2-1/2

[Event "Asian Cup"]
[Date "2019.11.02"]
[Red "Wang Tianyi"]
[Black "Zheng Weitong"]
[Result "0-1"]

1. 兵七进一 炮8平5 2. 马八进七 0-1
`;

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

/** The list's rows as shown: each row's cells' text. */
async function rows(page) {
  return page.evaluate(() => [...document.querySelectorAll('#game-list tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent)));
}

/** The main line's moves in the move list. */
async function mainLine(page) {
  return page.evaluate(() => [...document.querySelectorAll('#moves > li:not(.variations) .move:not([data-ply="0"])')].map((m) => m.textContent.trim()));
}

test('a file of three games lists them; the list sorts and filters, and a game picked opens', async () => {
  const page = await open(env, '/xq');
  const modules = [];
  page.on('request', (r) => {
    if (r.url().includes('game-list')) modules.push(r.url());
  });
  assert.equal(await page.locator('#game-list').count(), 0, 'no list before a collection');
  await page.setInputFiles('#pgn-file', { name: 'three.pgn', mimeType: 'application/x-chess-pgn', buffer: Buffer.from(THREE) });
  await waitMessage(page, /Game loaded/);
  await waitPly(page, 4, 4);
  await page.waitForSelector('#game-list tbody tr');
  assert.equal(modules.length, 1, `the list's code came with the collection: ${modules}`);
  let shown = await rows(page);
  assert.deepEqual(shown.map((r) => r[0]), ['1', '2', '3']);
  // The opening column (the last) is filled once the explorer's module is loaded (xq-explorer.test.js).
  assert.deepEqual(shown[1].slice(0, 7), ['2', '许银川', '吕钦', '五羊杯', '1999.01.10', '1/2-1/2', '2']);
  // The sort arrow is CSS generated content (not in innerText): the header's aria-sort carries it.
  assert.deepEqual(await page.locator('#game-list thead th').allInnerTexts(), ['#', 'Red', 'Black', 'Event', 'Date', 'Result', 'Plies', 'Opening']);
  assert.equal(await page.getAttribute('#game-list thead th:first-child', 'aria-sort'), 'ascending');
  await shot(page, 'collection-list');

  // A click on "Plies" sorts by length, a second click the other way.
  await page.click('#game-list th[data-key="moves"] button');
  assert.deepEqual((await rows(page)).map((r) => r[6]), ['2', '3', '4']);
  await page.click('#game-list th[data-key="moves"] button');
  assert.deepEqual((await rows(page)).map((r) => r[6]), ['4', '3', '2']);
  assert.equal(await page.getAttribute('#game-list th[data-key="moves"]', 'aria-sort'), 'descending');
  await page.click('#game-list th[data-key="red"] button');
  assert.deepEqual((await rows(page)).map((r) => r[1]), ['Wang Tianyi', '胡荣华', '许银川']);

  // The filter matches players and events, in any case.
  await page.fill('#game-list-filter', 'zheng');
  assert.deepEqual((await rows(page)).map((r) => r[0]), ['3']);
  await page.fill('#game-list-filter', '五羊');
  assert.deepEqual((await rows(page)).map((r) => r[0]), ['2']);
  await page.fill('#game-list-filter', '');
  assert.equal((await rows(page)).length, 3);

  // The second game, picked: its moves on the board, its players in the headers; the list
  // stays, the game marked.
  await page.click('#game-list tbody tr[data-game="2"]');
  await waitPly(page, 2, 2);
  assert.deepEqual(await mainLine(page), ['相三进五', '卒7进1']);
  assert.match(await page.locator('#headers').innerText(), /许银川/);
  assert.equal(await page.getAttribute('#game-list tbody tr[data-game="2"]', 'aria-selected'), 'true');
  assert.equal((await rows(page)).length, 3);

  // A record of one game hides the list.
  await page.fill('#pgn', '1. 炮二平五 马8进7');
  await page.click('#pgn-import');
  await waitPly(page, 2, 2);
  assert.equal(await page.locator('#game-list-box').isHidden(), true);
  assert.deepEqual(page.errors, []);
  await page.close();
});
