// The explorer module under Node (packages/qi/explorer, built from crates/wasm-explorer): its
// reports equal the native ones (`qi explore --json`, run when QI_BIN names a built qi), its
// opening names those of `qi opening --json`, and a user's games add, pack and load back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadExplorer, explore, classify, addGames, myGames, myGamesCount, loadMyGames, clearMyGames } from '../explorer/index.js';

await loadExplorer();

const qi = process.env.QI_BIN;
const native = qi && existsSync(qi) ? (/** @type {string[]} */ args) => JSON.parse(execFileSync(qi, args, { encoding: 'utf8' })) : null;

const LINES = [[], ['h2e2'], ['h2e2', 'h9g7'], ['炮二平五', '马8进7', '马二进三'], ['c3c4', 'g6g5'], ['g0e2', 'b9c7', 'b0c2']];

test('the reports equal the native explorer\'s', { skip: native ? false : 'QI_BIN is not set: no native qi to compare with' }, () => {
  for (const moves of LINES) {
    const report = explore({ moves }, 'master');
    assert.deepEqual(report, native?.(['explore', '--json', ...moves]), moves.join(' '));
    assert.deepEqual(classify({ moves }), moves.length ? native?.(['opening', '--json', ...moves]) : report.ecco, moves.join(' '));
  }
  const fen = explore({ moves: ['h2e2', 'h9g7'] }, 'master').fen;
  assert.deepEqual(explore({ fen }, 'master').moves, native?.(['explore', '--json', fen]).moves);
});

test('the master games from the start, and bad input', () => {
  const start = explore({}, 'master');
  assert.equal(start.total, 2401);
  assert.equal(start.moves[0].move, 'h2e2');
  assert.equal(start.moves.reduce((sum, m) => sum + m.games, 0), 2401);
  assert.equal(start.ecco.code, 'A00');
  assert.throws(() => explore({ moves: ['h2e2', 'h2e2'] }), /move 2/);
  assert.throws(() => explore({ fen: 'nope' }), /FEN/);
  assert.throws(() => explore({}, /** @type {any} */ ('theirs')), /unknown sources/);
});

test('a user\'s games: added beside the master games, packed and loaded back', () => {
  clearMyGames();
  assert.equal(explore({}, 'mine').total, 0);
  const added = addGames([
    { id: 'mine-1', moves: ['h2e2', 'h9g7'], result: '1-0' },
    { id: 'mine-2', moves: ['炮二平五', '炮8平5'], result: '0-1' },
  ]);
  assert.deepEqual(added, { added: 2, games: 2 });
  assert.equal(myGamesCount(), 2);
  const mine = explore({ moves: ['h2e2'] }, 'mine');
  assert.deepEqual(mine.moves.map((m) => [m.move, m.games, m.red, m.black, m.typical.id]), [['h7e7', 1, 0, 1, 'mine-2'], ['h9g7', 1, 1, 0, 'mine-1']]);
  const master = explore({ moves: ['h2e2'] }, 'master');
  const all = explore({ moves: ['h2e2'] });
  assert.equal(all.total, master.total + 2);
  const h9g7 = (/** @type {any} */ r) => r.moves.find((/** @type {any} */ m) => m.move === 'h9g7');
  assert.equal(h9g7(all).games, h9g7(master).games + 1);
  assert.equal(h9g7(all).red, h9g7(master).red + 1);
  assert.throws(() => addGames([{ id: 'bad', moves: ['h2e2', 'h2e2'] }]), /game bad: move 2/);

  const packed = myGames();
  assert.ok(packed instanceof Uint8Array && packed.length < 40, `${packed.length} bytes`);
  clearMyGames();
  assert.equal(explore({}, 'mine').total, 0);
  assert.deepEqual(loadMyGames(packed), { games: 2 });
  assert.deepEqual(explore({ moves: ['h2e2'] }, 'mine'), mine);
  assert.throws(() => loadMyGames(new Uint8Array([1, 2, 3])), /QIX1/);
  clearMyGames();
});
