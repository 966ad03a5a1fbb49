// The room page's chat and premove (issue 23): two seats and a spectator chat (HTML shown as
// text, the spectator reads only, a switch hides it, a reload shows the recent lines); a move
// queued while the opponent is to move is played when their move comes, dropped when it is no
// longer legal, and cancelled by Escape, a click or a right-click. A player's name shows as text
// and goes into the PGN.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, clickMove, clickSquare, pointCentre, launchBrowser, newPlayerPage } from './harness.js';

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

async function synced(page, plies) {
  await page.waitForSelector(`#board[data-ready="true"][data-plies="${plies}"][data-pending="false"]`, { timeout: 20000 });
}

async function game(body = {}) {
  const res = await fetch(`${env.base}/api/rooms`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const room = await res.json();
  const red = await newPlayerPage(browser);
  await red.page.goto(room.links.red);
  await synced(red.page, 0);
  const black = await newPlayerPage(browser);
  await black.page.goto(room.links.black);
  await synced(black.page, 0);
  await red.page.waitForSelector('#player-black.on');
  return { room, red, black };
}

const chatTexts = (page) => page.$$eval('#chat-lines .chat-line', (lines) => lines.map((l) => ({
  from: l.dataset.from, text: l.querySelector('.chat-text').textContent, who: l.querySelector('.chat-from').textContent,
})));

async function say(page, text) {
  await page.fill('#chat-input', text);
  await page.click('#chat-send');
}

test('chat: both seats and a spectator see the lines as text; the spectator cannot write; a switch hides it', async () => {
  const { room, red, black } = await game();
  const watcher = await newPlayerPage(browser);
  await watcher.page.goto(room.links.watch);
  await synced(watcher.page, 0);

  const html = '<b>bold</b> & <img src=x onerror="window.__owned=1">';
  await say(red.page, html);
  for (const page of [red.page, black.page, watcher.page]) {
    await page.waitForFunction(() => document.querySelectorAll('#chat-lines .chat-line').length === 1);
    const [line] = await chatTexts(page);
    assert.equal(line.text, html, 'shown literally');
    assert.equal(line.from, 'red');
    assert.equal(await page.$$eval('#chat-lines b, #chat-lines img', (n) => n.length), 0, 'no markup made it into the page');
    assert.equal(await page.evaluate(() => window.__owned), undefined);
  }
  assert.match((await chatTexts(red.page))[0].who, /Red \(you\)/);
  assert.match((await chatTexts(black.page))[0].who, /^Red:/);
  assert.equal(await red.page.inputValue('#chat-input'), '', 'the input is cleared once sent');

  await say(black.page, 'gg');
  await watcher.page.waitForFunction(() => document.querySelectorAll('#chat-lines .chat-line').length === 2);
  assert.deepEqual((await chatTexts(watcher.page)).map((l) => [l.from, l.text]), [['red', html], ['black', 'gg']]);

  // The spectator reads only.
  assert.equal(await watcher.page.isVisible('#chat-form'), false);
  assert.equal(await watcher.page.isVisible('#chat-readonly'), true);
  assert.equal(await red.page.isVisible('#chat-readonly'), false);

  // A line too long is cut by the input; the server's refusal shows in the chat, not as a move error.
  assert.equal(await red.page.getAttribute('#chat-input', 'maxlength'), '200');
  await red.page.evaluate(() => {
    // Faster than a person types: the seat's allowance (5 at once) runs out.
    for (let i = 0; i < 6; i++) {
      document.getElementById('chat-input').value = `fast ${i}`;
      document.getElementById('chat-send').click();
    }
  });
  await red.page.waitForFunction(() => /too many chat lines/.test(document.getElementById('chat-error').textContent));
  assert.equal(await red.page.textContent('#message'), '');

  // A name (given on the page) is shown as text to everyone and written in the PGN.
  await red.page.fill('#online-name', 'Ann <i>x</i>');
  await red.page.click('#online-name-set');
  await watcher.page.waitForFunction(() => document.getElementById('player-red').textContent.includes('Ann <i>x</i>'));
  assert.equal(await watcher.page.$$eval('#online-players i', (n) => n.length), 0);
  const pgn = await (await fetch(`${env.base}/api/rooms/${room.room}/pgn`)).text();
  assert.match(pgn, /\[Red "Ann <i>x<\/i>"\]/);
  assert.match(pgn, /\[Black "\?"\]/);

  // Hidden: the lines and the form go; the choice is remembered over a reload, which shows the
  // recent lines again.
  await black.page.check('#chat-hide');
  assert.equal(await black.page.isVisible('#chat-lines'), false);
  assert.equal(await black.page.isVisible('#chat-input'), false);
  await black.page.reload();
  await synced(black.page, 0);
  assert.equal(await black.page.isChecked('#chat-hide'), true);
  assert.equal(await black.page.isVisible('#chat-body'), false);
  await black.page.uncheck('#chat-hide');
  const said = (await chatTexts(red.page)).length;
  assert.ok(said >= 6, `the first lines and the fast ones within the allowance: ${said}`);
  await black.page.waitForFunction((n) => document.querySelectorAll('#chat-lines .chat-line').length === n, said);
  const after = await chatTexts(black.page);
  assert.deepEqual(after.slice(0, 2).map((l) => l.text), [html, 'gg'], 'the history once, in order');
  assert.equal(after.filter((l) => l.text === 'gg').length, 1);
  for (const p of [red, black, watcher]) await p.context.close();
});

test('a piece picked stays picked when news of the room comes between the two taps', async () => {
  const { room, red, black } = await game();
  await clickSquare(red.page, 'h2');
  await red.page.waitForSelector('#board .piece.selected[data-square="h2"]');
  // A spectator arrives: the room sends both players a new state before red's second tap.
  const watcher = await newPlayerPage(browser);
  await watcher.page.goto(room.links.watch);
  await synced(watcher.page, 0);
  await red.page.waitForFunction(() => /1 watching/.test(document.body.textContent));
  assert.ok(await red.page.$('#board .piece.selected[data-square="h2"]'), 'the cannon is still picked');
  await clickSquare(red.page, 'e2');
  await synced(red.page, 1);
  await synced(black.page, 1);
  // News that takes the picked piece's moves away does drop the pick: black picks a horse,
  // then red resigns: the game is over.
  await clickSquare(black.page, 'h9');
  await black.page.waitForSelector('#board .piece.selected[data-square="h9"]');
  red.page.once('dialog', (dialog) => dialog.accept());
  await red.page.click('#online-resign');
  await black.page.waitForSelector('#board .piece[data-square="h9"]:not(.selected)');
  await clickSquare(black.page, 'g7');
  assert.equal(await black.page.getAttribute('#board', 'data-plies'), '1', 'nothing was played');
  for (const p of [red, black, watcher]) await p.context.close();
});

test('premove: queued while the opponent is to move, played when their move comes; dropped when illegal; cancelled', async () => {
  const { red, black } = await game({ clock: { initial_s: 300, increment_s: 2 } });
  await clickMove(red.page, 'h2e2');
  await synced(black.page, 1);
  await synced(red.page, 1);

  // Cancelled by Escape, by a click on the board, by a right-click.
  const queue = async (iccs) => {
    await red.page.waitForSelector('#board[data-premoving="true"]');
    await clickSquare(red.page, iccs.slice(0, 2));
    await clickSquare(red.page, iccs.slice(2, 4));
    await red.page.waitForSelector(`#board[data-premove="${iccs}"]`);
    assert.equal(await red.page.$$eval('.premove-mark', (n) => n.length), 2, 'both squares highlighted');
    assert.equal(await red.page.isVisible('#online-premove'), true);
  };
  await queue('h0g2');
  await red.page.keyboard.press('Escape');
  await red.page.waitForSelector('#board[data-premove=""]');
  assert.equal(await red.page.$$eval('.premove-mark', (n) => n.length), 0);
  await queue('h0g2');
  await clickSquare(red.page, 'a5');
  await red.page.waitForSelector('#board[data-premove=""]');
  await queue('b0c2');
  const { x, y } = await pointCentre(red.page, 'e5');
  await red.page.mouse.click(x, y, { button: 'right' });
  await red.page.waitForSelector('#board[data-premove=""]');

  // Played as soon as black's move is in.
  await queue('h0g2');
  await clickMove(black.page, 'h9g7');
  await synced(black.page, 3);
  await synced(red.page, 3);
  const moves = await red.page.$$eval('#moves .move', (n) => n.map((m) => m.textContent));
  assert.deepEqual(moves, ['炮二平五', '马8进7', '马二进三']);
  assert.equal(await red.page.getAttribute('#board', 'data-premove'), '');

  // Red queues b2b9 (the cannon takes the horse over black's cannon on b7); black moves that
  // horse away, and the premove is dropped.
  await queue('b2b9');
  await clickMove(black.page, 'b9c7');
  await synced(red.page, 4);
  await red.page.waitForFunction(() => /was not legal/.test(document.getElementById('online-notice').textContent));
  assert.equal(await red.page.getAttribute('#board', 'data-premove'), '');
  assert.equal(await red.page.getAttribute('#board', 'data-plies'), '4', 'nothing was sent');
  assert.equal(await red.page.textContent('#status'), 'Your move');
  for (const p of [red, black]) await p.context.close();
});
