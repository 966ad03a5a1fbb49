// One evaluation everywhere: the browser's engine (packages/qi's WebAssembly, in Node and in
// Chromium) loads the engine's net and scores positions exactly as the native build does
// (`qi engine eval`), searches alike (same best move, node count and score at a fixed depth as
// `qi engine go`), and the page fetches the net only when the engine is first used.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setup, ready } from './harness.js';
import { load, Board, Engine, loadNet, unloadNet, evaluate, iccsToMove } from '../../packages/qi/index.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const QI = process.env.QI_BIN || join(ROOT, 'target', 'release', 'qi');
const NET = readFileSync(join(ROOT, 'crates', 'engine', 'nets', 'default.nnue'));

/** Every 20th position of the first 120 games of the test data: openings to endgames. */
function positions() {
  const lines = readFileSync(join(ROOT, 'crates', 'xiangqi', 'tests', 'data', 'games.tsv'), 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .slice(0, 120);
  const fens = [];
  for (const line of lines) {
    const [, start, moves] = line.split('\t');
    const board = new Board(start);
    moves.split(' ').forEach((m, i) => {
      board.play(iccsToMove(m));
      if (i % 20 === 7) fens.push(board.fen());
    });
    board.free();
  }
  return fens;
}

let env;
let fens;
before(async () => {
  await load();
  fens = positions();
  env = await setup();
});
after(async () => {
  unloadNet();
  await env?.close();
});

/** The native scores of `fens`: `qi engine eval --json` with the built-in net. */
function nativeScores(list) {
  const out = execFileSync(QI, ['engine', 'eval', '--json', '-'], { input: list.join('\n'), encoding: 'utf8', maxBuffer: 1 << 26 });
  return JSON.parse(out).map((r) => r.score);
}

test('the WebAssembly scores every position as the native build does', () => {
  assert.ok(fens.length > 500, `${fens.length} positions`);
  loadNet(new Uint8Array(NET));
  const wasm = fens.map((fen) => evaluate(fen));
  const native = nativeScores(fens);
  const differ = fens.filter((_, i) => wasm[i] !== native[i]).map((fen, i) => `${fen}: ${wasm[i]} vs ${native[i]}`);
  assert.deepEqual(differ, []);
  // The net is not the hand-written evaluation under another name.
  const classical = JSON.parse(execFileSync(QI, ['engine', 'eval', '--json', ...fens.slice(0, 50)], { encoding: 'utf8' })).map((r) => r.classical);
  assert.ok(classical.some((c, i) => c !== native[i]));
});

test('a fixed-depth search in the WebAssembly equals the native one', () => {
  loadNet(new Uint8Array(NET));
  for (const fen of [fens[3], fens[40], fens[200]]) {
    const engine = new Engine(16);
    const wasm = JSON.parse(engine.go(JSON.stringify({ fen, depth: 7 }), () => true));
    engine.free();
    const native = JSON.parse(execFileSync(QI, ['engine', 'go', '--fen', fen, '--depth', '7', '--hash', '16', '--json'], { encoding: 'utf8' }));
    assert.equal(wasm.bestmove, native.bestmove, fen);
    assert.equal(wasm.nodes, native.nodes, fen);
    assert.equal(wasm.lines[0].score.cp, native.score, fen);
  }
});

test('the page fetches the net on the first analysis, not on its first load, and scores alike', async () => {
  const page = await env.context.newPage();
  const nets = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.endsWith('.nnue')) nets.push(r.url());
  });
  await page.goto(env.base + '/xq?moves=h2e2.h9g7');
  await ready(page);
  await page.waitForLoadState('networkidle');
  assert.deepEqual(nets, [], 'no net in the first load');
  await page.check('#analyse');
  await page.waitForSelector('#lines li');
  assert.equal(nets.length, 1, nets.join(' '));
  assert.match(nets[0], /\/assets\/nets\/default\.[0-9a-f]{10}\.nnue$/);
  const served = Buffer.from(await (await fetch(nets[0])).arrayBuffer());
  assert.ok(served.equals(NET), 'the page gets the built-in net');
  // Chromium's WebAssembly: the same scores as the native build.
  const sample = fens.filter((_, i) => i % 12 === 0);
  const browser = await page.evaluate(async ({ url, fens }) => {
    // The page's import map names the hashed file.
    const qi = await import('/assets/qi/index.js');
    await qi.load();
    qi.loadNet(new Uint8Array(await (await fetch(url)).arrayBuffer()));
    return fens.map((fen) => qi.evaluate(fen));
  }, { url: nets[0], fens: sample });
  assert.deepEqual(browser, nativeScores(sample));
  await page.close();
});
