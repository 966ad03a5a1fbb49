// Perft through a package's move API under Node (legal moves, play, undo; the last ply counted
// from the list's length; Qi's both with `legalMoves()` and with the allocation-free
// `legalMovesInto(buffer)`), for Qi and, when installed, npm `ffish` (Fairy-Stockfish's rules as
// WebAssembly, what pychess uses), on the same positions; and Qi's perft inside the module.
// Leaves per second of CPU time; prints one JSON object. Run: node bench/perft.js [--rounds N]
// (ffish: `npm install --no-save ffish` in this folder first.)
import { load, Board } from '../index.js';

const POSITIONS = [
  ['start', 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1', 4],
  ['cpw2', 'r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1', 3],
];
const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 5;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Seconds of this process's CPU time (user + system), not wall time: on a busy machine the
// wall clock also counts the time other processes had the core.
function timed(fn) {
  const before = process.cpuUsage();
  const n = fn();
  const used = process.cpuUsage(before);
  return { n, s: (used.user + used.system) / 1e6 };
}

function qiPerft(fen, depth) {
  const board = new Board(fen);
  const walk = (d) => {
    const moves = board.legalMoves();
    if (d === 1) return moves.length;
    let n = 0;
    for (const m of moves) {
      board.play(m);
      n += walk(d - 1);
      board.undo();
    }
    return n;
  };
  return walk(depth);
}

// The same walk with no array made per node: each depth reuses its own buffer
// (legalMovesInto writes the moves there and returns how many).
function qiPerftInto(fen, depth) {
  const board = new Board(fen);
  const buffers = Array.from({ length: depth + 1 }, () => new Uint16Array(128));
  const walk = (d) => {
    const moves = buffers[d];
    const count = board.legalMovesInto(moves);
    if (d === 1) return count;
    let n = 0;
    for (let i = 0; i < count; i++) {
      board.play(moves[i]);
      n += walk(d - 1);
      board.undo();
    }
    return n;
  };
  return walk(depth);
}

function ffishPerft(ffish, fen, depth) {
  const board = new ffish.Board('xiangqi', fen);
  const walk = (d) => {
    const text = board.legalMoves();
    const moves = text ? text.split(' ') : [];
    if (d === 1) return moves.length;
    let n = 0;
    for (const m of moves) {
      board.push(m);
      n += walk(d - 1);
      board.pop();
    }
    return n;
  };
  const n = walk(depth);
  board.delete();
  return n;
}

await load();
let ffish = null;
// Its Emscripten glue fetches its .wasm as soon as it is imported when fetch exists, which
// under Node cannot read a file path: hide fetch while it loads, so it reads the file instead.
const fetch = globalThis.fetch;
globalThis.fetch = undefined;
try {
  // ffish 0.7 is an Emscripten module object, ready once its runtime is initialised.
  const { createRequire } = await import('node:module');
  const mod = createRequire(import.meta.url)('ffish/ffish.js');
  ffish = await new Promise((resolve) => {
    if (mod.calledRun) resolve(mod);
    else mod.onRuntimeInitialized = () => resolve(mod);
  });
} catch {
  // not installed: Qi's figures only
} finally {
  globalThis.fetch = fetch;
}
const results = {};
for (const [name, fen, depth] of POSITIONS) {
  const row = { depth };
  // Interleaved rounds, medians: the machine is noisy.
  const runs = { qi_api: [], qi_into: [], qi_inside: [], ffish: [] };
  for (let r = 0; r < rounds; r++) {
    const a = timed(() => qiPerft(fen, depth));
    runs.qi_api.push(a.n / a.s);
    row.leaves = a.n;
    const i = timed(() => qiPerftInto(fen, depth));
    if (i.n !== a.n) throw new Error(`${name}: legalMovesInto counts ${i.n}, legalMoves ${a.n}`);
    runs.qi_into.push(i.n / i.s);
    const b = timed(() => new Board(fen).perft(depth + 1));
    runs.qi_inside.push(b.n / b.s);
    row.leaves_inside = b.n;
    if (ffish) {
      const c = timed(() => ffishPerft(ffish, fen, depth));
      if (c.n !== a.n) throw new Error(`${name}: ffish counts ${c.n}, qi ${a.n}`);
      runs.ffish.push(c.n / c.s);
    }
  }
  row.qi_api_leaves_per_s = Math.round(median(runs.qi_api));
  row.qi_into_leaves_per_s = Math.round(median(runs.qi_into));
  row.qi_inside_leaves_per_s = Math.round(median(runs.qi_inside));
  if (ffish) {
    row.ffish_leaves_per_s = Math.round(median(runs.ffish));
    row.qi_over_ffish = Number((row.qi_api_leaves_per_s / row.ffish_leaves_per_s).toFixed(2));
    row.qi_into_over_ffish = Number((row.qi_into_leaves_per_s / row.ffish_leaves_per_s).toFixed(2));
  }
  results[name] = row;
}
console.log(JSON.stringify({ node: process.version, rounds, positions: results }));
