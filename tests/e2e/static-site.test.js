// The site with no server: `qi site --out DIR` served by `python3 -m http.server` (no qi
// process anywhere). Share links open and replay, moves, the computer, analysis, the editor,
// PGN and Huarong Dao all work, no request goes to /api/, and after one visit the site works
// offline. Measures what a first and a second visit transfer.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { boardState, clickMove, ready, launchPersistent } from './harness.js';
import { load, links } from '../../packages/qi/index.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SEED_LINK = '/xq?p=gSQCL5P5oIDhCFJCIBJ4eQCAkX8&r=86pU6-4nbSh38OCojLarcupWOb1rXw&s=1';

let site;
let server;
let base;
let browser;
let context;
let profile;
const apiRequests = [];

async function startStaticServer(dir) {
  const child = spawn('python3', ['-u', '-m', 'http.server', '--bind', '127.0.0.1', '--directory', dir, '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
    child.stderr.on('data', () => {}); // the request log
    child.on('exit', (code) => reject(new Error(`http.server exited with ${code}: ${out}`)));
  });
  return { url, child };
}

before(async () => {
  site = mkdtempSync(join(tmpdir(), 'qi-site-'));
  const binary = process.env.QI_BIN || join(ROOT, 'target', 'release', 'qi');
  const written = JSON.parse(execFileSync(binary, ['site', '--out', site, '--json'], { encoding: 'utf8' }));
  assert.ok(written.files > 10, JSON.stringify(written));
  server = await startStaticServer(site);
  base = server.url;
  profile = mkdtempSync(join(tmpdir(), 'qi-e2e-static-'));
  context = await launchPersistent(profile, { viewport: { width: 1280, height: 900 } });
  await context.addInitScript(() => localStorage.setItem('qi-lang', 'en'));
  context.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/')) apiRequests.push(r.url());
  });
  await load();
});

after(async () => {
  await context?.close();
  server?.child.kill();
  for (const dir of [site, profile]) if (dir) rmSync(dir, { recursive: true, force: true });
});

async function open(path) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.errors = errors;
  await page.goto(base + path);
  return page;
}

test('a seed link and a 100-ply compact link open and replay with no server', async () => {
  const page = await open(SEED_LINK);
  await ready(page);
  const seed = await boardState(page);
  assert.ok(seed.plies > 0, 'the seed link holds moves');
  assert.equal(seed.ply, seed.plies, 'opened at its last move');

  const tsv = readFileSync(join(ROOT, 'crates/xiangqi/tests/data/games.tsv'), 'utf8');
  const row = tsv.split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split('\t'))
    .find((cols) => cols[2].split(' ').length >= 100);
  const moves = row[2].split(' ').slice(0, 100);
  const compact = links.encode({ fen: row[1], moves }).compact;
  const t0 = Date.now();
  await page.goto(`${base}/xq?${compact}`);
  await page.waitForSelector('#board[data-ready="true"][data-plies="100"]');
  const shown = Date.now() - t0;
  const state = await boardState(page);
  assert.equal(state.plies, 100);
  assert.equal(state.ply, 100, 'opened at its last move');
  // Replay: back to the start and forward again.
  await page.keyboard.press('Home');
  await page.waitForSelector('#board[data-ready="true"][data-ply="0"]');
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('#board[data-ready="true"][data-ply="1"]');
  // Click to legal-move highlight: a piece chosen, its targets drawn.
  const t1 = Date.now();
  await page.click('#board .piece.black >> nth=0');
  const highlight = Date.now() - t1;
  console.log(`# 100-ply compact link shown in ${shown} ms (page load included); click to highlight ${highlight} ms`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('moves, the computer, analysis, the editor and PGN work with no server', async () => {
  const page = await open('/xq');
  await ready(page);
  assert.equal(await page.locator('#play-friend').isVisible(), false, 'rooms need a server: hidden');
  await clickMove(page, 'h2e2');
  await page.click('#engine');
  await page.waitForSelector('#board[data-ready="true"][data-plies="2"]', { timeout: 20000 });
  assert.match((await boardState(page)).fen, / w /, 'the computer played Black');

  await page.check('#analyse');
  await page.waitForSelector('#lines li .score', { timeout: 20000 });
  assert.equal(await page.locator('#eval-bar').isVisible(), true);
  await page.uncheck('#analyse');

  await page.click('#edit');
  await page.click('#editor-clear');
  await page.waitForFunction(() => /Red has no king/.test(document.getElementById('editor-status').textContent));
  await page.click('#editor-start');
  await page.waitForFunction(() => /legal position/i.test(document.getElementById('editor-status').textContent));
  await page.click('#editor-cancel');

  await page.fill('#pgn', '[Event "Static"]\n\n1. 炮二平五 {central} 马8进7 (1... 炮8平5) 2. 马二进三 *\n');
  await page.click('#pgn-import');
  await page.waitForSelector('#board[data-ready="true"][data-plies="3"]');
  assert.equal(await page.locator('#moves .variation').count(), 1);
  await page.click('#pgn-export');
  await page.waitForFunction(() => document.getElementById('pgn').value.includes('[Event "Static"]'));
  assert.match(await page.inputValue('#pgn'), /\{central\}/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a Huarong Dao layout is solved with no server', async () => {
  const page = await open('/huarong');
  const start = 'VSSV/VCCV/.CC./VHHV/V..V';
  await page.fill('#layout-text', start);
  await page.click('#layout-load');
  await page.waitForFunction((t) => document.getElementById('hr-board').dataset.layout === t, start);
  await page.click('#solve');
  await page.waitForFunction(
    () => document.getElementById('hr-board').dataset.solved === 'true' && document.getElementById('hr-board').dataset.animating === 'false',
    null,
    { timeout: 60000 },
  );
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the static site is installable: Chromium reports no installability error (#45)', async () => {
  for (const path of ['/', '/xq/', '/huarong/']) {
    const page = await context.newPage();
    await page.goto(base + path);
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    assert.deepEqual(installabilityErrors, [], `${path}: ${JSON.stringify(installabilityErrors)}`);
    const { errors, data } = await cdp.send('Page.getAppManifest');
    assert.deepEqual(errors, [], path);
    assert.equal(JSON.parse(data).icons.length, 3, path);
    await page.close();
  }
});

test('no request went to /api/', () => {
  assert.deepEqual(apiRequests, []);
});

test('after one visit the site works offline: reload, play the computer, analyse', async () => {
  const page = await open('/xq');
  await ready(page);
  await page.evaluate(() => navigator.serviceWorker.ready);
  // The worker installs its cache in the background: wait until the page is in it.
  await page.waitForFunction(async () => (await caches.keys()).length > 0 && !!(await caches.match('/xq')), null, { timeout: 20000 });
  await context.setOffline(true);
  try {
    await page.reload();
    await ready(page);
    await clickMove(page, 'h2e2');
    await page.click('#engine');
    await page.waitForSelector('#board[data-ready="true"][data-plies="2"]', { timeout: 20000 });
    await page.check('#analyse');
    await page.waitForSelector('#lines li .score', { timeout: 20000 });
    const huarong = await context.newPage();
    await huarong.goto(base + '/huarong');
    await huarong.waitForSelector('#hr-board');
    await huarong.close();
  } finally {
    await context.setOffline(false);
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});
