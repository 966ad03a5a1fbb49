// The opening explorer on /xq (#48): its own WebAssembly module is not part of the first load
// and comes when the explorer is opened (or a game with moves is on the board, to name the
// opening by the move list); its moves, counts and opening name equal the server's
// /api/xq/explore (the same crate, native); a click on a move plays it, a typical game opens;
// a collection's list names each game's opening and adds its games to the user's explorer,
// which keeps them across a reload. Then the static site (`qi site`), offline after one visit.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setup, ready, launchPersistent } from './harness.js';
import { open, showTab, waitMessage, waitPly, shot } from './xq-helpers.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const THREE = `[Event "全国个人赛"]
[Red "胡荣华"]
[Black "柳大华"]
[Result "1-0"]

1. 炮二平五 马8进7 2. 马二进三 车9平8 1-0

[Event "五羊杯"]
[Red "许银川"]
[Black "吕钦"]
[Result "1/2-1/2"]

1. 相三进五 卒7进1 1/2-1/2

[Event "Asian Cup"]
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

/** The server's explorer report for a line (the native crate). */
async function native(page, moves) {
  const res = await page.request.post(env.base + '/api/xq/explore', { data: { moves } });
  assert.equal(res.status(), 200);
  return res.json();
}

/** The explorer table as shown: [move (ICCS), games, typical game] per row. */
async function shown(page) {
  return page.evaluate(() => [...document.querySelectorAll('#explorer-moves tbody tr')].map((tr) => [tr.dataset.move, tr.cells[1].textContent, tr.cells[3].textContent]));
}

/** Waits until the explorer shows the position on the board (its rows are drawn for it). */
async function waitExplorer(page, report) {
  const want = report.moves.map((m) => m.move).join(' ');
  await page.waitForFunction((w) => [...document.querySelectorAll('#explorer-moves tbody tr')].map((tr) => tr.dataset.move).join(' ') === w, want, { timeout: 20000 });
}

const openingText = (ecco) => `Opening: ${ecco.code} ${ecco.name_en ?? ecco.name_zh}`;

