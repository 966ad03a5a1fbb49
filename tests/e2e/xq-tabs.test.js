// The board page's tools in tabs on a phone (issue 45: board-first). At 390x844 and 360x640,
// with touch, a tab bar right below the board shows one group of tools at a time (Moves first),
// keeps the choice over a reload, takes the ARIA tabs keys; switching tabs never moves the
// board, and after importing a record the whole board is in view, in its place. At 1366x768 the bar is hidden and every group shows
// beside the board. No screen scrolls sideways.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, launchBrowser } from './harness.js';

const PHONES = [
  { name: 'phone-390x844', width: 390, height: 844 },
  { name: 'phone-360x640', width: 360, height: 640 },
];
const TABS = ['moves', 'analysis', 'records', 'setup', 'settings'];
const PGN = '[Red "Hu Ronghua"]\n[Black "Liu Dahua"]\n\n1. C2.5 H8+7 2. H2+3 R9.8 *';

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

/** A fresh context (its own localStorage) at `screen`, in English, and its page on /xq. */
async function openXq(screen, phone) {
  const context = await browser.newContext({
    viewport: { width: screen.width, height: screen.height }, hasTouch: phone, isMobile: phone,
  });
  await context.addInitScript(() => localStorage.setItem('qi-lang', 'en'));
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.errors = errors;
  await page.goto(env.base + '/xq?moves=h2e2.h9g7');
  await page.waitForSelector('#board[data-ready="true"][data-plies="2"]');
  return { context, page };
}

/** What the test looks at: the board's box, the page's scroll, each tab and panel. */
function layout(page) {
  return page.evaluate((names) => {
    const box = (node) => {
      const r = node.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height };
    };
    const shown = (node) => node.getClientRects().length > 0;
    return {
      board: box(document.getElementById('board')),
      boardWrap: box(document.querySelector('.board-wrap')),
      bar: { shown: shown(document.getElementById('tool-tabs')), box: box(document.getElementById('tool-tabs')) },
      tabs: names.map((name) => {
        const tab = document.getElementById(`tab-${name}`);
        const panel = document.getElementById(`tools-${name}`);
        const words = document.createRange();
        words.selectNodeContents(tab);
        return {
          name, selected: tab.getAttribute('aria-selected'), tabIndex: tab.tabIndex, box: box(tab), lines: words.getClientRects().length,
          panelShown: shown(panel), role: panel.getAttribute('role'), labelledBy: panel.getAttribute('aria-labelledby'),
        };
      }),
      scrollX: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      w: innerWidth,
      h: innerHeight,
    };
  }, TABS);
}

/** Asserts that `name`'s panel alone shows, its tab alone selected, as the ARIA tabs pattern has it. */
function assertSelected(state, name, label) {
  for (const tab of state.tabs) {
    const on = tab.name === name;
    assert.equal(tab.selected, String(on), `${label}: aria-selected of ${tab.name}`);
    assert.equal(tab.tabIndex, on ? 0 : -1, `${label}: only the selected tab is in the Tab order (${tab.name})`);
    assert.equal(tab.panelShown, on, `${label}: panel ${tab.name} ${on ? 'shown' : 'hidden'}`);
    assert.equal(tab.role, 'tabpanel', `${label}: ${tab.name} is a tab panel`);
    assert.equal(tab.labelledBy, `tab-${tab.name}`, `${label}: ${tab.name}'s panel is named by its tab`);
  }
}

function assertNoSideways(state, label) {
  assert.ok(state.scrollX <= 0, `${label}: no sideways scroll (${state.scrollX} px too wide)`);
}

