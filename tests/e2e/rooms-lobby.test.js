// The lobby ("Play someone"): two browsers pair through a seek and land in one room, each in
// a seat; a third sees the seek appear and disappear; quick pairing; the preset buttons of the
// "Play a friend" dialog.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, launchBrowser, newPlayerPage } from './harness.js';

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
