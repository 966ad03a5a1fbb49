// Qi on a phone and as an app (issue 45), at the four screens the issue names: 1366x768 and
// 1280x720 laptops, 390x844 and 360x640 phones (touch, tapped rather than clicked). The site is
// installable (Chromium's own check) and keeps the favicon offline; every page fits without
// sideways scroll; the room page shows the whole board and both clocks; the board page keeps its
// board in view; 44-px touch targets; the wake lock in a room game and the reconnect after the
// page was hidden; and each numbered fix. With QI_SCREENSHOTS set to a folder, each screen's
// home, board and room pages are saved there (crates/web/screenshots/ holds the committed ones).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setup, launchBrowser, launchPersistent, pointCentre } from './harness.js';

const SCREENS = [
  { name: 'laptop-1366x768', width: 1366, height: 768, phone: false },
  { name: 'laptop-1280x720', width: 1280, height: 720, phone: false },
  { name: 'phone-390x844', width: 390, height: 844, phone: true },
  { name: 'phone-360x640', width: 360, height: 640, phone: true },
];

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

/** A context for `screen` (touch and a mobile viewport on the phones), in English. */
async function screenPage(screen) {
  const context = await browser.newContext({
    viewport: { width: screen.width, height: screen.height }, hasTouch: screen.phone, isMobile: screen.phone,
  });
  await context.addInitScript(() => {
    localStorage.setItem('qi-lang', 'en');
    window.__vibrations = [];
    document.addEventListener('qi-vibrate', (e) => window.__vibrations.push(e.detail.pattern));
  });
  return { context, page: await context.newPage() };
}

async function shot(page, screen, what) {
  const folder = process.env.QI_SCREENSHOTS;
  if (!folder) return;
  mkdirSync(folder, { recursive: true });
  // JPEG: a dozen screens stay small enough to keep in the repository.
  await page.screenshot({ path: join(folder, `${what}-${screen.name}.jpg`), type: 'jpeg', quality: 80 });
}

/** The page's box of `selector` and the window's size. */
function box(page, selector) {
  return page.evaluate((sel) => {
    const node = document.querySelector(sel);
    const r = node ? node.getBoundingClientRect() : null;
    return { rect: r && { top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width }, w: innerWidth, h: innerHeight };
  }, selector);
}

async function assertInView(page, selector, label) {
  const { rect, w, h } = await box(page, selector);
  assert.ok(rect, `${label}: ${selector} is on the page`);
  assert.ok(rect.top >= 0 && rect.left >= 0 && rect.bottom <= h + 0.5 && rect.right <= w + 0.5,
    `${label}: ${selector} in view (${JSON.stringify(rect)} in ${w}x${h})`);
}

async function assertNoSidewaysScroll(page, label) {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  assert.ok(scroll <= client, `${label}: no sideways scroll (${scroll} > ${client})`);
}

/** Taps (phones) or clicks (laptops) the board point `square`. */
async function touchSquare(page, screen, square) {
  const { x, y } = await pointCentre(page, square);
  if (screen.phone) await page.touchscreen.tap(x, y);
  else await page.mouse.click(x, y);
}

async function synced(page, plies) {
  await page.waitForSelector(`#board[data-ready="true"][data-plies="${plies}"][data-pending="false"]`, { timeout: 20000 });
}

/** A room with a clock, both players on `screen`; the red player's page is the one measured. */
async function roomGame(screen) {
  const res = await fetch(`${env.base}/api/rooms`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clock: { initial_s: 300, increment_s: 3 } }),
  });
  const room = await res.json();
  const red = await screenPage(screen);
  await red.page.goto(room.links.red);
  await synced(red.page, 0);
  const black = await screenPage(screen);
  await black.page.goto(room.links.black);
  await synced(black.page, 0);
  await red.page.waitForSelector('#player-black.on');
  return { room, red, black };
}

/** Plays `iccs` on `player`'s page by touch (phones) or mouse, and waits for both pages. */
async function play(screen, game, player, iccs) {
  const plies = Number(await player.page.getAttribute('#board', 'data-plies'));
  await touchSquare(player.page, screen, iccs.slice(0, 2));
  await touchSquare(player.page, screen, iccs.slice(2, 4));
  await synced(game.red.page, plies + 1);
  await synced(game.black.page, plies + 1);
}

