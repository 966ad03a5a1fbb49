// The lobby ("Play someone"): two browsers pair through a seek and land in one room, each in
// a seat; a third sees the seek appear and disappear; quick pairing; the preset buttons of the
// "Play a friend" dialog; the games being played, watched from the lobby and from home.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, launchBrowser, newPlayerPage, clickMove } from './harness.js';

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

async function openLobby(page, path) {
  await page.goto(`${env.base}${path}`);
  assert.equal((await page.textContent('#play-someone')).trim(), 'Play someone');
  await page.click('#play-someone');
  await page.waitForSelector('#lobby-dialog[open] #lobby-seeks');
}

test('a seek pairs two browsers; a third sees it come and go', async () => {
  const a = await newPage();
  const b = await newPage();
  const c = await newPage();
  await openLobby(a.page, '/');
  await openLobby(b.page, '/xq');
  await openLobby(c.page, '/');
  await a.page.click('#lobby-quick [data-preset="3+2"]');
  await a.page.selectOption('#lobby-colour', 'black');
  await a.page.fill('#lobby-name', '<i>Ann</i>');
  await a.page.click('#lobby-seek');
  await a.page.waitForSelector('#lobby-seeks .seek.mine');
  await c.page.waitForSelector('#lobby-seeks .seek .seek-accept');
  assert.equal(await c.page.textContent('#lobby-seeks .seek .seek-text'), '3+2 · Black · <i>Ann</i>', 'the name is text, not HTML');
  await b.page.click('#lobby-seeks .seek .seek-accept');
  await a.page.waitForURL(/\/xq\?room=[\w-]+&seat=[\w-]+/);
  await b.page.waitForURL(/\/xq\?room=[\w-]+&seat=[\w-]+/);
  assert.equal(new URL(a.page.url()).searchParams.get('room'), new URL(b.page.url()).searchParams.get('room'));
  await a.page.waitForSelector('#board[data-ready="true"]');
  await b.page.waitForSelector('#board[data-ready="true"]');
  assert.equal(await a.page.getAttribute('#board', 'data-you'), 'black');
  assert.equal(await b.page.getAttribute('#board', 'data-you'), 'red');
  assert.match(await a.page.textContent('#clock-bottom'), /Black 3:00/);
  await c.page.waitForSelector('#lobby-seeks .seek', { state: 'detached' });

  // Quick pairing: the same preset from two browsers.
  await openLobby(a.page, '/');
  await a.page.click('#lobby-quick [data-preset="1+0"]');
  await a.page.click('#lobby-play-now');
  await c.page.waitForSelector('#lobby-seeks .seek');
  await c.page.click('#lobby-quick [data-preset="1+0"]');
  await c.page.click('#lobby-play-now');
  await a.page.waitForURL(/room=/);
  await c.page.waitForURL(/room=/);
  assert.equal(new URL(a.page.url()).searchParams.get('room'), new URL(c.page.url()).searchParams.get('room'));
  for (const x of [a, b, c]) await x.context.close();
});

test('the lobby lists the games being played, live; a spectator watches one from there', async () => {
  const a = await newPage();
  const b = await newPage();
  const c = await newPage();
  await openLobby(a.page, '/');
  await openLobby(b.page, '/');
  await a.page.click('#lobby-quick [data-preset="5+3"]');
  await a.page.selectOption('#lobby-colour', 'red');
  await a.page.fill('#lobby-name', 'Ann');
  await a.page.click('#lobby-seek');
  await b.page.waitForSelector('#lobby-seeks .seek .seek-accept');
  await b.page.click('#lobby-seeks .seek .seek-accept');
  for (const x of [a, b]) await x.page.waitForSelector('#board[data-ready="true"]');
  // A lobby game is listed: the box on the room page says so, and either player may untick it.
  assert.equal(await a.page.isChecked('#online-public'), true);
  // The clock runs once both sides have moved.
  await clickMove(a.page, 'h2e2');
  await b.page.waitForSelector('#board[data-plies="1"]');
  await clickMove(b.page, 'h9g7');
  await a.page.waitForSelector('#board[data-plies="2"]');

  await openLobby(c.page, '/');
  const row = '#lobby-games .live-game';
  await c.page.waitForSelector(row);
  assert.equal(await c.page.textContent(`${row} .game-names`), 'Ann – Black');
  assert.equal(await c.page.textContent(`${row} .game-spectators`), '0 watching');
  // Red's clock runs, on the page too.
  const red = `${row} .game-clock.running[data-clock="red"]`;
  const first = await c.page.textContent(red);
  await c.page.waitForFunction(([sel, was]) => document.querySelector(sel)?.textContent !== was, [red, first]);
  assert.match(await c.page.textContent(`${row} .game-clock[data-clock="black"]`), /^5:0[0-3]$/);

  // Watching: the room page as a spectator; the lobby's count follows.
  const d = await newPage();
  await d.page.goto(`${env.base}/`);
  await d.page.click('#watch-game');
  await d.page.waitForSelector('#lobby-dialog[open] #lobby-games .live-game');
  await d.page.click('#lobby-games .live-game .game-watch');
  await d.page.waitForURL(/\/xq\?room=[\w-]+$/);
  await d.page.waitForSelector('#board[data-ready="true"]');
  assert.equal(await d.page.getAttribute('#board', 'data-plies'), '2');
  assert.equal(await d.page.isVisible('#online-public'), false, 'a spectator cannot list or unlist');
  await c.page.waitForFunction((sel) => document.querySelector(sel)?.textContent === '1 watching', `${row} .game-spectators`);

  // A player takes the game off the list.
  await b.page.uncheck('#online-public');
  await c.page.waitForSelector(row, { state: 'detached' });
  await c.page.waitForSelector('#lobby-games .online-note');
  for (const x of [a, b, c, d]) await x.context.close();
});

test("home's Watch a game opens the famous game when nobody plays", async () => {
  const a = await newPage();
  await a.page.goto(`${env.base}/`);
  await a.page.click('#watch-game');
  await a.page.waitForURL(/#example-game$/);
  assert.equal(await a.page.isVisible('#lobby-dialog'), false);
  await a.context.close();
});

test('a seek leaves with its page', async () => {
  const a = await newPage();
  const c = await newPage();
  await openLobby(a.page, '/');
  await openLobby(c.page, '/');
  await a.page.click('#lobby-seek');
  await c.page.waitForSelector('#lobby-seeks .seek');
  await a.context.close();
  await c.page.waitForSelector('#lobby-seeks .seek', { state: 'detached' });
  await c.context.close();
});

test('"Play a friend" offers time-control presets', async () => {
  const a = await newPage();
  await a.page.goto(`${env.base}/xq`);
  await a.page.click('#play-friend');
  await a.page.click('#friend-presets [data-preset="15+10"]');
  assert.equal(await a.page.inputValue('#friend-minutes'), '15');
  assert.equal(await a.page.inputValue('#friend-increment'), '10');
  await a.page.click('#friend-create');
  // The room page's own board and clock, not the /xq board it came from (a slow machine read
  // the clock before the room page had drawn it).
  await a.page.waitForURL(/room=/);
  await a.page.waitForSelector('#board[data-ready="true"]');
  await a.page.waitForSelector('#clock-bottom[data-colour]');
  assert.match(await a.page.textContent('#clock-bottom'), /15:00/);
  await a.context.close();
});
