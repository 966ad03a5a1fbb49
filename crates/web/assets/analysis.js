// @ts-check
// Engine analysis on the page: the live stream of best lines for the position on view, and the
// review of a whole game (each position scored, an evaluation graph, judged moves).
// The engine searches in a Web Worker (api.js's `stream`, the same events as the server's
// `/api/xq/analyse` and `/api/xq/review`); this module starts and stops the searches and draws
// the results.

import { stream } from './api.js';

const SVG = 'http://www.w3.org/2000/svg';

/** @typedef {import('./qi/index.js').MoveView} MoveView */
/** A score from Red's side: centipawns, or moves to mate (negative: Black mates). @typedef {{ cp: number, mate?: number | null }} Eval */
/** One of the best lines. @typedef {{ eval: Eval, pv: MoveView[] }} LineView */
/** What a completed depth found, best line first. @typedef {{ depth: number, nodes: number, time_ms: number, lines: LineView[] }} InfoView */
/** One position of a reviewed game (ply 0 = the start). @typedef {{ ply: number, eval: Eval, best?: MoveView | null }} PositionScore */
/**
 * One move judged: the winning-chance points it lost, how bad that was, the engine's move instead.
 * @typedef {{ ply: number, loss: number, judgement: 'inaccuracy' | 'mistake' | 'blunder' | null, better: MoveView | null }} MoveJudgement
 */

/**
 * Red's winning chances in percent for an evaluation {cp, mate} from Red's side (the server
 * judges moves with the same curve).
 * @param {Eval} evaluation
 */
export function winPercent({ cp, mate }) {
  if (mate != null) return mate > 0 || (mate === 0 && cp > 0) ? 100 : 0;
  return 50 + 50 * (2 / (1 + Math.exp(-0.004 * cp)) - 1);
}

/**
 * "+1.2", "-0.4", "#3" (Red mates in 3), "#-2" (Black mates in 2).
 * @param {Eval} evaluation
 */
export function formatEval({ cp, mate }) {
  if (mate != null) return `#${mate}`;
  const pawns = cp / 100;
  return `${pawns > 0 ? '+' : ''}${pawns.toFixed(1)}`;
}

// One live analysis at a time: starting another (the position changed) closes the previous
// stream, so the server stops that search.
export class LiveAnalysis {
  /**
   * @param {{ onInfo: (info: InfoView, done: boolean) => void, onError: (error: any) => void, onDone?: () => void }} handlers
   */
  constructor({ onInfo, onError, onDone }) {
    this.onInfo = onInfo;
    this.onError = onError;
    this.onDone = onDone || (() => {});
    /** @type {AbortController | null} */
    this.controller = null;
    /** @type {string | null} */
    this.key = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.retry = undefined;
  }

  /**
   * Analyses `request` (the body of `/api/xq/analyse`) unless it is already being analysed.
   * @param {object} request
   * @param {number} [retries] tries left while the engine is busy
   */
  start(request, retries = 5) {
    const key = JSON.stringify(request);
    if (key === this.key && this.controller) return; // already analysing this position
    this.stop();
    clearTimeout(this.retry);
    this.key = key;
    const controller = new AbortController();
    this.controller = controller;
    stream('/api/xq/analyse', request, (name, data) => {
      if (controller.signal.aborted) return;
      if (name === 'info' || name === 'done') this.onInfo(data, name === 'done');
    }, { signal: controller.signal })
      .then(() => {
        if (!controller.signal.aborted) this.onDone();
      })
      .catch((error) => {
        if (controller.signal.aborted || error.name === 'AbortError') return;
        // The previous position's search may still be giving its slot back: try again shortly.
        if (error.code === 'busy' && retries > 0) {
          this.controller = null;
          this.key = null;
          this.retry = setTimeout(() => this.start(request, retries - 1), 400);
          return;
        }
        this.onError(error);
      })
      .finally(() => {
        if (this.controller === controller) this.controller = null;
      });
  }

