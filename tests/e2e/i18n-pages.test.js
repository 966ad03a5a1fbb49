// The four interface languages in the browser: the first visit picks from the browser's
// languages, the menu changes the language and remembers it, `?lang=` forces it for one visit,
// `<html lang>` names the language shown, no page shows English words in another language,
// Vietnamese's longer words fit the lobby, room and analysis panels, and the share link names
// the language only when asked. With QI_SCREENSHOTS set to a folder, the board page is
// photographed there in each language.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setup, launchBrowser, pickLanguage } from './harness.js';
import { showTab } from './xq-helpers.js';
import en from '../../crates/web/assets/lang/en.js';
import vi from '../../crates/web/assets/lang/vi.js';

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

const LANGS = ['en', 'zh-Hans', 'zh-Hant', 'vi'];

/** A page in a fresh context whose browser prefers `locale`, with nothing stored. */
async function fresh(locale, path, viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ locale, viewport });
  const page = await context.newPage();
  await visit(page, path);
  return { context, page };
}

const lang = (page) => page.evaluate(() => document.documentElement.lang);

/**
 * Opens `path` and waits for the page's words: the language file is imported with a top-level
 * await, which the load event does not wait for (until then `<html lang>` is the markup's "en").
 */
async function visit(page, path) {
  await page.goto(env.base + path);
  await page.waitForFunction(() => document.getElementById('lang')?.options.length === 4);
}

test('the first visit picks from the browser languages', async () => {
  for (const [locale, expected, title] of [
    ['vi-VN', 'vi', 'Cờ tướng · Qi'],
    ['zh-TW', 'zh-Hant', '象棋 · 棋'],
    ['zh-HK', 'zh-Hant', '象棋 · 棋'],
    ['zh-CN', 'zh-Hans', '象棋 · 棋'],
    ['en-GB', 'en', 'Xiangqi · Qi'],
    ['fr-FR', 'en', 'Xiangqi · Qi'],
  ]) {
    const { context, page } = await fresh(locale, '/xq');
    assert.equal(await lang(page), expected, locale);
    assert.equal(await page.inputValue('#lang'), expected, locale);
    assert.equal(await page.title(), title, locale);
    await context.close();
  }
});

test('the menu changes the language everywhere on the page and remembers it', async () => {
  const { context, page } = await fresh('en-US', '/xq');
  await page.waitForSelector('#board[data-ready="true"]');
  assert.equal((await page.textContent('#new')).trim(), 'New game');
  await pickLanguage(page, 'vi');
  assert.equal(await lang(page), 'vi');
  assert.equal((await page.textContent('#new')).trim(), 'Ván mới');
  assert.equal(await page.title(), 'Cờ tướng · Qi');
  await pickLanguage(page, 'zh-Hant');
  assert.equal(await lang(page), 'zh-Hant');
  assert.equal((await page.textContent('#flip')).trim(), '翻轉棋盤');
  await page.reload();
  await page.waitForSelector('#board[data-ready="true"]');
  assert.equal(await lang(page), 'zh-Hant', 'remembered');
  // Other pages follow.
  await visit(page, '/huarong');
  assert.equal(await lang(page), 'zh-Hant');
  assert.equal(await page.title(), '華容道 · 棋');
  await context.close();
});

test('?lang= forces the language for the visit, and the menu takes it back', async () => {
  const { context, page } = await fresh('vi-VN', '/?lang=zh-Hant');
  assert.equal(await lang(page), 'zh-Hant');
  assert.equal(await page.evaluate(() => localStorage.getItem('qi-lang')), null, 'not remembered');
  await visit(page, '/?lang=en');
  assert.equal(await lang(page), 'en');
  await pickLanguage(page, 'vi');
  assert.equal(await lang(page), 'vi');
  assert.equal(new URL(page.url()).searchParams.has('lang'), false, 'the address drops ?lang');
  await visit(page, '/');
  assert.equal(await lang(page), 'vi', 'the menu choice is remembered');
  await visit(page, '/?lang=zh-Hans');
  assert.equal(await lang(page), 'zh-Hans', '?lang wins over the stored choice');
  await context.close();
});

test('the share link carries the language only when the sharer asks', async () => {
  const { context, page } = await fresh('vi-VN', '/xq?moves=h2e2.h9g7');
  await page.waitForSelector('#board[data-ready="true"]');
  assert.doesNotMatch(await page.inputValue('#share-link'), /lang=/);
  await page.check('#share-lang');
  assert.match(await page.inputValue('#share-link'), /[?&]lang=vi$/);
  await pickLanguage(page, 'zh-Hant');
  assert.match(await page.inputValue('#share-link'), /[?&]lang=zh-Hant$/);
  await page.uncheck('#share-lang');
  assert.doesNotMatch(await page.inputValue('#share-link'), /lang=/);
  await context.close();
});

