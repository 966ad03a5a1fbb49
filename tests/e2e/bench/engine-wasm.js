// The engine as WebAssembly in headless Chromium (a Web Worker, as the page runs it) and under
// Node (packages/qi, the same net loaded) against the native `qi engine go`, same positions,
// same time, same hash size, alternating. Prints one JSON object with nodes per second of each
// and their ratios to native (medians).
// Run: node tests/e2e/bench/engine-wasm.js [--movetime MS] [--rounds N]  (after building qi)

import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { launchPersistent } from '../harness.js';
import { load as loadPackage, Engine as NodeEngine, loadNet as nodeLoadNet } from '../../../packages/qi/index.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const QI = process.env.QI_BIN || join(ROOT, 'target', 'release', 'qi');
const arg = (name, fallback) => Number(process.argv[process.argv.indexOf(name) + 1]) || fallback;
const movetime = arg('--movetime', 2000);
const rounds = arg('--rounds', 3);
const POSITIONS = [
  'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1',
  'r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1',
  'rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 5 3',
];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const site = mkdtempSync(join(tmpdir(), 'qi-bench-site-'));
execFileSync(QI, ['site', '--out', site]);
const server = spawn('python3', ['-u', '-m', 'http.server', '--bind', '127.0.0.1', '--directory', site, '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
const base = await new Promise((resolve) => {
  let out = '';
  server.stdout.on('data', (c) => {
    out += c;
    const m = out.match(/port (\d+)/);
    if (m) resolve(`http://127.0.0.1:${m[1]}`);
  });
});
const profile = mkdtempSync(join(tmpdir(), 'qi-bench-'));
const context = await launchPersistent(profile);
const page = await context.newPage();
await page.goto(base + '/xq');
await page.waitForSelector('#board[data-ready="true"]');

async function inWorker(fen) {
  return page.evaluate(async ([fen, ms]) => {
    const { search } = await import('/assets/engine.js');
    // The page's analysis in its engine worker: MultiPV 1 for `ms`; its final count (the done event).
    let last = null;
    await search('/xq/analyse', { fen, moves: [], movetime_ms: ms }, (name, data) => { if (name === 'done') last = data; }, null);
    return last;
  }, [fen, movetime]);
}

await loadPackage();
nodeLoadNet(readFileSync(join(ROOT, 'crates', 'engine', 'nets', 'default.nnue')));

/** The package's engine under Node, on this thread: nodes per second of one search. */
function underNode(fen) {
  const engine = new NodeEngine(16);
  const out = JSON.parse(engine.go(JSON.stringify({ fen, movetime_ms: movetime }), null));
  engine.free();
  return out.nodes / (out.time_ms / 1000);
}

function native(fen) {
  const out = JSON.parse(execFileSync(QI, ['engine', 'go', '--fen', fen, '--movetime', String(movetime), '--hash', '16', '--json'], { encoding: 'utf8' }));
  return out.nodes / out.seconds;
}

const rows = [];
for (const fen of POSITIONS) {
  const wasm = [];
  const node = [];
  const nat = [];
  for (let r = 0; r < rounds; r++) {
    const info = await inWorker(fen);
    wasm.push(info.nodes / (info.time_ms / 1000));
    nat.push(native(fen));
    node.push(underNode(fen));
  }
  rows.push({
    fen,
    wasm_nps: Math.round(median(wasm)),
    node_nps: Math.round(median(node)),
    native_nps: Math.round(median(nat)),
    ratio: Number((median(wasm) / median(nat)).toFixed(3)),
    node_ratio: Number((median(node) / median(nat)).toFixed(3)),
  });
}
console.log(JSON.stringify({
  movetime_ms: movetime,
  rounds,
  positions: rows,
  median_ratio: median(rows.map((r) => r.ratio)),
  median_node_ratio: median(rows.map((r) => r.node_ratio)),
}));
await context.close();
server.kill();
rmSync(site, { recursive: true, force: true });
rmSync(profile, { recursive: true, force: true });
