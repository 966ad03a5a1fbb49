// Online games as lichess players expect them (issue 23): the room's own page, the "Play a
// friend" label, no clock before both first moves and the abort, sounds and the background
// title, the clock's tenths, "Reconnecting…" and the opponent gone with a claim, looking back
// through the game, the PGN and the game-over panel, a declined offer, a bad room link.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, clickMove, launchBrowser } from './harness.js';

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

// A page whose network can be cut (window.__offline): sends are dropped, nothing arrives, and
// new sockets fail, as when a laptop loses its Wi-Fi without a close. It records the sounds.
async function newPage() {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  await context.addInitScript(() => {
    localStorage.setItem('qi-lang', 'en');
    window.__offline = false;
    window.__sounds = [];
    document.addEventListener('qi-sound', (e) => window.__sounds.push(e.detail));
    const Native = window.WebSocket;
    class Cuttable extends Native {
      constructor(url, protocols) {
        super(window.__offline ? 'ws://127.0.0.1:9/' : url, protocols);
      }
      send(data) {
        if (!window.__offline) super.send(data);
      }
      addEventListener(type, fn, options) {
        super.addEventListener(type, type === 'message' ? (e) => { if (!window.__offline) fn(e); } : fn, options);
      }
    }
    window.WebSocket = Cuttable;
  });
  return { context, page: await context.newPage() };
}

async function synced(page, plies, timeout = 20000) {
  await page.waitForSelector(`#board[data-ready="true"][data-plies="${plies}"][data-pending="false"]`, { timeout });
}

