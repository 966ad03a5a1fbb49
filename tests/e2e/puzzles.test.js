// The Xiangqi puzzle page in a real browser: a puzzle by its link solved move by move (the
// defender answering), a wrong move taken back, a hint, the solution played out, the streak
// and rating kept in the browser, the day's puzzle the same for everyone, practising one kind
// or theme, and the page offline.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, clickSquare } from './harness.js';

let env;
/** The shipped set, read the way the page reads it. */
let puzzles;
before(async () => {
  env = await setup();
  const text = await (await fetch(`${env.base}/assets/puzzles/xiangqi.tsv`)).text();
  puzzles = text
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [id, fen, moves, kind, mateIn, rating, themes, source] = l.split('\t');
      return { id, fen, moves: moves.split(' '), kind, mateIn, rating: Number(rating), themes, source };
    });
});
after(async () => {
  await env?.close();
});

async function open(path) {
  const page = await env.context.newPage();
  await page.goto(env.base + path);
  await page.waitForSelector('#board[data-ready="true"]');
  return page;
}

const stepIs = (page, step) => page.waitForSelector(`#board[data-step="${step}"][data-ready="true"]`);
const text = (page, id) => page.textContent(`#${id}`);

async function play(page, iccs) {
  await clickSquare(page, iccs.slice(0, 2));
  await clickSquare(page, iccs.slice(2, 4));
}

/** Plays the whole solution as the player, waiting for each defender's reply. */
async function solve(page, puzzle) {
  for (let i = 0; i < puzzle.moves.length; i += 2) {
    await play(page, puzzle.moves[i]);
    await stepIs(page, Math.min(i + 2, puzzle.moves.length));
  }
}

test('the shipped set is there and every line of it is a puzzle', () => {
  assert.ok(puzzles.length >= 1);
  for (const p of puzzles) {
    assert.match(p.id, /^[0-9a-z]{8}$/);
    assert.equal(p.moves.length % 2, 1, p.id);
    assert.ok(['mate', 'win'].includes(p.kind));
  }
});

test('a puzzle by its link: right moves are answered, the solve counts', async () => {
  const puzzle = puzzles.find((p) => p.moves.length >= 3) || puzzles[0];
  const page = await open(`/puzzles?id=${puzzle.id}`);
  assert.equal(await page.getAttribute('body', 'data-puzzle'), puzzle.id);
  assert.equal(await page.getAttribute('body', 'data-state'), 'playing');
  assert.match(await text(page, 'puzzle-goal'), puzzle.kind === 'mate' ? /mate in \d/ : /winning move/);
  assert.equal(await page.isHidden('#puzzle-about'), true, 'the rating and themes wait until the end');
  const ratingBefore = Number(await text(page, 'player-rating'));
  await solve(page, puzzle);
  await page.waitForSelector('body[data-state="solved"]');
  assert.match(await text(page, 'puzzle-message'), /Solved! Streak: 1/);
  assert.equal(await text(page, 'streak'), '1');
  assert.ok(Number(await text(page, 'player-rating')) > ratingBefore);
  assert.equal(await page.isVisible('#puzzle-about'), true);
  assert.equal(await text(page, 'puzzle-rating'), String(puzzle.rating));
  assert.equal(await text(page, 'puzzle-source'), puzzle.source);
  // The next puzzle continues the streak.
  const second = puzzles.find((p) => p.id !== puzzle.id && p.moves.length === 1);
  if (second) {
    await page.goto(`${env.base}/puzzles?id=${second.id}`);
    await page.waitForSelector('#board[data-ready="true"]');
    await solve(page, second);
    await page.waitForSelector('body[data-state="solved"]');
    assert.equal(await text(page, 'streak'), '2');
  }
  await page.close();
});

test('a wrong move is taken back, ends the streak, and a retry no longer counts', async () => {
  const puzzle = puzzles.at(-1);
  const page = await open(`/puzzles?id=${puzzle.id}`);
  const legal = (await page.getAttribute('#board', 'data-legal')).split(' ');
  const wrong = legal.find((m) => m !== puzzle.moves[0]);
  assert.ok(wrong, 'the position has another legal move');
  const fen = await page.getAttribute('#board', 'data-fen');
  await play(page, wrong);
  await page.waitForFunction(() => document.getElementById('puzzle-message').classList.contains('bad'));
  assert.match(await text(page, 'puzzle-message'), /Not the move/);
  await page.waitForFunction((f) => {
    const b = document.getElementById('board');
    return b.dataset.fen === f && b.dataset.legal !== '';
  }, fen);
  assert.equal(await text(page, 'streak'), '0');
  // Solving it now shows the solution's end but does not count as solved.
  await solve(page, puzzle);
  await page.waitForSelector('body[data-state="shown"]');
  await page.click('#retry');
  await stepIs(page, 0);
  assert.equal(await page.getAttribute('body', 'data-state'), 'playing');
  await page.close();
});