for (const screen of PHONES) {
  test(`${screen.name}: the tools are tabs below the board, one panel at a time, Moves first`, async () => {
    const { context, page } = await openXq(screen, true);
    const first = await layout(page);
    assert.ok(first.bar.shown, 'the tab bar shows on a phone');
    assertSelected(first, 'moves', 'first visit');
    assertNoSideways(first, 'first visit');
    // Right below the board and its replay and move-entry controls, in view, one row that fits.
    assert.ok(first.bar.box.top >= first.boardWrap.bottom && first.bar.box.top - first.boardWrap.bottom < 20,
      `the bar follows the board (${JSON.stringify(first.bar.box)} after ${JSON.stringify(first.boardWrap)})`);
    assert.ok(first.bar.box.bottom <= first.h, `the bar is in view without scrolling (${first.bar.box.bottom} in ${first.h})`);
    for (const tab of first.tabs) {
      assert.ok(tab.box.height >= 44, `${tab.name}: a 44-px touch target (${tab.box.height})`);
      assert.ok(tab.box.left >= 0 && tab.box.right <= first.w, `${tab.name}: within the screen`);
      assert.equal(Math.round(tab.box.top), Math.round(first.tabs[0].box.top), `${tab.name}: one row of tabs`);
      assert.equal(tab.lines, 1, `${tab.name}: its name on one line`);
    }
    assert.deepEqual(await page.$$eval('#tool-tabs [role="tab"]', (t) => t.map((n) => n.textContent.trim())),
      ['Moves', 'Analysis', 'Records', 'Set-up', 'Settings']);

    // Tapping each tab shows its panel alone; the board stays where it is.
    for (const name of [...TABS.slice(1), 'moves']) {
      await page.tap(`#tab-${name}`);
      const state = await layout(page);
      assertSelected(state, name, `after tapping ${name}`);
      assert.ok(state.tabs.every((t) => t.lines === 1), `${name} selected: every tab's name on one line`);
      assert.equal(state.board.top, first.board.top, `${name}: the board keeps its place`);
      assertNoSideways(state, name);
    }
    // The settings open with their tab (no second tap on "Look and sound").
    await page.tap('#tab-settings');
    assert.ok(await page.isVisible('#theme'), 'the settings show at once');
    // The tools of a panel work from it: the analysis switch.
    await page.tap('#tab-analysis');
    await page.tap('#analyse');
    await page.waitForSelector('#lines li');
    await page.tap('#analyse');

    // Keys: arrows move along the tabs (wrapping) and show the tab reached; Home and End. The
    // game's own arrow keys do not fire from a tab (the move on view stays).
    await page.focus('#tab-analysis');
    const ply = await page.getAttribute('#board', 'data-ply');
    for (const [key, name] of [['ArrowRight', 'records'], ['ArrowLeft', 'analysis'], ['ArrowLeft', 'moves'], ['ArrowLeft', 'settings'], ['ArrowRight', 'moves'], ['End', 'settings'], ['Home', 'moves']]) {
      await page.keyboard.press(key);
      assert.equal(await page.evaluate(() => document.activeElement.id), `tab-${name}`, `${key} focuses ${name}`);
      assertSelected(await layout(page), name, `after ${key}`);
    }
    assert.equal(await page.getAttribute('#board', 'data-ply'), ply, 'the game stayed at its move');

    // Scrolled down to the tools (the tab bar at the top of the screen), a shorter tab does not
    // pull the page back: the board stays where it was.
    await page.evaluate(() => document.getElementById('tool-tabs').scrollIntoView({ block: 'start' }));
    const scrolled = await layout(page);
    assert.ok(scrolled.board.top < first.board.top, 'scrolled down');
    for (const name of ['records', 'setup', 'settings', 'analysis', 'moves']) {
      await page.tap(`#tab-${name}`);
      assert.equal((await layout(page)).board.top, scrolled.board.top, `scrolled, ${name}: the board keeps its place`);
    }
    await page.evaluate(() => window.scrollTo(0, 0));

    // The choice is remembered over a reload.
    await page.tap('#tab-records');
    await page.reload();
    await page.waitForSelector('#board[data-ready="true"]');
    assertSelected(await layout(page), 'records', 'after a reload');

    // Importing a record from the Records tab: filling the box scrolls the page as far as it
    // needs (a phone's keyboard does the same), the import itself moves nothing while the board
    // is in view, and a board scrolled away comes back to its place with the game on it.
    await page.fill('#pgn', PGN);
    await page.locator('#pgn-import').scrollIntoViewIfNeeded();
    const beforeImport = await layout(page);
    await page.tap('#pgn-import');
    await page.waitForSelector('#board[data-ready="true"][data-plies="4"]');
    await page.waitForFunction(() => /loaded/i.test(document.getElementById('message').textContent));
    const afterImport = await layout(page);
    const wasInView = beforeImport.board.top >= 0;
    assert.equal(afterImport.board.top, wasInView ? beforeImport.board.top : first.board.top,
      `the board ${wasInView ? 'stays where it was' : 'is back in its place'} (${beforeImport.board.top} before the import)`);
    assert.ok(afterImport.board.top >= 0 && afterImport.board.bottom <= afterImport.h + 0.5, `the whole board in view (${JSON.stringify(afterImport.board)})`);
    assertSelected(afterImport, 'records', 'after the import');
    assertNoSideways(afterImport, 'after the import');
    // Back to the moves: the imported game is there, the board still in its place.
    await page.tap('#tab-moves');
    const moves = await layout(page);
    assert.equal(moves.board.top, afterImport.board.top, 'switching back does not move the board');
    assert.equal(await page.locator('#moves .move').count(), 5, 'the start and 4 moves');
    assert.ok(await page.isVisible('#moves'), 'the move list shows');
    assert.deepEqual(page.errors, []);
    await context.close();
  });
}

test('laptop-1366x768: no tabs, every group of tools beside the board; a phone-sized window gets them', async () => {
  const { context, page } = await openXq({ width: 1366, height: 768 }, false);
  const state = await layout(page);
  assert.equal(state.bar.shown, false, 'no tab bar on a wide screen');
  for (const tab of state.tabs) {
    assert.ok(tab.panelShown, `${tab.name}: shown`);
    assert.equal(tab.role, null, `${tab.name}: a plain group, not a tab panel, while the tabs are hidden`);
  }
  const panel = await page.locator('aside.panel').boundingBox();
  assert.ok(panel.x >= state.board.right, 'the tools are beside the board');
  assertNoSideways(state, 'laptop');
  // Importing from far down the tools keeps the board in place (it stays in view beside them).
  await page.fill('#pgn', PGN);
  await page.locator('#pgn-import').scrollIntoViewIfNeeded();
  await page.click('#pgn-import');
  await page.waitForSelector('#board[data-ready="true"][data-plies="4"]');
  const after = await layout(page);
  assert.ok(after.board.top >= 0 && after.board.bottom <= after.h + 0.5, `the board in view (${JSON.stringify(after.board)})`);

  // The same page narrowed to a phone's width: the tabs come, Moves on show; and go again.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => window.scrollTo(0, 0));
  const narrow = await layout(page);
  assert.ok(narrow.bar.shown, 'tabs on a narrow window');
  assertSelected(narrow, 'moves', 'narrowed');
  assertNoSideways(narrow, 'narrowed');
  await page.setViewportSize({ width: 1366, height: 768 });
  const wide = await layout(page);
  assert.ok(!wide.bar.shown && wide.tabs.every((t) => t.panelShown && t.role === null), 'widened: every group again');
  assert.deepEqual(page.errors, []);
  await context.close();
});
