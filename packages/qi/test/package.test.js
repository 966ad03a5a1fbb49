// The package under Node: every part of its API on real input, against figures the Rust test
// suites also check (perft values, the 81 steps of 横刀立马, link round trips).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load, Board, Engine, QiError, call, describeGame, links, pgn, huarong, moveToIccs, iccsToMove, loadNet, unloadNet, netChecksum, evaluate } from '../index.js';
import { readFileSync } from 'node:fs';

await load();

const CPW2 = 'r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1';

test('a board plays, undoes, judges and counts', () => {
  const board = new Board();
  assert.equal(board.legalMoves().length, 44);
  const m = board.parseMove('炮二平五');
  assert.equal(moveToIccs(m), 'h2e2');
  assert.equal(iccsToMove('h2e2'), m);
  assert.equal(board.notate(m, 'wxf'), 'C2.5');
  assert.equal(board.notate(m, 'vi'), 'P2-5');
  assert.equal(board.parseMove('Ｐ２－５'), m);
  board.play(m);
  assert.equal(board.notate(board.parseMove('M8.7'), 'traditional'), '馬８進７');
  assert.equal(board.turn(), 'black');
  assert.match(board.whyIllegal(iccsToMove('a9a5')), /blocked|path/);
  assert.throws(() => board.play(iccsToMove('a9a5')), /illegal/);
  assert.ok(board.undo());
  assert.equal(board.perft(3), 79666);
  assert.equal(new Board(CPW2).perft(2), 1128);
  const mated = new Board('3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1');
  assert.deepEqual(JSON.parse(mated.status()), { over: true, winner: 'red', reason: 'checkmate' });
  assert.throws(() => new Board('not a fen'), /bad FEN/);
  // Black (a rook down) to move: Red may premove its own moves and the rook's recapture on a3.
  const premoves = Array.from(new Board('1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1').premoveMoves(), moveToIccs);
  for (const m of ['h2e2', 'h0g2', 'a0a3']) assert.ok(premoves.includes(m), m);
  assert.ok(!premoves.includes('i9i8'));
});

test('perft through the move API equals the library perft', () => {
  const board = new Board(CPW2);
  const walk = (depth) => {
    const moves = board.legalMoves();
    if (depth === 1) return moves.length;
    let n = 0;
    for (const m of moves) {
      board.play(m);
      n += walk(depth - 1);
      board.undo();
    }
    return n;
  };
  assert.equal(walk(3), 43929);
  assert.equal(board.perft(3), 43929);
});

test('legalMovesInto fills a reused buffer with the same moves, and never past its end', () => {
  const board = new Board(CPW2);
  const buffers = [0, 1, 2, 3].map(() => new Uint16Array(128));
  const walk = (depth) => {
    const moves = buffers[depth];
    const count = board.legalMovesInto(moves);
    assert.deepEqual([...moves.subarray(0, count)], [...board.legalMoves()]);
    if (depth === 1) return count;
    let n = 0;
    for (let i = 0; i < count; i++) {
      board.play(moves[i]);
      n += walk(depth - 1);
      board.undo();
    }
    return n;
  };
  assert.equal(walk(3), 43929);
  const start = new Board();
  const small = new Uint16Array(5).fill(7);
  assert.equal(start.legalMovesInto(small), 44, 'the count is the whole list');
  assert.deepEqual([...small], [...start.legalMoves().subarray(0, 5)]);
  assert.equal(start.legalMovesInto(new Uint16Array(0)), 44);
});

test('games, links and errors', () => {
  const view = describeGame({ moves: ['h2e2', 'h9g7'] });
  assert.equal(view.turn, 'red');
  assert.equal(view.moves[1].chinese, '马8进7');
  const encoded = links.encode({ moves: ['h2e2', 'h9g7'] });
  assert.deepEqual(links.decode(encoded.compact).moves, ['h2e2', 'h9g7']);
  assert.deepEqual(links.decode(encoded.seed).moves, ['h2e2', 'h9g7']);
  assert.throws(() => describeGame({ moves: ['h2h8'] }), (e) => e instanceof QiError && e.code === 'illegal_move' && e.status === 400);
  assert.throws(() => call('/nope'), (e) => e instanceof QiError && e.status === 404);
});

