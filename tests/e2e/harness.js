// Shared set-up for the browser tests: the server address and a headless Debian chromium.
//
// scripts/test.d/e2e.sh starts `qi serve --addr 127.0.0.1:0` and passes its address in QI_URL;
// without QI_URL the harness starts target/release/qi itself.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

async function startServer() {
  const binary = process.env.QI_BIN || join(ROOT, 'target', 'release', 'qi');
  const data = mkdtempSync(join(tmpdir(), 'qi-e2e-data-'));
  const child = spawn(binary, ['serve', '--addr', '127.0.0.1:0', '--data', data], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no address from ${binary}: ${out}`)), 15000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = out.match(/http:\/\/[\d.]+:\d+/);
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    });
    child.on('exit', (code) => reject(new Error(`${binary} exited with ${code}: ${out}`)));
  });
  return {
    url,
    stop: () => {
      child.kill();
      rmSync(data, { recursive: true, force: true });
    },
  };
}

// Debian's chromium as root on a closed network: no sandbox, no GPU, no background traffic.
export const CHROMIUM_ARGS = [
  '--no-sandbox', '--headless', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

// A browser with a fresh profile in `profile` (a persistent context: service workers work).
export function launchPersistent(profile, options = {}) {
  return chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, ...options });
}

// A browser for several separate contexts (the players of a room).
export function launchBrowser() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

// A new player: a context of its own in `browser`, in English, and its page.
export async function newPlayerPage(browser) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  await context.addInitScript(() => localStorage.setItem('qi-lang', 'en'));
  return { context, page: await context.newPage() };
}

// Launches the browser (and the server when needed); `close` ends both.
export async function setup() {
  const server = process.env.QI_URL ? { url: process.env.QI_URL.replace(/\/$/, ''), stop() {} } : await startServer();
  const profile = mkdtempSync(join(tmpdir(), 'qi-e2e-'));
  // A fresh profile directory per run (Playwright passes it as --user-data-dir).
  const context = await launchPersistent(profile, { viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  // Every page starts in English, whatever an earlier test switched to.
  await context.addInitScript(() => localStorage.setItem('qi-lang', 'en'));
  // The page answers its API in WebAssembly: record what it asks (api.js announces each call).
  await context.addInitScript(() => {
    window.__apiCalls = [];
    window.addEventListener('qi:api', (e) => window.__apiCalls.push(e.detail));
  });
  return {
    base: server.url,
    context,
    async close() {
      await context.close();
      server.stop();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

// Picks a language in the header's menu and waits until the page shows it (its words are
// downloaded on first use).
export async function pickLanguage(page, lang) {
  await page.selectOption('#lang', lang);
  await page.waitForSelector(`html[lang="${lang}"]`, { state: 'attached' });
}

// Waits until the Xiangqi page has drawn the answer to its latest request.
export async function ready(page) {
  await page.waitForSelector('#board[data-ready="true"]');
}

export async function boardState(page) {
  await ready(page);
  return page.evaluate(() => {
    const b = document.getElementById('board');
    return {
      fen: b.dataset.fen,
      ply: Number(b.dataset.ply),
      plies: Number(b.dataset.plies),
      flipped: b.dataset.flipped === 'true',
      moves: [...document.querySelectorAll('#moves .move')].map((m) => m.textContent),
    };
  });
}

// Screen centre of a board point: the piece on it, else computed from the SVG grid
// (points 60 units apart, 50 from the edge; rotation maps (file, rank) to (8 - file, 9 - rank)).
export async function pointCentre(page, square) {
  return page.evaluate((sq) => {
    const node = document.querySelector(`#board .piece[data-square="${sq}"]`);
    if (node) {
      const r = node.getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
    }
    const svg = document.querySelector('#board svg');
    const flipped = document.getElementById('board').dataset.flipped === 'true';
    const file = 'abcdefghi'.indexOf(sq[0]);
    const rank = Number(sq.slice(1));
    const col = flipped ? 8 - file : file;
    const row = flipped ? rank : 9 - rank;
    const p = new DOMPoint(50 + col * 60, 50 + row * 60).matrixTransform(svg.getScreenCTM());
    return { x: p.x, y: p.y };
  }, square);
}

export async function clickSquare(page, square) {
  const { x, y } = await pointCentre(page, square);
  await page.mouse.click(x, y);
}

// Plays an ICCS move by clicking the piece and then its target.
export async function clickMove(page, iccs) {
  const before = (await boardState(page)).plies;
  await clickSquare(page, iccs.slice(0, 2));
  await clickSquare(page, iccs.slice(2, 4));
  await page.waitForSelector(`#board[data-ready="true"][data-plies="${before + 1}"]`);
}

// The bodies the page sent to its API `path` so far (answered in the page or by the server).
export async function apiCalls(page, path) {
  return page.evaluate((p) => window.__apiCalls.filter((c) => c.path === p).map((c) => c.body), path);
}

// Waits for the page's next call to `path` after `seen` of them, and returns its body.
export async function nextApiCall(page, path, seen) {
  await page.waitForFunction(([p, n]) => window.__apiCalls.filter((c) => c.path === p).length > n, [path, seen]);
  return (await apiCalls(page, path)).at(-1);
}
