// Record files of every program on /xq: XQF files opened with the file picker and by dropping
// them on the board, a pasted DhtmlXQ block, a broken file's error, and "Save image" as PNG,
// SVG and an animated GIF, each download checked as a real file of its kind.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setup, boardState, pickLanguage } from './harness.js';
import { open, waitMessage, waitPly, shot } from './xq-helpers.js';

const DATA = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'crates', 'xiangqi', 'tests', 'data', 'records');
// Real XQStudio files (see SOURCE.md there): version 1.8 with six lines, 1.2 with a variation
// and three comments.
const VARIATIONS = readFileSync(join(DATA, 'variations-v18.xqf'));
const COMMENTED = readFileSync(join(DATA, 'game-v12.xqf'));

// A block as dpxq.com writes it: a start position, branches and comments.
const DPXQ = `[DhtmlXQ]
[DhtmlXQ_title]许银川 先胜 吕钦[/DhtmlXQ_title]
[DhtmlXQ_red]许银川[/DhtmlXQ_red]
[DhtmlXQ_black]吕钦[/DhtmlXQ_black]
[DhtmlXQ_result]红胜[/DhtmlXQ_result]
[DhtmlXQ_binit]8979695949392919097717866646260600102030405060708012720323436383[/DhtmlXQ_binit]
[DhtmlXQ_movelist]7747706279678070[/DhtmlXQ_movelist]
[DhtmlXQ_move_0_1_1]17472042[/DhtmlXQ_move_0_1_1]
[DhtmlXQ_move_0_2_2]1022[/DhtmlXQ_move_0_2_2]
[DhtmlXQ_comment0]对局开始[/DhtmlXQ_comment0]
[DhtmlXQ_comment1]中炮[/DhtmlXQ_comment1]
[DhtmlXQ_comment2_2]起马[/DhtmlXQ_comment2_2]
[/DhtmlXQ]`;

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

/** What the move list shows: main-line moves, variation blocks, comments. */
async function tree(page) {
  return page.evaluate(() => ({
    main: [...document.querySelectorAll('#moves > li:not(.variations) .move:not([data-ply="0"])')].map((m) => m.textContent.trim()),
    variations: document.querySelectorAll('#moves .variation').length,
    comments: [...document.querySelectorAll('#moves .comment')].map((c) => c.textContent.trim()),
    marked: document.querySelectorAll('#moves .move.has-comment').length,
    // The main line's comments, each in a row of its own under its move (#45: not only a ✎).
    notes: [...document.querySelectorAll('#moves > li.comment-row')].map((c) => c.textContent.trim()),
  }));
}

/** Drops `bytes` as a file called `name` on the board, as a user dragging it from a folder. */
async function dropFile(page, name, bytes) {
  const transfer = await page.evaluateHandle(([n, data]) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(data)], n, { type: 'application/octet-stream' }));
    return dt;
  }, [name, [...bytes]]);
  for (const type of ['dragenter', 'dragover', 'drop']) await page.dispatchEvent('#board svg', type, { dataTransfer: transfer });
}

/** Saves the picture in `format` and returns the download's name and bytes. */
async function saveImage(page, format, { coordinates = true } = {}) {
  await page.selectOption('#image-format', format);
  await page.setChecked('#image-coords', coordinates);
  const download = page.waitForEvent('download');
  await page.click('#save-image');
  const file = await download;
  return { name: file.suggestedFilename(), bytes: readFileSync(await file.path()) };
}

