// @ts-check
// The embeddable board (/embed?g=…, and the other link forms): a shared game shown on someone
// else's page in an <iframe>. It opens at the last move; the buttons, the arrow keys (Home and
// End too) and the move list replay it; it can be rotated and play itself (`&autoplay=1` starts
// that). Like the board page it answers everything with the WebAssembly in the page (api.js),
// so it works in the static site with no server.

import { api } from './api.js';
import { $, htmlEl } from './dom.js';
import { XiangqiBoard } from './board.js';
import { t, applyText } from './i18n.js';

applyText();

/** How long each move stays on view while the game plays itself. */
const AUTOPLAY_MS = 1200;
/** The link's own fields: kept in the link back to the full board. */
const LINK_FIELDS = ['g', 'p', 'r', 's', 'fen', 'moves'];

const params = new URLSearchParams(location.search);
const board = new XiangqiBoard($('board'), {});
board.interactive = false;

/** @type {string | null} */
let startFen = null;
/** @type {string[]} */
let moves = [];
let ply = 0;
/** @type {any} */
let view = null;
let flipped = params.get('flip') === '1';
/** @type {ReturnType<typeof setInterval> | null} */
let timer = null;
/** The last request for a ply: an older answer that arrives late is dropped. */
let asked = 0;

/** The game in the address, in any of the link forms. */
async function readLink() {
  if (params.has('g') || params.has('p')) {
    const decoded = await api('/api/xq/link', { link: location.search });
    return { fen: decoded.start_fen, list: decoded.moves };
  }
  return { fen: params.get('fen'), list: (params.get('moves') || '').split(/[.,\s]+/).filter(Boolean) };
}

/** The link back to the full board, at the ply on view. */
function fullLink() {
  const out = new URLSearchParams();
  for (const key of LINK_FIELDS) if (params.has(key)) out.set(key, params.get(key) || '');
  if (ply !== moves.length) out.set('ply', String(ply));
  if (flipped) out.set('flip', '1');
  const query = out.toString();
  return `${location.origin}/xq${query ? `?${query}` : ''}`;
}

/** Shows ply `n` (clamped to the game). @param {number} n */
async function show(n) {
  const target = Math.max(0, Math.min(moves.length, n));
  const seq = ++asked;
  const next = await api('/api/xq/game', { fen: startFen, moves, ply: target });
  if (seq !== asked) return;
  const slide = target === ply + 1 ? next.last : null;
  ply = target;
  view = next;
  render(slide);
}

/** @param {string | null} [slide] a move to animate */
function render(slide = null) {
  if (!view) return;
  board.setFlipped(flipped);
  const check = view.check ? Object.keys(view.board).find((sq) => view.board[sq] === (view.turn === 'red' ? 'K' : 'k')) : null;
  board.setPosition({ pieces: view.board, legal: [], last: view.last, checkSquare: check || null, slide });
  const dataset = $('board').dataset;
  dataset.fen = view.fen;
  dataset.ply = String(ply);
  dataset.flipped = String(flipped);
  dataset.ready = 'true';
  $('ply-label').textContent = ply === 0 ? t('embed.start', { plies: moves.length }) : t('embed.ply', { ply, plies: moves.length });
  $('first').disabled = $('prev').disabled = ply === 0;
  $('next').disabled = $('last').disabled = ply === moves.length;
  $('full').href = fullLink();
  const list = $('moves');
  list.replaceChildren(
    ...view.moves.map((/** @type {{ chinese: string }} */ m, /** @type {number} */ i) =>
      htmlEl('li', { class: i + 1 === ply ? 'current' : '' },
        htmlEl('button', { type: 'button', 'data-ply': String(i + 1), text: m.chinese, onclick: () => go(i + 1) }))),
  );
  list.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
}

/** A step asked for by the user: it stops the autoplay. @param {number} n */
function go(n) {
  stopAutoplay();
  show(n);
}

function stopAutoplay() {
  if (timer !== null) clearInterval(timer);
  timer = null;
  $('autoplay').setAttribute('aria-pressed', 'false');
}

function startAutoplay() {
  stopAutoplay();
  if (ply === moves.length) show(0);
  $('autoplay').setAttribute('aria-pressed', 'true');
  timer = setInterval(() => {
    if (ply >= moves.length) stopAutoplay();
    else show(ply + 1);
  }, AUTOPLAY_MS);
}

$('first').addEventListener('click', () => go(0));
$('prev').addEventListener('click', () => go(ply - 1));
$('next').addEventListener('click', () => go(ply + 1));
$('last').addEventListener('click', () => go(moves.length));
$('flip').addEventListener('click', () => {
  flipped = !flipped;
  render();
});
$('autoplay').addEventListener('click', () => (timer === null ? startAutoplay() : stopAutoplay()));
document.addEventListener('keydown', (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const steps = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: moves.length };
  if (!(event.key in steps)) return;
  event.preventDefault();
  go(steps[/** @type {keyof typeof steps} */ (event.key)]);
});

async function main() {
  try {
    const { fen, list } = await readLink();
    startFen = fen;
    moves = list;
    const wanted = params.has('ply') ? Number(params.get('ply')) || 0 : moves.length;
    await show(wanted);
    if (params.get('autoplay') === '1') startAutoplay();
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    $('message').textContent = t('embed.bad', { why });
    $('board').dataset.ready = 'true';
  }
}

main();