/**
 * The visible texts of the page: text nodes, placeholders, tooltips and labels, but not the
 * language menu (each language's own name) or what the user or a game record typed.
 */
function visibleTexts(page) {
  return page.evaluate(() => {
    const out = [];
    const shown = (el) => el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
    const skip = (el) => el.closest('#lang, script, style, textarea, #moves, #lines, svg, .pv, #share-link, #fen');
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!skip(el) && shown(el) && node.textContent.trim()) out.push(node.textContent.trim());
    }
    for (const el of document.querySelectorAll('[placeholder], [title], [aria-label]')) {
      if (skip(el) || !shown(el)) continue;
      for (const attr of ['placeholder', 'title', 'aria-label']) if (el.getAttribute(attr)) out.push(el.getAttribute(attr));
    }
    out.push(document.title);
    return out;
  });
}

/** English words (4 letters or more) of the interface that no Vietnamese text uses. */
const englishWords = (() => {
  // A plural message (i18n.js) is an object of forms: each form's words.
  const all = (table) => Object.values(table).flatMap((e) => (typeof e === 'string' ? [e] : Object.values(e)));
  const words = (text) => (text.replace(/\{\w+\}/g, '').match(/[A-Za-z]{4,}/g) || []).map((w) => w.toLowerCase());
  const vietnamese = new Set(all(vi).flatMap(words));
  return new Set(all(en).flatMap(words).filter((w) => !vietnamese.has(w)));
})();

/** Latin words a Chinese page may show: formats, notations and examples. */
const LATIN_OK = /^(Qi|QR|FEN|PGN|pgn|WXF|ICCS|XQF|DhtmlXQ|PNG|SVG|GIF|Esc|h2e2|C2\.5|P2-5|[a-i]\d|[wbl])$/;

/** The words of `texts` that are English in a page shown in `language`. */
function leaks(language, texts) {
  return texts.flatMap((text) => {
    const words = text.match(/[A-Za-z][A-Za-z0-9.+-]*/g) || [];
    if (language === 'vi') return words.filter((w) => englishWords.has(w.toLowerCase())).map((w) => `${w} in “${text}”`);
    return words.filter((w) => !LATIN_OK.test(w.replace(/\.$/, ''))).map((w) => `${w} in “${text}”`);
  });
}