  stop() {
    clearTimeout(this.retry);
    if (this.controller) this.controller.abort();
    this.controller = null;
    this.key = null;
  }
}

/**
 * Draws the evaluation bar: Red's share from the bottom (from the top when the board is rotated).
 * @param {HTMLElement} node
 * @param {Eval | null} evaluation
 * @param {boolean} flipped
 */
export function renderEvalBar(node, evaluation, flipped) {
  const red = evaluation ? winPercent(evaluation) : 50;
  node.style.setProperty('--red-share', `${red}%`);
  node.classList.toggle('flipped', flipped);
  node.querySelector('.eval-label').textContent = evaluation ? formatEval(evaluation) : '';
  node.dataset.eval = evaluation ? formatEval(evaluation) : '';
  node.setAttribute('aria-valuenow', String(Math.round(red)));
}

/**
 * Review: scores every position of `request`'s game, calling onPosition({ply, eval, best}) as
 * they come and onDone(judgements) at the end. Returns a function that cancels it.
 * @param {{ fen?: string, moves: string[] }} request
 * @param {{ onPosition: (score: PositionScore) => void, onDone: (judgements: MoveJudgement[]) => void, onError: (error: any) => void }} handlers
 * @returns {() => void}
 */
export function review(request, { onPosition, onDone, onError }) {
  const controller = new AbortController();
  stream('/api/xq/review', request, (name, data) => {
    if (name === 'position') onPosition(data);
    else if (name === 'done') onDone(data);
  }, { signal: controller.signal }).catch((error) => {
    if (!controller.signal.aborted && error.name !== 'AbortError') onError(error);
  });
  return () => controller.abort();
}

/**
 * The evaluation graph of a review: Red's winning chances over the plies, judged moves marked,
 * the ply on view as a vertical line; clicking a point calls onPick(ply).
 * @param {HTMLElement} container
 * @param {{ scores: PositionScore[], plies: number, judgements: MoveJudgement[] | null, current: number | null,
 *   onPick: (ply: number) => void, label: string }} graph
 */
export function renderGraph(container, { scores, plies, judgements, current, onPick, label }) {
  const width = 400;
  const height = 110;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('class', 'eval-graph');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  /** @param {number} ply */
  const x = (ply) => (plies ? (ply / plies) * width : 0);
  /** @param {PositionScore} s */
  const y = (s) => height - (winPercent(s.eval) / 100) * height;
  /**
   * @param {string} name
   * @param {Record<string, string | number>} attrs
   */
  const add = (name, attrs) => {
    const n = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
    svg.appendChild(n);
    return n;
  };
  add('rect', { x: 0, y: 0, width, height, class: 'graph-bg' });
  add('line', { x1: 0, y1: height / 2, x2: width, y2: height / 2, class: 'graph-mid' });
  const sorted = [...scores].sort((a, b) => a.ply - b.ply);
  if (sorted.length) {
    const points = sorted.map((s) => `${x(s.ply).toFixed(1)},${y(s).toFixed(1)}`);
    add('polygon', { points: `0,${height} ${points.join(' ')} ${x(sorted.at(-1).ply).toFixed(1)},${height}`, class: 'graph-area' });
    add('polyline', { points: points.join(' '), class: 'graph-line' });
  }
  for (const j of judgements || []) {
    if (!j.judgement) continue;
    const s = sorted.find((p) => p.ply === j.ply);
    if (s) add('circle', { cx: x(j.ply), cy: y(s), r: 4, class: `graph-mark ${j.judgement}`, 'data-ply': j.ply });
  }
  if (current != null) add('line', { x1: x(current), y1: 0, x2: x(current), y2: height, class: 'graph-now' });
  svg.addEventListener('click', (e) => {
    const box = svg.getBoundingClientRect();
    const ply = Math.round(((e.clientX - box.left) / box.width) * plies);
    onPick(Math.max(0, Math.min(plies, ply)));
  });
  container.replaceChildren(svg);
}
