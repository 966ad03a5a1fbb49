// @ts-check
// The interface in four languages: English, Simplified and Traditional Chinese, Vietnamese (the
// words are in lang/, one file a language). Elements carry data-i18n="key" (text) or
// data-i18n-title="key" (tooltip); t(key, vars) formats a message in the current language.
// The language is, first, `?lang=` in the address (for that visit only), then the one picked in
// the menu (remembered), then the first of the browser's languages that the site speaks. Only
// English (every text's fallback) and the language shown are downloaded: the first load of a
// page stays small however many languages the site speaks.

import en from './lang/en.js';

/**
 * A message whose words depend on a number: its forms by the language's plural category
 * (Intl.PluralRules: `one`, `other`, ...; English has two, Chinese and Vietnamese one), and the
 * variable that holds the number.
 * @typedef {{ count: string, [category: string]: string }} Plural
 */

/** The words of the languages loaded so far. @type {Record<string, Record<string, string | Plural>>} */
const TEXT = { en };

/** @type {Map<string, Intl.PluralRules>} */
const RULES = new Map();

/**
 * The form of `entry` for its count in `vars`, by the plural rules of `code`.
 * @param {string | Plural} entry
 * @param {string} code
 * @param {Record<string, any>} vars
 * @returns {string}
 */
function formOf(entry, code, vars) {
  if (typeof entry === 'string') return entry;
  if (!RULES.has(code)) RULES.set(code, new Intl.PluralRules(code));
  const category = /** @type {Intl.PluralRules} */ (RULES.get(code)).select(Number(vars[entry.count]));
  return entry[category] ?? entry.other;
}

/**
 * The languages, as `<html lang>` and `?lang=` name them, with their names in themselves and a
 * short name (the menu's face on a phone, where the full name has no room).
 */
export const LANGUAGES = [
  ['en', 'English', 'EN'],
  ['zh-Hans', '简体中文', '简'],
  ['zh-Hant', '繁體中文', '繁'],
  ['vi', 'Tiếng Việt', 'VI'],
];

const KEY = 'qi-lang';
const CODES = LANGUAGES.map(([code]) => code);

/**
 * Fetches the words of `code` unless they are here; the language to show: `code`, or English
 * when its words cannot be had (offline before the site was kept).
 * @param {string} code
 * @returns {Promise<string>}
 */
async function load(code) {
  try {
    if (!TEXT[code]) TEXT[code] = (await import(`./lang/${code}.js`)).default;
    return code;
  } catch {
    return 'en';
  }
}

/**
 * The site's language for a BCP 47 tag (`zh-TW`, `zh-Hant-HK`, `vi-VN`, `en-GB`), or null.
 * Chinese is Traditional where the script or region says so (Taiwan, Hong Kong, Macau).
 * @param {string | null | undefined} tag
 * @returns {string | null}
 */
export function matchLanguage(tag) {
  const parts = (tag || '').toLowerCase().split(/[-_]/);
  if (parts[0] === 'zh') return parts.some((p) => ['hant', 'tw', 'hk', 'mo'].includes(p)) ? 'zh-Hant' : 'zh-Hans';
  if (parts[0] === 'vi') return 'vi';
  if (parts[0] === 'en') return 'en';
  return null;
}

/** @returns {string} */
function firstLanguage() {
  const forced = matchLanguage(new URLSearchParams(location.search).get('lang'));
  if (forced) return forced;
  const stored = localStorage.getItem(KEY);
  // 'zh' is what the site stored before it spoke Traditional Chinese.
  if (stored === 'zh') return 'zh-Hans';
  if (stored && CODES.includes(stored)) return stored;
  const wanted = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const tag of wanted) {
    const found = matchLanguage(tag);
    if (found) return found;
  }
  return 'en';
}

let lang = await load(firstLanguage());

/** @type {((lang: string) => void)[]} */
const listeners = [];

/** The page's language: 'en', 'zh-Hans', 'zh-Hant' or 'vi'. */
export function currentLang() {
  return lang;
}

/**
 * The text of `key` in the page's language (English when it has none), `{name}` filled from `vars`;
 * a plural message takes the form its count asks for.
 * @param {string} key
 * @param {Record<string, any>} [vars]
 * @returns {string}
 */
export function t(key, vars = {}) {
  const own = TEXT[lang][key];
  const text = own !== undefined ? formOf(own, lang, vars) : key in TEXT.en ? formOf(TEXT.en[key], 'en', vars) : key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? String(vars[name]) : `{${name}}`));
}

/**
 * Writes the texts of every marked element under `root`, and the page's title and language.
 * @param {Document | Element} [root]
 */
export function applyText(root = document) {
  document.documentElement.lang = lang;
  // The page title follows the language: "象棋 · 棋".
  const titleKey = document.body?.dataset.title;
  if (titleKey) document.title = titleKey === 'index.title' ? t('nav.home') : `${t(titleKey)} · ${t('nav.home')}`;
  for (const node of root.querySelectorAll('[data-i18n]')) node.textContent = t(/** @type {HTMLElement} */ (node).dataset.i18n);
  for (const node of root.querySelectorAll('[data-i18n-placeholder]')) {
    const input = /** @type {HTMLInputElement} */ (node);
    input.placeholder = t(input.dataset.i18nPlaceholder);
  }
  for (const node of root.querySelectorAll('[data-i18n-label]')) node.setAttribute('aria-label', t(/** @type {HTMLElement} */ (node).dataset.i18nLabel));
  for (const el of root.querySelectorAll('[data-i18n-title]')) {
    const node = /** @type {HTMLElement} */ (el);
    node.title = t(node.dataset.i18nTitle);
    node.setAttribute('aria-label', node.title);
  }
}

/**
 * Calls fn(lang) after each change of language.
 * @param {(lang: string) => void} fn
 */
export function onLangChange(fn) {
  listeners.push(fn);
}

/**
 * Shows the page in `next` (once its words are here) and remembers it; the address drops its
 * `?lang=`, which would otherwise win again on the next visit.
 * @param {string} next one of LANGUAGES
 */
export async function setLang(next) {
  lang = await load(CODES.includes(next) ? next : 'en');
  localStorage.setItem(KEY, lang);
  const url = new URL(location.href);
  if (url.searchParams.has('lang')) {
    url.searchParams.delete('lang');
    history.replaceState(history.state, '', url);
  }
  applyText();
  const menu = document.getElementById('lang');
  if (menu instanceof HTMLSelectElement) menu.value = lang;
  showShortName();
  for (const fn of listeners) fn(lang);
}

// Wires the language menu found in every page's header.
export function setupLangButton() {
  const menu = document.getElementById('lang');
  if (menu instanceof HTMLSelectElement) {
    if (!menu.options.length) {
      for (const [code, name] of LANGUAGES) menu.append(new Option(name, code));
    }
    menu.value = lang;
    menu.addEventListener('change', () => setLang(menu.value));
    // On a phone the menu shows a short face ("VI", "繁") over the list, which still opens with
    // the full names (style.css: .lang-pick).
    if (!menu.parentElement?.classList.contains('lang-pick')) {
      const pick = document.createElement('span');
      pick.className = 'lang-pick';
      const face = document.createElement('span');
      face.className = 'lang-face';
      face.setAttribute('aria-hidden', 'true');
      menu.replaceWith(pick);
      pick.append(face, menu);
    }
    showShortName();
  }
  applyText();
}

function showShortName() {
  const face = document.querySelector('.lang-pick .lang-face');
  if (face) face.textContent = LANGUAGES.find(([code]) => code === lang)?.[2] ?? lang;
}