test('the explorer loads on first use, equals the server\'s counts, plays moves and opens a typical game', async () => {
  const page = await open(env, '/xq');
  const explorerFiles = [];
  page.on('request', (r) => {
    if (/qi_explorer|explorer-panel/.test(r.url())) explorerFiles.push(r.url());
  });
  await page.waitForLoadState('networkidle');
  assert.deepEqual(explorerFiles, [], 'the explorer is not part of the first load');
  assert.equal(await page.isHidden('#opening'), true, 'no opening named before a move');

  await showTab(page, 'analysis');
  await page.click('#explorer-box > summary');
  const start = await native(page, []);
  await waitExplorer(page, start);
  assert.ok(explorerFiles.some((u) => u.includes('.wasm')), `the module came when opened: ${explorerFiles}`);
  assert.deepEqual(await shown(page), start.moves.map((m) => [m.move, String(m.games), m.typical.id]));
  assert.match(await page.locator('#explorer-summary').innerText(), new RegExp(`^${start.total} games reached this position`));
  await shot(page, 'explorer-start');

  // A click on the most played move plays it; the explorer and the opening name follow.
  await page.click(`#explorer-moves tr[data-move="${start.moves[0].move}"] .explore-move`);
  await waitPly(page, 1, 1);
  const after1 = await native(page, [start.moves[0].move]);
  await waitExplorer(page, after1);
  assert.deepEqual(await shown(page), after1.moves.map((m) => [m.move, String(m.games), m.typical.id]));
  await page.waitForSelector('#opening:not([hidden])');
  assert.equal(await page.locator('#opening').innerText(), openingText(after1.ecco));

  // The typical game of the second move opens at that move.
  const second = after1.moves[1];
  await page.click(`#explorer-moves tr[data-move="${second.move}"] .explore-typical`);
  const plies = second.typical.moves.split(' ').length;
  await waitPly(page, second.typical.ply + 1, plies);
  const atTypical = await native(page, second.typical.moves.split(' ').slice(0, second.typical.ply + 1));
  await page.waitForFunction((text) => document.getElementById('opening').textContent === text, openingText(atTypical.ecco));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a collection names each game\'s opening and adds its games to my explorer, kept across a reload', async () => {
  const page = await open(env, '/xq');
  await showTab(page, 'records');
  await page.setInputFiles('#pgn-file', { name: 'three.pgn', mimeType: 'application/x-chess-pgn', buffer: Buffer.from(THREE) });
  await waitMessage(page, /Game loaded/);
  await page.waitForSelector('#game-list-box[data-openings="true"]', { timeout: 20000 });
  assert.deepEqual((await page.locator('#game-list thead th').allInnerTexts()).at(-1), 'Opening');
  const lines = [['h2e2', 'h9g7', 'h0g2', 'i9h9'], ['g0e2', 'g6g5'], ['c3c4', 'h7e7', 'b0c2']];
  const want = [];
  for (const moves of lines) {
    const ecco = (await native(page, moves)).ecco;
    want.push(`${ecco.code} ${ecco.name_en ?? ecco.name_zh}`);
  }
  const column = await page.evaluate(() => [...document.querySelectorAll('#game-list tbody tr')].map((tr) => tr.cells[7].textContent));
  assert.deepEqual(column, want);

  await page.click('#game-list-explore');
  await waitMessage(page, /Added 3 games to your explorer \(3 in all\)/);
  await showTab(page, 'analysis');
  await page.click('#explorer-box > summary');
  await page.selectOption('#explorer-source', 'mine');
  await page.waitForFunction(() => /^My explorer: 3 of at most 5000 games/.test(document.getElementById('explorer-mine').textContent));

  // Kept in the browser: after a reload, the start position shows my three games' first moves.
  await page.goto(env.base + '/xq');
  await ready(page);
  await showTab(page, 'analysis');
  if (!(await page.evaluate(() => document.getElementById('explorer-box').open))) await page.click('#explorer-box > summary');
  await page.waitForFunction(() => document.querySelectorAll('#explorer-moves tbody tr').length === 3, null, { timeout: 20000 });
  assert.deepEqual((await shown(page)).map((r) => r.slice(0, 2)).sort(), [['c3c4', '1'], ['g0e2', '1'], ['h2e2', '1']]);
  assert.match(await page.locator('#explorer-summary').innerText(), /Red won 33%, drew 33%, Black won 33%/);
  await page.click('#explorer-clear');
  await page.waitForFunction(() => document.querySelectorAll('#explorer-moves tbody tr').length === 0);
  await page.selectOption('#explorer-source', 'all');
  assert.deepEqual(page.errors, []);
  await page.close();
});

/** `python3 -m http.server` on a folder: its address and process. */
async function staticServer(dir) {
  const child = spawn('python3', ['-u', '-m', 'http.server', '--bind', '127.0.0.1', '--directory', dir, '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no address from http.server: ${out}`)), 15000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = out.match(/port (\d+)/);
      if (match) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${match[1]}`);
      }
    });
    child.stderr.on('data', () => {});
    child.on('exit', (code) => reject(new Error(`http.server exited with ${code}: ${out}`)));
  });
  return { url, child };
}

test('the static site: the explorer and the opening name work offline after one visit', async () => {
  const binary = process.env.QI_BIN || join(ROOT, 'target', 'release', 'qi');
  const site = mkdtempSync(join(tmpdir(), 'qi-site-explorer-'));
  const profile = mkdtempSync(join(tmpdir(), 'qi-e2e-explorer-'));
  execFileSync(binary, ['site', '--out', site]);
  const server = await staticServer(site);
  const context = await launchPersistent(profile, { viewport: { width: 1280, height: 900 } });
  try {
    await context.addInitScript(() => localStorage.setItem('qi-lang', 'en'));
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(server.url + '/xq');
    await ready(page);
    await page.evaluate(() => navigator.serviceWorker.ready);
    // The worker keeps every file of the site, the explorer's module among them.
    await page.waitForFunction(async () => {
      const keys = await caches.keys();
      if (!keys.length) return false;
      const cache = await caches.open(keys[0]);
      return (await cache.keys()).some((r) => r.url.includes('qi_explorer_bg'));
    }, null, { timeout: 20000 });
    const line = ['h2e2', 'h9g7'];
    const report = JSON.parse(execFileSync(binary, ['explore', '--json', ...line], { encoding: 'utf8' }));
    await context.setOffline(true);
    try {
      await page.goto(server.url + '/xq?moves=' + line.join('.'));
      await ready(page);
      await page.waitForSelector('#opening:not([hidden])', { timeout: 20000 });
      assert.equal(await page.locator('#opening').innerText(), openingText(report.ecco));
      await page.click('#explorer-box > summary');
      await waitExplorer(page, report);
      assert.deepEqual(await shown(page), report.moves.map((m) => [m.move, String(m.games), m.typical.id]));
    } finally {
      await context.setOffline(false);
    }
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    server.child.kill();
    for (const dir of [site, profile]) rmSync(dir, { recursive: true, force: true });
  }
});