test('a hint draws the move; the solution plays itself out', async () => {
  const puzzle = puzzles.find((p) => p.moves.length >= 3) || puzzles[0];
  const page = await open(`/puzzles?id=${puzzle.id}`);
  await page.click('#hint');
  // A straight line has an empty box on one axis, which Playwright calls hidden: wait for it to exist.
  const arrow = await page.waitForSelector('#board .arrow.hint', { state: 'attached' });
  assert.equal((await arrow.getAttribute('data-from')) + (await arrow.getAttribute('data-to')), puzzle.moves[0]);
  await page.click('#solution');
  await stepIs(page, puzzle.moves.length);
  await page.waitForSelector('body[data-state="shown"]');
  assert.equal(await page.isDisabled('#hint'), true);
  await page.close();
});

test('the daily puzzle is the same on two visits, and Next picks another', async () => {
  const a = await open('/puzzles?daily');
  const b = await open('/puzzles?daily');
  assert.equal(await a.getAttribute('body', 'data-puzzle'), await b.getAttribute('body', 'data-puzzle'));
  assert.equal(await text(a, 'puzzle-mode'), "Today's puzzle");
  const daily = await a.getAttribute('body', 'data-puzzle');
  await a.click('#next');
  await a.waitForFunction((d) => document.body.dataset.puzzle !== d, daily);
  assert.match(a.url(), /\?id=[0-9a-z]{8}$/);
  await a.close();
  await b.close();
});

test('Practise: Next picks puzzles of the chosen kind or theme, the choice is kept, a link may name it', async () => {
  const byId = new Map(puzzles.map((p) => [p.id, p]));
  const shown = async (page) => byId.get(await page.getAttribute('body', 'data-puzzle'));
  const page = await open('/puzzles');
  // Each choice says how many puzzles it has.
  const mateIn2 = puzzles.filter((p) => p.kind === 'mate' && p.mateIn === '2').length;
  assert.ok(mateIn2 > 0);
  assert.equal(await page.textContent('#puzzle-practice option[value="mate-in-2"]'), `Mate in 2 (${mateIn2})`);
  assert.equal(await page.textContent('#puzzle-practice option[value="any"]'), `Every puzzle (${puzzles.length})`);

  await page.selectOption('#puzzle-practice', 'mate-in-2');
  await page.waitForSelector('body[data-practice="mate-in-2"]');
  await page.waitForFunction(() => /mate in 2$/.test(document.getElementById('puzzle-goal').textContent));
  // Six Nexts in a row, none solved: each is a mate in two not shown before in this visit (a
  // skipped puzzle is not kept as seen, and used to come back one Next in eight).
  const seen = new Set();
  for (let i = 0; i < 6; i++) {
    const p = await shown(page);
    assert.equal(p.kind, 'mate', p.id);
    assert.equal(p.mateIn, '2', p.id);
    seen.add(p.id);
    await page.click('#next');
    await page.waitForFunction((ids) => !ids.includes(document.body.dataset.puzzle), [...seen]);
    await page.waitForSelector('#board[data-ready="true"]');
  }
  // A new visit keeps the choice.
  await page.reload();
  await page.waitForSelector('#board[data-ready="true"]');
  assert.equal(await page.inputValue('#puzzle-practice'), 'mate-in-2');
  assert.equal((await shown(page)).mateIn, '2');
  await page.close();

  // A link names a theme: the puzzle shown has it, and it becomes the choice.
  const pin = await open('/puzzles?theme=pin');
  assert.equal(await pin.inputValue('#puzzle-practice'), 'pin');
  assert.ok((await shown(pin)).themes.split(',').includes('pin'));
  await pin.selectOption('#puzzle-practice', 'win');
  await pin.waitForSelector('body[data-practice="win"]');
  await pin.waitForFunction(() => /winning move$/.test(document.getElementById('puzzle-goal').textContent));
  assert.equal((await shown(pin)).kind, 'win');
  // A classic kill: the puzzle ends in it, and the list names it in the page's language.
  await pin.selectOption('#puzzle-practice', 'horse-cannon');
  await pin.waitForSelector('body[data-practice="horse-cannon"]');
  await pin.waitForFunction(() => /mate in \d+$/.test(document.getElementById('puzzle-goal').textContent));
  assert.ok((await shown(pin)).themes.split(',').includes('horse-cannon'));
  const kills = puzzles.filter((p) => p.themes.split(',').includes('horse-cannon')).length;
  assert.equal(await pin.textContent('#puzzle-practice option[value="horse-cannon"]'), `Horse and cannon mate (${kills})`);
  // Back to every puzzle, as the other tests expect.
  await pin.selectOption('#puzzle-practice', 'any');
  await pin.waitForSelector('body[data-practice="any"]');
  await pin.close();
});

test('an unknown id says so and still offers a puzzle; the page works offline', async () => {
  const page = await open('/puzzles?id=zzzzzzzz');
  assert.match(await text(page, 'puzzle-message'), /No puzzle is called zzzzzzzz/);
  assert.ok((await page.getAttribute('body', 'data-puzzle')).length === 8, 'another puzzle is offered');
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await page.waitForSelector('#board[data-ready="true"]');
  await env.context.setOffline(true);
  try {
    await page.reload();
    await page.waitForSelector('#board[data-ready="true"]');
    assert.ok((await page.getAttribute('#board', 'data-legal')).length > 0);
  } finally {
    await env.context.setOffline(false);
  }
  await page.close();
});