test('no page shows English words in another language', async () => {
  const room = await (await fetch(`${env.base}/api/rooms`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json();
  const pages = [
    ['/', null],
    ['/xq', '#board[data-ready="true"]'],
    ['/huarong', '#hr-board'],
    ['/no/such/page', null],
    [new URL(room.links.red).pathname + new URL(room.links.red).search, '#board[data-ready="true"]'],
  ];
  for (const language of ['zh-Hans', 'zh-Hant', 'vi']) {
    const { context, page } = await fresh(language === 'vi' ? 'vi-VN' : language === 'zh-Hant' ? 'zh-TW' : 'zh-CN', '/');
    for (const [path, ready] of pages) {
      await page.goto(env.base + path);
      if (ready) await page.waitForSelector(ready);
      await page.waitForTimeout(300); // late texts (status lines, the lobby count)
      assert.equal(await lang(page), language, path);
      assert.deepEqual(leaks(language, await visibleTexts(page)), [], `${language} ${path}`);
    }
    // The dialogs: play a friend, the lobby.
    await page.goto(env.base + '/xq');
    await page.waitForSelector('#board[data-ready="true"]');
    for (const [button, dialog] of [['#play-friend', '#friend-dialog[open]'], ['#play-someone', '#lobby-dialog[open]']]) {
      if (!(await page.isVisible(button))) continue;
      await page.click(button);
      await page.waitForSelector(dialog);
      assert.deepEqual(leaks(language, await visibleTexts(page)), [], `${language} ${dialog}`);
      await page.keyboard.press('Escape');
    }
    await context.close();
  }
});

test('Vietnamese fits the lobby, the room and the analysis panel, on a phone too', async () => {
  const room = await (await fetch(`${env.base}/api/rooms`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json();
  for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 800 }]) {
    const { context, page } = await fresh('vi-VN', '/xq?moves=h2e2.h9g7', viewport);
    await page.waitForSelector('#board[data-ready="true"]');
    await showTab(page, 'analysis');
    await page.check('#analyse');
    await page.waitForSelector('#lines li');
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    assert.ok(await fits(), `analysis at ${viewport.width}`);
    await showTab(page, 'moves');
    if (await page.isVisible('#play-someone')) {
      await page.click('#play-someone');
      await page.waitForSelector('#lobby-dialog[open]');
      assert.ok(await fits(), `lobby at ${viewport.width}`);
      const overflowing = await page.evaluate(() =>
        [...document.querySelectorAll('#lobby-dialog *')].filter((el) => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'auto').map((el) => el.id || el.className || el.tagName));
      assert.deepEqual(overflowing, [], `lobby parts at ${viewport.width}`);
      await page.keyboard.press('Escape');
    }
    await page.goto(room.links.red);
    await page.waitForSelector('#board[data-ready="true"]');
    assert.ok(await fits(), `room at ${viewport.width}`);
    await context.close();
  }
});

test('every page header fits a phone in each language: each link whole, the language menu a short face', async () => {
  const room = await (await fetch(`${env.base}/api/rooms`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json();
  const short = { en: 'EN', 'zh-Hans': '简', 'zh-Hant': '繁', vi: 'VI' };
  for (const width of [360, 390]) {
    const context = await browser.newContext({ viewport: { width, height: 800 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    for (const code of LANGS) {
      for (const path of ['/', '/xq', '/puzzles', '/huarong', new URL(room.links.red).pathname]) {
        await visit(page, `${path}?lang=${code}`);
        const where = `${path} in ${code} at ${width} px`;
        const header = await page.evaluate(() => {
          const box = (el) => el.getBoundingClientRect().toJSON();
          return {
            links: [...document.querySelectorAll('header.top nav a')].map((a) => ({ text: a.textContent, box: box(a), whole: a.scrollWidth <= a.clientWidth + 1 })),
            face: box(document.querySelector('.lang-face')),
            faceText: document.querySelector('.lang-face').textContent,
            menu: box(document.getElementById('lang')),
            fits: document.querySelector('header.top').scrollWidth <= document.querySelector('header.top').clientWidth,
          };
        });
        assert.equal(header.links.length, 3, where);
        assert.ok(header.fits, `the header overflows: ${where}`);
        assert.equal(header.faceText, short[code], where);
        const last = header.links.at(-1).box;
        assert.ok(last.right <= header.face.left, `${header.links.at(-1).text} runs under the language menu: ${where}`);
        assert.ok(header.face.right <= width, where);
        // The list lies over its face, so a tap on the face opens it.
        assert.deepEqual([header.menu.left, header.menu.right], [header.face.left, header.face.right], where);
      }
    }
    // The menu still works there.
    await visit(page, '/puzzles?lang=vi');
    await page.selectOption('#lang', 'zh-Hant');
    await page.waitForFunction(() => document.querySelector('.lang-face').textContent === '繁');
    assert.equal(await page.textContent('header.top nav a[href="/puzzles"]'), '習題');
    await context.close();
  }
});

test('the moves are written in the notation picked, Vietnamese and traditional Chinese included', async () => {
  const { context, page } = await fresh('vi-VN', '/xq?moves=h2e2.h9g7.i0i1');
  await page.waitForSelector('#board[data-ready="true"]');
  const moves = () => page.$$eval('#moves .move', (nodes) => nodes.map((n) => n.textContent));
  await page.selectOption('#notation', 'vietnamese');
  // (the list starts with the start position)
  assert.deepEqual(await moves(), ['Khai cuộc', 'P2-5', 'M8.7', 'X1.1']);
  await page.selectOption('#notation', 'traditional');
  assert.deepEqual(await moves(), ['Khai cuộc', '炮二平五', '馬８進７', '俥一進一']);
  // A move typed in Vietnamese plays.
  await page.fill('#move-input', 'X9-8');
  await page.press('#move-input', 'Enter');
  await page.waitForSelector('#board[data-ready="true"][data-plies="4"]');
  assert.equal((await moves())[4], '車９平８');
  await context.close();
});

test('a picture of the board page in each language', async () => {
  const folder = process.env.QI_SCREENSHOTS;
  for (const language of LANGS) {
    const { context, page } = await fresh('en-US', `/xq?lang=${language}&moves=h2e2.h9g7.h0g2.i9h9`);
    await page.waitForSelector('#board[data-ready="true"]');
    if (language === 'vi') await page.selectOption('#notation', 'vietnamese');
    if (language === 'zh-Hant') await page.selectOption('#notation', 'traditional');
    assert.equal(await lang(page), language);
    const shot = await page.screenshot(folder ? { path: join(folder, `board-${language}.png`), fullPage: true } : { fullPage: true });
    assert.ok(shot.length > 10_000, 'a picture with something in it');
    await context.close();
  }
});
