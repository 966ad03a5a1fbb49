// Helpers shared by the Xiangqi page's browser tests.

import { ready } from './harness.js';

export async function open(env, path, { width, height } = {}) {
  const page = await env.context.newPage();
  if (width) await page.setViewportSize({ width, height: height || 900 });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.errors = errors;
  await page.goto(env.base + path);
  await ready(page);
  return page;
}

// On a narrow screen the board page's tools are tabs (xq/tabs.js): shows the tab `name`
// (moves, analysis, records, setup, settings) when the tab bar is there; a no-op beside the board.
export async function showTab(page, name) {
  if (await page.isVisible('#tool-tabs')) await page.click(`#tab-${name}`);
}

export async function message(page) {
  return (await page.locator('#message').textContent()).trim();
}

// Waits for the message line to match `pattern`.
export async function waitMessage(page, pattern) {
  await page.waitForFunction((src) => new RegExp(src).test(document.getElementById('message').textContent), pattern.source);
  return message(page);
}

export async function waitPly(page, ply, plies) {
  const sel = plies === undefined ? `#board[data-ready="true"][data-ply="${ply}"]` : `#board[data-ready="true"][data-ply="${ply}"][data-plies="${plies}"]`;
  await page.waitForSelector(sel);
}

// The move list as text: main-line rows and indented variation blocks.
export async function moveList(page) {
  return page.evaluate(() => [...document.querySelectorAll('#moves > li')].map((li) => li.innerText.replace(/\s+/g, ' ').trim()));
}

export async function shot(page, name) {
  if (process.env.QI_SHOTS) await page.screenshot({ path: `${process.env.QI_SHOTS}/${name}.png`, fullPage: true });
}