/** Counts the images of a GIF by walking its blocks (and checks the structure on the way). */
function gifFrames(b) {
  assert.equal(b.subarray(0, 6).toString('latin1'), 'GIF89a');
  let i = 13;
  if (b[10] & 0x80) i += 3 << ((b[10] & 7) + 1);
  const skipBlocks = () => {
    while (b[i] !== 0) {
      assert.ok(i < b.length, 'the data ends inside a block');
      i += b[i] + 1;
    }
    i += 1;
  };
  let frames = 0;
  for (;;) {
    const tag = b[i];
    if (tag === 0x3b) return { frames, width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
    if (tag === 0x21) {
      i += 2;
      skipBlocks();
    } else if (tag === 0x2c) {
      const packed = b[i + 9];
      i += 10;
      if (packed & 0x80) i += 3 << ((packed & 7) + 1);
      i += 1; // LZW minimum code size
      skipBlocks();
      frames += 1;
    } else {
      assert.fail(`unknown GIF block 0x${tag?.toString(16)} at ${i}`);
    }
  }
}

test('an XQF file opens from the file picker with its variations, headers and comments', async () => {
  const page = await open(env, '/xq');
  await page.setInputFiles('#pgn-file', { name: 'game_varations.xqf', mimeType: 'application/octet-stream', buffer: VARIATIONS });
  await waitMessage(page, /Game loaded/);
  const s = await boardState(page);
  assert.equal(s.plies, 8, 'the main line of the first of six lines');
  const shown = await tree(page);
  assert.deepEqual(shown.main.slice(0, 3), ['炮二平五', '炮8平5', '马二进三'], JSON.stringify(shown));
  assert.ok(shown.variations >= 5, `five other lines: ${JSON.stringify(shown)}`);
  assert.match(await page.locator('#headers').innerText(), /红方棋手/);
  assert.equal(await page.inputValue('#pgn'), '', 'a binary file is not put in the text box');
  await shot(page, 'xqf-picker');

  // The second line: the third alternative to ply 7 is on the board when clicked.
  await page.locator('#moves .variation .move').first().click();
  await page.waitForSelector('#board[data-ready="true"]');
  assert.notEqual((await boardState(page)).ply, 8);
  await page.close();
});

test('an XQF file dropped on the board opens, comments shown; a broken one says where in the user\'s language', async () => {
  const page = await open(env, '/xq');
  await dropFile(page, 'BadMoveTest2.xqf', COMMENTED);
  await waitPly(page, 35, 35);
  const shown = await tree(page);
  assert.equal(shown.variations, 1, JSON.stringify(shown));
  assert.equal(shown.marked, 3, `three commented moves: ${JSON.stringify(shown)}`);
  assert.match(await page.locator('#headers').innerText(), /郑国庆/);
  assert.deepEqual(page.errors, []);

  // Cut short: the reader says so, with the byte offset, and the game on the board stays.
  const cut = COMMENTED.subarray(0, COMMENTED.length - 9);
  await dropFile(page, 'cut.xqf', cut);
  const text = await waitMessage(page, /XQF/);
  assert.match(text, /^The XQF record cannot be read \(byte (\d+)\): it ends too early\.$/, text);
  assert.ok(Number(/byte (\d+)/.exec(text)[1]) <= cut.length, text);
  assert.equal((await boardState(page)).plies, 35, 'the open game is kept');
  await pickLanguage(page, 'zh-Hans');
  await dropFile(page, 'cut.xqf', cut);
  await page.waitForFunction(() => /无法读取XQF棋谱（第 \d+ 字节）：文件提前结束。/.test(document.getElementById('message').textContent));
  await pickLanguage(page, 'en');
  await page.close();
});

test('a pasted DhtmlXQ block opens with its branches and comments', async () => {
  const page = await open(env, '/xq');
  await page.fill('#pgn', DPXQ);
  await page.click('#pgn-import');
  await waitPly(page, 4, 4);
  const shown = await tree(page);
  assert.deepEqual(shown.main, ['炮二平五', '马8进7', '马二进三', '车9平8'], JSON.stringify(shown));
  assert.equal(shown.variations, 2, JSON.stringify(shown));
  assert.deepEqual(shown.comments, ['起马'], 'a variation shows its comments inline');
  assert.equal(shown.marked, 3, `the start, move 1 and the variation carry comments: ${JSON.stringify(shown)}`);
  assert.deepEqual(shown.notes, ['对局开始', '中炮'], 'the main line\'s comments are read in the list');
  await page.click('#moves .move[data-ply="1"]');
  await waitPly(page, 1, 4);
  assert.equal(await page.inputValue('#comment'), '中炮');
  await page.click('#moves .move[data-ply="0"]');
  await waitPly(page, 0, 4);
  assert.equal(await page.inputValue('#comment'), '对局开始');
  assert.match(await page.locator('#headers').innerText(), /许银川 – 吕钦/);
  await page.close();
});

test('"Save image" writes the position as PNG and SVG and the game as an animated GIF', async () => {
  const page = await open(env, '/xq');
  await page.fill('#pgn', DPXQ);
  await page.click('#pgn-import');
  await waitPly(page, 4, 4);
  await page.click('details.settings summary');
  await page.selectOption('#theme', 'jade');
  await shot(page, 'save-image');

  // SVG: standalone (the font inside), in the board's theme, the pieces and the last move.
  const svg = await saveImage(page, 'svg');
  assert.equal(svg.name, 'xiangqi-4.svg');
  const text = svg.bytes.toString('utf8');
  assert.match(text, /^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.match(text, /@font-face\{font-family:"Qi Xiangqi";src:url\(data:font\/woff2;base64,/);
  assert.match(text, /fill:\s*rgb\(191, 216, 196\)/, 'the jade board');
  assert.equal((text.match(/>(帥|將|俥|車|傌|馬|炮|砲|相|象|仕|士|兵|卒)</g) || []).length, 32, 'every piece');
  assert.equal((text.match(/stroke-dasharray:\s*6/g) || []).length, 1, 'the last move\'s start point');
  assert.match(text, />九</, 'coordinates');
  assert.doesNotMatch(text, /tabindex|class="point/, 'nothing for the hand');
  const bare = (await saveImage(page, 'svg', { coordinates: false })).bytes.toString('utf8');
  assert.doesNotMatch(bare, />九</, 'no coordinates when unticked');

  // PNG: a real one, twice the board's size, and its pixels the jade wood.
  const png = await saveImage(page, 'png');
  assert.equal(png.name, 'xiangqi-4.png');
  assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.equal(png.bytes.subarray(12, 16).toString('latin1'), 'IHDR');
  assert.deepEqual([png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)], [1160, 1280]);
  const pixel = await page.evaluate(async (data) => {
    const bitmap = await createImageBitmap(new Blob([new Uint8Array(data)], { type: 'image/png' }));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(bitmap, 0, 0);
    return [...ctx.getImageData(40, 640, 1, 1).data];
  }, [...png.bytes]);
  assert.deepEqual(pixel, [191, 216, 196, 255], 'the board margin is jade');

  // GIF: the start and one frame per move of the line on view, looping.
  const gif = await saveImage(page, 'gif');
  assert.equal(gif.name, 'xiangqi-game.gif');
  assert.deepEqual(gifFrames(gif.bytes), { frames: 5, width: 580, height: 640 });
  assert.match(gif.bytes.toString('latin1'), /NETSCAPE2\.0/);
  assert.match(await page.locator('#message').textContent(), /Picture saved \(xiangqi-game\.gif\)/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the drawing code is not part of the first load: it comes with the first "Save image"', async () => {
  const page = await open(env, '/xq');
  const loaded = () => page.evaluate(() => performance.getEntriesByType('resource').map((r) => new URL(r.name).pathname));
  assert.ok(!(await loaded()).some((p) => /save-image|gif\./.test(p)), (await loaded()).join(' '));
  const download = page.waitForEvent('download');
  await page.click('#save-image');
  await download;
  assert.ok((await loaded()).some((p) => /\/assets\/save-image\.[0-9a-f]{10}\.js$/.test(p)), (await loaded()).join(' '));
  await page.close();
});
