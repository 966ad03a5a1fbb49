// The interface's four languages (crates/web/assets/lang/*.js), without a browser: each has
// every key English has and no other, with the same {placeholders}, and no text is left in
// English (names, numbers and the notations' own letters aside).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import en from '../../crates/web/assets/lang/en.js';
import zhHans from '../../crates/web/assets/lang/zh-Hans.js';
import zhHant from '../../crates/web/assets/lang/zh-Hant.js';
import vi from '../../crates/web/assets/lang/vi.js';

const OTHERS = { 'zh-Hans': zhHans, 'zh-Hant': zhHant, vi };

/** Texts that are the same in every language: names, formats, symbols. */
const SAME_EVERYWHERE = new Set(['Qi', 'FEN', 'PGN', 'WXF', 'ICCS', 'XQF', 'DhtmlXQ', '◀', '▶']);

/** Latin words that a Chinese text may hold: formats, notations, keys, examples, and QR (QR 碼 is Taiwan's word). */
const LATIN_IN_CHINESE = /^(QR|FEN|PGN|pgn|WXF|ICCS|XQF|CBR|CBL|DhtmlXQ|PNG|SVG|GIF|Esc|w|b|l|h2e2|C2\.5|P2-5|s|XQ)$/;

const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

/** A plural message (i18n.js's Plural): its forms by plural category, and the counting variable. */
const isPlural = (entry) => typeof entry === 'object' && entry !== null;
/** The forms of an entry, plural or not. */
const forms = (entry) => (isPlural(entry) ? Object.entries(entry).filter(([k]) => k !== 'count').map(([, v]) => v) : [entry]);
/** Every text of a table, a plural message's forms each on their own. */
const texts = (table) => Object.entries(table).flatMap(([key, entry]) => forms(entry).map((text) => [key, text]));

test('every language has every key, and no key English lacks', () => {
  for (const [lang, table] of Object.entries(OTHERS)) {
    const missing = Object.keys(en).filter((k) => !(k in table));
    const extra = Object.keys(table).filter((k) => !(k in en));
    assert.deepEqual(missing, [], `${lang} lacks these keys`);
    assert.deepEqual(extra, [], `${lang} has keys English lacks`);
    for (const [key, text] of texts(table)) {
      assert.equal(typeof text, 'string', `${lang} ${key}`);
      assert.ok(text.trim(), `${lang} ${key} is empty`);
    }
  }
});

test('a plural message has exactly the forms its language\'s plural rules name, and counts a variable it shows', () => {
  for (const [lang, table] of Object.entries({ en, ...OTHERS })) {
    const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories.slice().sort();
    for (const [key, entry] of Object.entries(table).filter(([, e]) => isPlural(e))) {
      assert.ok(isPlural(en[key]), `${lang} ${key}: plural here, not in English`);
      assert.equal(entry.count, en[key].count, `${lang} ${key} counts another variable`);
      // Chinese and Vietnamese have one form: "other".
      const given = Object.keys(entry).filter((k) => k !== 'count').sort();
      assert.deepEqual(given, categories, `${lang} ${key}`);
      for (const text of forms(entry)) assert.ok(placeholders(text).includes(entry.count), `${lang} ${key}: ${text}`);
    }
  }
  assert.deepEqual(new Intl.PluralRules('zh-Hans').resolvedOptions().pluralCategories, ['other']);
});

test('every translation fills the same placeholders as English', () => {
  for (const [lang, table] of Object.entries(OTHERS)) {
    for (const key of Object.keys(en)) {
      const wanted = placeholders(forms(en[key]).at(-1));
      for (const text of forms(table[key])) assert.deepEqual(placeholders(text), wanted, `${lang} ${key}: ${text}`);
    }
  }
});

test('no text is left in English', () => {
  for (const [lang, table] of Object.entries(OTHERS)) {
    const same = Object.keys(en).filter((k) => !isPlural(en[k]) && table[k] === en[k] && /[A-Za-z]{2}/.test(en[k]) && !SAME_EVERYWHERE.has(en[k]));
    // `byte {n}` is Vietnamese too.
    assert.deepEqual(same.filter((k) => !(lang === 'vi' && k === 'record.at.offset')), [], `${lang} keeps these in English`);
  }
  // Chinese texts hold no Latin words but formats and examples.
  for (const lang of ['zh-Hans', 'zh-Hant']) {
    for (const [key, text] of texts(OTHERS[lang])) {
      const words = text.replace(/\{\w+\}/g, '').match(/[A-Za-z][A-Za-z0-9.+-]*/g) || [];
      const english = words.filter((w) => !LATIN_IN_CHINESE.test(w.replace(/[.]$/, '')));
      assert.deepEqual(english, [], `${lang} ${key}: ${text}`);
    }
  }
});

test('Traditional Chinese is written in traditional characters', () => {
  // Characters that exist only in the simplified script, as they would slip in from zh-Hans.
  const simplified = /[这个们时说对为发过进后马车将帅红边连网络输认简复盘载开关际录终续择页觉现]/u;
  const found = texts(zhHant).filter(([, text]) => simplified.test(text)).map(([k]) => k);
  // The notation menu names the simplified script in its own characters.
  assert.deepEqual(found.filter((k) => k !== 'notation.chinese'), []);
});