test('the site is installable: manifest, icons, theme colour; Chromium reports no installability error', async () => {
  const profile = mkdtempSync(join(tmpdir(), 'qi-e2e-app-'));
  // A persistent context: Chromium does not offer to install from an incognito one.
  const context = await launchPersistent(profile);
  try {
    for (const path of ['/', '/xq', '/huarong']) {
      const page = await context.newPage();
      await page.goto(env.base + path);
      const cdp = await context.newCDPSession(page);
      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
      assert.deepEqual(installabilityErrors, [], `${path}: ${JSON.stringify(installabilityErrors)}`);
      const { url, errors, data } = await cdp.send('Page.getAppManifest');
      assert.deepEqual(errors, [], path);
      const manifest = JSON.parse(data);
      assert.equal(manifest.display, 'standalone');
      assert.equal(manifest.start_url, '/');
      assert.ok(manifest.name && manifest.short_name && manifest.theme_color && manifest.background_color);
      const sizes = manifest.icons.map((i) => `${i.sizes} ${i.purpose}`);
      assert.deepEqual(sizes.sort(), ['192x192 any', '512x512 any', '512x512 maskable']);
      for (const icon of manifest.icons) {
        const res = await page.request.get(new URL(icon.src, url).href);
        assert.equal(res.headers()['content-type'], 'image/png', icon.src);
        const png = await res.body();
        // The PNG's own header: its width and height are what the manifest says.
        const [w, h] = [png.readUInt32BE(16), png.readUInt32BE(20)];
        assert.equal(`${w}x${h}`, icon.sizes, icon.src);
      }
      assert.equal(await page.getAttribute('meta[name="theme-color"]', 'content'), manifest.theme_color);
      const touchIcon = await page.getAttribute('link[rel="apple-touch-icon"]', 'href');
      assert.equal((await page.request.get(env.base + touchIcon)).status(), 200);
      await page.close();
    }
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

test('fix 7: offline, the favicon comes from the service worker and no page logs an error for it', async () => {
  const profile = mkdtempSync(join(tmpdir(), 'qi-e2e-fav-'));
  const context = await launchPersistent(profile);
  try {
    const page = await context.newPage();
    await page.goto(env.base + '/');
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await context.setOffline(true);
    for (const path of ['/', '/xq', '/huarong']) {
      const failed = [];
      const other = await context.newPage();
      other.on('console', (m) => { if (m.type() === 'error') failed.push(m.text()); });
      other.on('requestfailed', (r) => failed.push(r.url()));
      await other.goto(env.base + path);
      await other.waitForLoadState('load');
      const favicon = await other.evaluate(async () => {
        const res = await fetch('/favicon.ico');
        return { ok: res.ok, type: res.headers.get('content-type') };
      });
      assert.deepEqual(favicon, { ok: true, type: 'image/x-icon' }, path);
      assert.deepEqual(failed.filter((f) => /favicon/.test(f)), [], `${path}: ${failed.join(' | ')}`);
      await other.close();
    }
  } finally {
    await context.setOffline(false);
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

for (const screen of SCREENS) {
  test(`${screen.name}: every page fits with no sideways scroll; the board page is board-first`, async () => {
    const { context, page } = await screenPage(screen);
    for (const path of ['/', '/xq', '/puzzles', '/huarong', '/embed', '/no-such-page']) {
      await page.goto(env.base + path);
      await page.waitForLoadState('load');
      await assertNoSidewaysScroll(page, `${screen.name} ${path}`);
    }
    await page.goto(env.base + '/');
    await page.waitForSelector('#example-game[data-plies]');
    await shot(page, screen, 'home');
    await page.goto(env.base + '/xq');
    await page.waitForSelector('#board[data-ready="true"]');
    await assertInView(page, '#board', `${screen.name} /xq`);
    await shot(page, screen, 'board');
    if (!screen.phone) {
      // Fix 3: importing a PGN with the tools scrolled down the side keeps the board in view.
      await page.evaluate(() => {
        document.getElementById('pgn-box').hidden = false;
        document.getElementById('pgn').value = '1. C2.5 H8+7 2. H2+3 R9.8 *';
        window.scrollTo(0, document.documentElement.scrollHeight);
      });
      await page.locator('#pgn-import').scrollIntoViewIfNeeded();
      await page.click('#pgn-import');
      await page.waitForSelector('#board[data-ready="true"][data-plies="4"]');
      assert.ok(await page.evaluate(() => scrollY > 0), 'the page scrolled to the tools');
      await assertInView(page, '#board', `${screen.name} /xq after an import`);
    }
    await context.close();
  });

  test(`${screen.name}: the room page shows the whole board and both clocks; wake lock; reconnect after hidden`, async () => {
    const game = await roomGame(screen);
    const { page } = game.red;
    await page.waitForSelector('[data-clock="red"]:not([hidden])');
    for (const selector of ['#board', '[data-clock="red"]', '[data-clock="black"]']) await assertInView(page, selector, screen.name);
    await assertNoSidewaysScroll(page, `${screen.name} room`);
    await shot(page, screen, 'room');
    // Fix 2: the replay buttons draw with glyphs every font has.
    assert.deepEqual(await page.$$eval('#online-replay button', (b) => b.map((n) => n.textContent)), ['|◀', '◀', '▶', '▶|']);

    // A move by touch; the opponent's move is felt where vibration is on.
    await play(screen, game, game.red, 'h2e2');
    await play(screen, game, game.black, 'h9g7');
    assert.deepEqual(await page.evaluate(() => window.__vibrations), [60], 'one vibration, for the opponent\'s move');

    // The screen stays on while the game is on, not while hidden.
    await play(screen, game, game.red, 'h0g2');
    await page.waitForSelector('html[data-wake-lock="held"]', { state: 'attached' });
    const setVisible = (visible) => page.evaluate((v) => {
      Object.defineProperty(document, 'visibilityState', { value: v ? 'visible' : 'hidden', configurable: true });
      Object.defineProperty(document, 'hidden', { value: !v, configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    }, visible);
    const sockets = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await setVisible(false);
    await page.waitForSelector('html[data-wake-lock="released"]', { state: 'attached' });
    // Hidden for a while (a phone in a pocket), while the opponent moves.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await touchSquare(game.black.page, screen, 'i9');
    await touchSquare(game.black.page, screen, 'h9');
    await synced(game.black.page, 4);
    const shownAt = Date.now();
    await setVisible(true);
    // A new socket at once (not after the 5 s silence timeout), and the page in step again.
    await page.waitForFunction(() => document.getElementById('online-conn').dataset.state === 'connected');
    await synced(page, 4);
    await page.waitForSelector('html[data-wake-lock="held"]', { state: 'attached' });
    assert.ok(sockets.some((url) => /\/api\/rooms\/.+\/ws/.test(url)), `a new room socket after the page showed again: ${sockets}`);
    assert.ok(Date.now() - shownAt < 4000, 'in step again before the silence timeout');

    // Resigned: the lock is given back.
    page.once('dialog', (d) => d.accept());
    await page.click('#online-resign');
    await page.waitForSelector('#online-over:not([hidden])');
    await page.waitForSelector('html[data-wake-lock="released"]', { state: 'attached' });
    await game.red.context.close();
    await game.black.context.close();
  });
}

test('phones: touch targets of at least 44 px and checkboxes that can be seen and tapped', async () => {
  const screen = SCREENS[3];
  const { context, page } = await screenPage(screen);
  for (const path of ['/', '/xq', '/huarong']) {
    await page.goto(env.base + path);
    await page.waitForLoadState('load');
    const controls = await page.evaluate(() => [...document.querySelectorAll('button, select, input, summary, a.action')]
      .filter((n) => n.closest('header, svg') === null && n.getClientRects().length > 0 && getComputedStyle(n).visibility !== 'hidden')
      .map((n) => {
        const r = n.getBoundingClientRect();
        const label = n.closest('label');
        // A checkbox is hit through its label, which is the 44-px target.
        const target = (n.type === 'checkbox' || n.type === 'radio') && label ? label.getBoundingClientRect() : r;
        return { what: n.id || n.textContent.trim().slice(0, 20) || n.outerHTML.slice(0, 60), h: Math.round(target.height), box: Math.round(r.height) };
      }));
    assert.ok(controls.length >= 5, `${path}: ${controls.length} controls measured`);
    const small = controls.filter((c) => c.h < 44 || c.box < 20);
    assert.deepEqual(small, [], `${path}: controls under 44 px`);
  }
  await context.close();
});

test('fixes 4, 5, 6: plural forms, the evaluation bar, the home page\'s entries and famous game', async () => {
  const { context, page } = await screenPage(SCREENS[0]);
  await page.goto(env.base + '/xq');
  await page.waitForSelector('#board[data-ready="true"]');
  // Fix 4: Intl.PluralRules picks the form in every language.
  const forms = await page.evaluate(async () => {
    const i18n = await import('/assets/i18n.js');
    const out = {};
    for (const lang of ['en', 'zh-Hans', 'zh-Hant', 'vi']) {
      await i18n.setLang(lang);
      out[lang] = [1, 2].map((n) => i18n.t('judge.count.blunder', { n })).concat(i18n.t('hr.minimum', { steps: 1 }));
    }
    await i18n.setLang('en');
    return out;
  });
  assert.deepEqual(forms.en, ['1 blunder', '2 blunders', 'Minimum from here: 1 step']);
  assert.deepEqual(forms['zh-Hans'], ['1 败着', '2 败着', '从此局面最少需 1 步']);
  assert.equal(forms.vi[0], '1 nước hỏng');

  // Fix 5: analysis on, the board keeps its size and the number reads upright.
  const before = (await box(page, '#board')).rect.width;
  await page.check('#analyse');
  await page.waitForFunction(() => /\d/.test(document.querySelector('#eval-bar .eval-label').textContent));
  assert.equal((await box(page, '#board')).rect.width, before, 'the board keeps its size');
  const transform = await page.$eval('#eval-bar .eval-label', (n) => getComputedStyle(n).transform);
  const [a, b] = transform.replace(/^matrix\(|\)$/g, '').split(',').map(Number);
  assert.ok(a === 1 && b === 0, `not turned: ${transform}`);
  await page.uncheck('#analyse');

  // Fix 6: the home page leads to play and watch; the famous game is a real one, named.
  await page.goto(env.base + '/');
  for (const id of ['play-computer', 'play-friend', 'play-someone', 'solve-puzzle', 'watch-game']) {
    assert.ok(await page.isVisible(`#${id}`), id);
  }
  assert.equal(await page.textContent('#example-game .game-players'), 'Hu Ronghua – Liu Dahua');
  assert.equal(await page.textContent('#example-game .game-event'), 'Five Rams Cup, 1997');
  assert.doesNotMatch(await page.textContent('main'), /one binary/);
  await page.waitForSelector('#example-game[data-plies="114"]');
  await page.click('#play-computer');
  await page.waitForSelector('#board[data-ready="true"]');
  assert.equal(await page.isChecked('#engine-auto'), true, 'the computer answers from the start');
  await context.close();
});

test('fix 8: the lobby has one clock picker and one Cancel; Huarong hides the replay controls when played by hand', async () => {
  const { context, page } = await screenPage(SCREENS[2]);
  await page.goto(env.base + '/');
  await page.click('#play-someone');
  await page.waitForSelector('#lobby-dialog[open] #lobby-seeks');
  assert.equal(await page.locator('#lobby-dialog select#lobby-clock').count(), 0, 'no second clock menu');
  assert.equal(await page.locator('#lobby-quick [aria-pressed="true"]').count(), 1, 'one clock chosen');
  await page.click('#lobby-quick [data-preset="3+2"]');
  assert.equal(await page.getAttribute('#lobby-quick [data-preset="3+2"]', 'aria-pressed'), 'true');
  await page.click('#lobby-seek');
  await page.waitForSelector('#lobby-seeks .seek.mine');
  assert.equal(await page.textContent('#lobby-seeks .seek.mine .seek-text'), '3+2 · Random');
  const cancels = await page.$$eval('#lobby-dialog button', (b) => b.filter((n) => n.textContent.trim() === 'Cancel').length);
  assert.equal(cancels, 1, 'one Cancel: the seek\'s; the dialog is left with "Leave the lobby"');
  await page.click('#lobby-close');

  // Huarong: the solution started and stopped, the player goes on by hand (the hint's move):
  // no ◀ Play ▶ then.
  await page.goto(env.base + '/huarong?name=%E6%A8%AA%E5%88%80%E7%AB%8B%E9%A9%AC');
  await page.waitForSelector('#hr-board[data-layout]');
  await page.click('#solve');
  await page.waitForSelector('#hr-board[data-steps="1"]');
  await page.click('#solve'); // stop
  await page.waitForSelector('#solution-controls:not([hidden])');
  await page.waitForSelector('#hr-board[data-animating="false"]', { state: 'attached' });
  const steps = Number(await page.getAttribute('#hr-board', 'data-steps'));
  await page.click('#hint');
  await page.waitForSelector('#hr-board .ghost.hint');
  const target = await page.$eval('#hr-board .ghost.hint', (n) => { const r = n.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; });
  await page.touchscreen.tap(target.x, target.y);
  await page.waitForSelector(`#hr-board[data-steps="${steps + 1}"]`);
  assert.equal(await page.isVisible('#solution-controls'), false, 'no replay controls while playing by hand');
  await context.close();
});