test('PGN with variations and comments goes round', () => {
  const text = '[Red "Hu Ronghua"]\n\n1. 炮二平五 {central} 马8进7 (1... 炮8平5) 2. 马二进三 *\n';
  const record = pgn.read(text);
  assert.equal(record.tree[0].comment, 'central');
  assert.equal(record.tree[0].children.length, 2);
  const out = pgn.write({ tags: record.tags, tree: record.tree });
  assert.match(out, /\(1\.\.\. 炮8平5\)/);
  assert.deepEqual(pgn.read(out).tree[0].children.map((n) => n.iccs), ['h9g7', 'h7e7']);
});

test('Huarong Dao: classics, solve, hint, puzzle of exactly N steps', () => {
  const classic = huarong.classics().find((c) => c.name === '横刀立马');
  assert.equal(classic.steps, 81);
  const solved = huarong.solve(classic.layout);
  assert.equal(solved.steps, 81);
  assert.equal(solved.path.length, 81);
  assert.ok(solved.path.at(-1).solved);
  assert.equal(huarong.hint(classic.code).steps, 81);
  const puzzle = huarong.puzzle({ steps: 40, seed: 'node' });
  assert.equal(puzzle.steps, 40);
  assert.equal(huarong.solve(puzzle.layout).steps, 40);
});

test('the engine searches to a depth with progress and MultiPV, and finds a mate', () => {
  const engine = new Engine(8);
  const depths = [];
  const result = JSON.parse(engine.go(JSON.stringify({ depth: 6, multipv: 2 }), (info) => {
    depths.push(JSON.parse(info).depth);
    return true;
  }));
  assert.deepEqual(depths, [1, 2, 3, 4, 5, 6]);
  assert.equal(result.lines.length, 2);
  assert.ok(result.bestmove);
  const mate = JSON.parse(engine.go(JSON.stringify({ fen: '3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1', depth: 4 })));
  assert.ok(mate.lines[0].score.mate > 0, JSON.stringify(mate));
  // Stopped from the progress callback after depth 2.
  const stopped = JSON.parse(engine.go(JSON.stringify({ depth: 20 }), (info) => JSON.parse(info).depth < 2));
  assert.equal(stopped.depth, 2);
  const timed = JSON.parse(engine.go(JSON.stringify({ movetime_ms: 100 })));
  assert.ok(timed.time_ms < 1000 && timed.bestmove);
});

test('the engine net loads, evaluates, and a bad file keeps the one in use', () => {
  const start = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';
  assert.equal(netChecksum(), undefined);
  const classical = evaluate(start);
  const bytes = readFileSync(new URL('../../../crates/engine/nets/default.nnue', import.meta.url));
  const checksum = loadNet(new Uint8Array(bytes));
  assert.match(checksum, /^[0-9a-f]{16}$/);
  assert.equal(netChecksum(), checksum);
  const scored = evaluate(start);
  assert.ok(Math.abs(scored) < 200, `${scored}`);
  // A black-to-move mirror of a position scores the same for the side to move.
  assert.equal(evaluate('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1'), scored);
  assert.throws(() => loadNet(new Uint8Array([1, 2, 3])), /not a net/);
  assert.equal(netChecksum(), checksum);
  assert.throws(() => evaluate('nonsense'), /bad FEN/);
  // An engine made now searches with the net.
  const engine = new Engine(1);
  assert.ok(JSON.parse(engine.go(JSON.stringify({ depth: 3 }), () => true)).bestmove);
  unloadNet();
  assert.equal(netChecksum(), undefined);
  assert.equal(evaluate(start), classical);
});