// A room made through the API; both players' pages open on their seat links.
async function game(body = {}) {
  const res = await fetch(`${env.base}/api/rooms`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const room = await res.json();
  const red = await newPage();
  await red.page.goto(room.links.red);
  await synced(red.page, 0);
  const black = await newPage();
  await black.page.goto(room.links.black);
  await synced(black.page, 0);
  await red.page.waitForSelector('#player-black.on');
  return { room, red, black };
}

async function play(players, moves) {
  for (const mv of moves) {
    const plies = Number(await players.red.page.getAttribute('#board', 'data-plies'));
    const mover = plies % 2 === 0 ? players.red : players.black;
    await clickMove(mover.page, mv);
    await synced(players.red.page, plies + 1);
    await synced(players.black.page, plies + 1);
  }
}

const sounds = (page) => page.evaluate(() => window.__sounds.slice());

test('the room has its own page; /xq shows "Play a friend"; a bad room link says only that', async () => {
  const x = await newPage();
  await x.page.goto(`${env.base}/xq`);
  assert.equal((await x.page.textContent('#play-friend')).trim(), 'Play a friend');
  assert.equal(await x.page.evaluate(() => 'qiRoom' in window), false);
  await x.page.goto(`${env.base}/xq?room=AAAAAAAAAAAAAAAA`);
  await x.page.waitForSelector('#message.error');
  assert.match(await x.page.textContent('#message'), /does not exist/);
  assert.equal(await x.page.isHidden('#online-conn'), true, 'no "Reconnecting…" beside it');
  assert.equal(await x.page.evaluate(() => document.body.classList.contains('room-page')), true);
  assert.equal(await x.page.$('#analyse'), null, 'no analysis or editor on the room page');
  await x.context.close();
});

test('no clock before both first moves; abort before; clock tenths; sounds; background title', async () => {
  const g = await game({ clock: { initial_s: 180, increment_s: 2 } });
  const { red, black } = g;
  assert.match(await red.page.textContent('#online-abort-note'), /first move within \d+ s/);
  assert.equal(await red.page.isVisible('#online-abort'), true, 'abort is offered before the first moves');
  await play(g, ['h2e2']);
  assert.equal(await red.page.$$eval('.online-clock.running', (n) => n.length), 0, 'no clock runs after one first move');
  assert.match(await black.page.textContent('#clock-bottom'), /Black 3:00/);
  // Black's page plays a sound for red's move; a hidden tab says whose move it is.
  await black.page.waitForFunction(() => window.__sounds.includes('move'));
  await black.page.evaluate(() => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  assert.match(await black.page.title(), /^Your move/);
  await play(g, ['h9g7']);
  await red.page.waitForSelector('#clock-bottom.running');
  assert.match(await black.page.title(), /^Waiting for your opponent/);
  assert.equal(await red.page.isVisible('#online-abort'), false, 'no abort once both have moved');
  await play(g, ['e2e6']); // a capture
  await black.page.waitForFunction(() => window.__sounds.includes('capture'));
  // The clock's text: whole seconds rounded down, tenths under 10 s.
  const texts = await red.page.evaluate(async () => {
    const { formatClock } = await import('/assets/room.js');
    return [10999, 10000, 9999, 9900, 50, 0].map(formatClock);
  });
  assert.deepEqual(texts, ['0:10', '0:10', '0:09.9', '0:09.9', '0:00.0', '0:00.0']);
  // A declined draw is said so.
  await red.page.click('#online-draw');
  await black.page.click('#draw-decline');
  await red.page.waitForSelector('#online-notice:has-text("declined the draw")');
  // Resigning ends the game with a sound, the game-over panel and the PGN.
  black.page.once('dialog', (d) => d.accept());
  await black.page.click('#online-resign');
  for (const p of [red.page, black.page]) {
    await p.waitForSelector('#online-over:not([hidden]) #over-result');
    assert.match(await p.textContent('#over-result'), /Red wins — resignation/);
    await p.waitForFunction(() => window.__sounds.includes('end'));
  }
  assert.equal(await red.page.isVisible('#over-rematch'), true);
  assert.match(await red.page.getAttribute('#over-analyse', 'href'), /^\/xq\?g=.*analyse=1/);
  const pgn = await (await fetch(`${env.base}/api/rooms/${g.room.room}/pgn`)).text();
  for (const tag of ['[Result "1-0"]', '[Termination "resignation"]', '[TimeControl "180+2"]', '{[%clk 0:03:00]}']) {
    assert.ok(pgn.includes(tag), `${tag} in ${pgn}`);
  }
  assert.match(pgn, /\[Date "\d{4}\.\d\d\.\d\d"\]/);
  assert.match(pgn, /\[UTCTime "\d\d:\d\d:\d\d"\]/);
  // The share link of the finished game opens on the result.
  const share = await red.page.inputValue('#online-share-link');
  const replay = await red.context.newPage();
  await replay.goto(share);
  await replay.waitForSelector('#board[data-ready="true"][data-plies="3"]');
  for (const x of [red, black]) await x.context.close();
});

test('a player may abort before both first moves', async () => {
  const g = await game({ clock: { initial_s: 60, increment_s: 0 } });
  await g.black.page.click('#online-abort');
  for (const p of [g.red.page, g.black.page]) {
    await p.waitForSelector('#status[data-outcome="aborted"]');
    assert.match(await p.textContent('#over-result'), /Game aborted/);
  }
  const pgn = await (await fetch(`${env.base}/api/rooms/${g.room.room}/pgn`)).text();
  assert.ok(pgn.includes('[Result "*"]') && pgn.includes('[Termination "aborted"]'), pgn);
  for (const x of [g.red, g.black]) await x.context.close();
});

test('looking back: buttons, clicks on the move list, arrow keys, and the way back', async () => {
  const g = await game();
  await play(g, ['h2e2', 'h9g7', 'b0c2', 'b9c7']);
  const { page } = g.red;
  await page.click('#replay-prev');
  await page.waitForSelector('#board[data-viewing="true"][data-ply="3"]');
  assert.match(await page.textContent('#online-viewing'), /Move 3 of 4/);
  await page.click('#moves .move[data-ply="1"]');
  await page.waitForSelector('#board[data-viewing="true"][data-ply="1"]');
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('#board[data-viewing="true"][data-ply="2"]');
  await page.keyboard.press('Home');
  await page.waitForSelector('#board[data-viewing="true"][data-ply="0"]');
  // A move from the opponent while looking back keeps the view; the button goes back to the live position.
  await page.click('#replay-live');
  await page.waitForSelector('#board[data-viewing="false"][data-ply="4"]');
  await page.keyboard.press('ArrowLeft');
  await page.waitForSelector('#board[data-viewing="true"][data-ply="3"]');
  await page.keyboard.press('End');
  await page.waitForSelector('#board[data-viewing="false"][data-ply="4"]');
  await clickMove(page, 'h0g2');
  await synced(g.black.page, 5);
  for (const x of [g.red, g.black]) await x.context.close();
});

test('a lost connection shows "Reconnecting…"; the opponent gone, a countdown, then a claim', async () => {
  const g = await game();
  await play(g, ['h2e2', 'h9g7']);
  const cut = Date.now();
  await g.black.page.evaluate(() => { window.__offline = true; });
  await g.black.page.waitForSelector('#online-conn[data-state="reconnecting"]', { timeout: 4000 });
  // The next ping goes within 2 s of the cut; its pong is missed 1.5 s later.
  assert.ok(Date.now() - cut < 4000, `"Reconnecting…" after ${Date.now() - cut} ms`);
  await g.red.page.waitForSelector('#player-black.off', { timeout: 6000 });
  assert.ok(Date.now() - cut < 6500, `the opponent shown gone after ${Date.now() - cut} ms`);
  await g.red.page.waitForSelector('#gone-countdown');
  assert.match(await g.red.page.textContent('#gone-countdown'), /claim the game in \d+ s/);
  await g.red.page.waitForSelector('#claim-win', { timeout: 25000 });
  await g.red.page.click('#claim-win');
  await g.red.page.waitForSelector('#status[data-outcome="red wins"]');
  assert.match(await g.red.page.textContent('#over-result'), /the opponent left/);
  // Back online, black sees the result.
  await g.black.page.evaluate(() => { window.__offline = false; });
  await g.black.page.waitForSelector('#status[data-outcome="red wins"]', { timeout: 20000 });
  for (const x of [g.red, g.black]) await x.context.close();
});

test("a move made offline is shown in the player's notation, and no error stays once it is through", async () => {
  const g = await game();
  await play(g, ['h2e2']);
  const { page, context } = g.black;
  // The page's own notation agrees with the server's for the usual moves, tandems included.
  const agree = await page.evaluate(async () => {
    const { localNotation } = await import('/assets/room.js');
    const moves = ['h2e2', 'h9g7', 'e2e1', 'b9c7', 'b2e2', 'a9a8', 'e2e6', 'i9i8', 'e1e2', 'a8d8', 'h0g2', 'g6g5', 'e6e5'];
    const out = [];
    for (let i = 0; i < moves.length; i++) {
      const before = await (await fetch('/api/xq/game', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ moves: moves.slice(0, i) }) })).json();
      const after = await (await fetch('/api/xq/game', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ moves: moves.slice(0, i + 1) }) })).json();
      const local = localNotation(before.board, moves[i]);
      const server = after.moves[i];
      out.push([local.chinese ?? server.chinese, server.chinese, local.wxf ?? server.wxf, server.wxf]);
    }
    return out;
  });
  for (const [lc, sc, lw, sw] of agree) {
    assert.equal(lc, sc);
    assert.equal(lw, sw);
  }
  await context.setOffline(true);
  await page.evaluate(() => { window.__offline = true; });
  await clickMove(page, 'b9c7');
  assert.equal(await page.textContent('#moves .move.pending'), '马2进3');
  await new Promise((r) => setTimeout(r, 1500));
  await context.setOffline(false);
  await page.evaluate(() => { window.__offline = false; });
  await synced(page, 2, 30000);
  await synced(g.red.page, 2);
  assert.doesNotMatch(await page.textContent('#message'), /fetch/i);
  for (const x of [g.red, g.black]) await x.context.close();
});
