// Play a friend in real browsers: two contexts play through the invite link, a third watches;
// one goes offline while the other moves and catches up; a move made offline is delivered when
// the network returns; a reload keeps the seat; a draw by agreement ends the game everywhere.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, clickMove, launchBrowser, newPlayerPage } from './harness.js';

let env;
let browser;
before(async () => {
  env = await setup();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await env?.close();
});

const newPage = () => newPlayerPage(browser);

// Waits until the room page shows `plies` moves, all acknowledged.
async function synced(page, plies, timeout = 20000) {
  await page.waitForSelector(`#board[data-ready="true"][data-plies="${plies}"][data-pending="false"]`, { timeout });
}

const moveTexts = (page) => page.locator('#moves .move').allTextContents();

test('two players and a spectator: invite link, offline catch-up, reload, draw', async () => {
  const a = await newPage();
  await a.page.goto(`${env.base}/xq`);
  await a.page.click('#play-friend');
  await a.page.selectOption('#friend-colour', 'red');
  await a.page.fill('#friend-minutes', '10');
  await a.page.fill('#friend-increment', '5');
  await a.page.click('#friend-create');
  await a.page.waitForURL(/\/xq\?room=[\w-]+&seat=[\w-]+/);
  await synced(a.page, 0);
  assert.equal(await a.page.getAttribute('#board', 'data-you'), 'red');
  assert.equal(await a.page.getAttribute('#board', 'data-flipped'), 'false');
  const invite = await a.page.inputValue('#online-invite');
  const watch = await a.page.inputValue('#online-watch');
  assert.match(invite, /\/xq\?room=[\w-]+&seat=[\w-]{22}$/);
  assert.match(watch, /\/xq\?room=[\w-]+$/);

  const b = await newPage();
  await b.page.goto(invite);
  await synced(b.page, 0);
  assert.equal(await b.page.getAttribute('#board', 'data-you'), 'black');
  assert.equal(await b.page.getAttribute('#board', 'data-flipped'), 'true', "black's board is turned to black");
  const c = await newPage();
  await c.page.goto(watch);
  await synced(c.page, 0);
  assert.equal(await c.page.getAttribute('#board', 'data-you'), '');
  assert.equal(await c.page.isHidden('#online-actions'), true, 'a spectator has no buttons');
  await a.page.waitForSelector('#player-black.on');
  assert.match(await a.page.textContent('#clock-top'), /Black 10:00/);

  await clickMove(a.page, 'h2e2');
  await synced(a.page, 1);
  await synced(b.page, 1);
  await synced(c.page, 1);
  assert.equal(await a.page.getAttribute('#clock-top', 'class'), 'online-clock', 'no clock runs before both first moves');
  await clickMove(b.page, 'h9g7');
  await synced(a.page, 2);
  await synced(c.page, 2);
  assert.equal(await a.page.getAttribute('#clock-bottom', 'class'), 'online-clock running', "then red's clock runs");

  // Black loses the network for a few seconds while red moves, then catches up.
  await b.context.setOffline(true);
  await clickMove(a.page, 'b0c2');
  await synced(a.page, 3);
  await new Promise((r) => setTimeout(r, 3000));
  await b.context.setOffline(false);
  await synced(b.page, 3);
  assert.deepEqual(await moveTexts(b.page), await moveTexts(a.page));

  // A move made while offline waits, shown as pending, and arrives once the network is back.
  await b.context.setOffline(true);
  await clickMove(b.page, 'b9c7');
  await new Promise((r) => setTimeout(r, 2000));
  await b.context.setOffline(false);
  await synced(a.page, 4, 30000);
  await synced(b.page, 4, 30000);
  await synced(c.page, 4);

  // A reload keeps the seat.
  await b.page.reload();
  await synced(b.page, 4);
  assert.equal(await b.page.getAttribute('#board', 'data-you'), 'black');
  assert.deepEqual(await moveTexts(b.page), await moveTexts(c.page));

  // Draw by agreement: every screen shows the end and the share link.
  await a.page.click('#online-draw');
  await b.page.waitForSelector('#draw-accept');
  await b.page.click('#draw-accept');
  for (const p of [a.page, b.page, c.page]) {
    await p.waitForSelector('#status[data-outcome="draw"]');
    assert.match(await p.inputValue('#online-share-link'), /\/xq\?g=/);
  }
  const share = await c.page.inputValue('#online-share-link');
  const replay = await c.context.newPage();
  await replay.goto(share);
  await replay.waitForSelector('#board[data-ready="true"][data-plies="4"]');
  for (const x of [a, b, c]) await x.context.close();
});
