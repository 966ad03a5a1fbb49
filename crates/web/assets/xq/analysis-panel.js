// @ts-check
// The analysis panel: the engine's best lines for the move on view while "Analyse" is on (with
// the evaluation bar and the best move's arrow), and the review of the main line (its graph,
// the judged moves, each side's count).

import { $ } from '../dom.js';
import { t } from '../i18n.js';
import { LiveAnalysis, renderEvalBar, formatEval, review, renderGraph } from '../analysis.js';
import { numbering } from './game.js';
import { MARKS } from './moves.js';

/** @typedef {import('../tree.js').MoveNode} MoveNode */
/** @typedef {import('../analysis.js').InfoView} InfoView */
/** @typedef {import('../analysis.js').PositionScore} PositionScore */
/** @typedef {import('../analysis.js').MoveJudgement} MoveJudgement */

/**
 * What the panel needs of the page.
 * @typedef {object} AnalysisPage
 * @property {import('./messages.js').Messages} messages
 * @property {() => boolean} editing the position editor is open (no analysis then)
 * @property {(node: MoveNode | null | undefined) => void} goTo
 * @property {() => void} renderMoves
 * @property {() => void} renderArrows
 */

export class AnalysisPanel {
  /**
   * @param {import('./game.js').Game} game
   * @param {AnalysisPage} page
   */
  constructor(game, page) {
    this.game = game;
    this.page = page;
    /** @type {MoveNode | null} the move being analysed */
    this.node = null;
    /** @type {{ node: MoveNode | null, info: InfoView } | null} the latest lines, and for which move */
    this.info = null;
    /** @type {{ scores: PositionScore[], judgements: MoveJudgement[], plies: number, done: boolean } | null} */
    this.reviewed = null;
    /** @type {(() => void) | null} */
    this.cancelReview = null;
    this.live = new LiveAnalysis({
      onInfo: (info) => {
        this.info = { node: this.node, info };
        this.render();
      },
      onError: (error) => page.messages.say({ error }, 'error'),
    });
  }

  get on() {
    return !!$('analyse').checked;
  }

  /** Starts or stops the live analysis for the move on view. */
  update() {
    const game = this.game;
    const on = this.on && !this.page.editing();
    $('analysis').hidden = !on;
    $('eval-bar').hidden = !on;
    if (!on) {
      this.live.stop();
      return;
    }
    if (this.node !== game.node) {
      this.node = game.node;
      this.info = null;
    }
    this.render();
    this.live.start({
      fen: game.fen,
      moves: game.pathMoves(),
      multipv: Number($('multipv').value) || 1,
      movetime_ms: 8000,
    });
  }

  /** The lines for the move on view, or null while none has come. */
  current() {
    return this.info?.node === this.game.node ? this.info.info : null;
  }

  render() {
    const game = this.game;
    const info = this.current();
    renderEvalBar($('eval-bar'), info?.lines[0]?.eval ?? null, game.flipped);
    $('analysis-depth').textContent = info ? t('analysis.depth', { depth: info.depth, nodes: info.nodes.toLocaleString() }) : t('analysis.thinking');
    const list = $('lines');
    list.replaceChildren();
    if (info && !info.lines.length) list.appendChild(Object.assign(document.createElement('li'), { textContent: t('analysis.noMoves') }));
    for (const line of info?.lines ?? []) {
      const li = document.createElement('li');
      li.appendChild(Object.assign(document.createElement('span'), { className: 'score', textContent: formatEval(line.eval) }));
      const moves = line.pv.slice(0, 12).map((m) => game.moveText(m)).join(' ');
      li.appendChild(Object.assign(document.createElement('span'), { className: 'pv', textContent: moves }));
      li.dataset.first = line.pv[0]?.iccs || '';
      list.appendChild(li);
    }
    this.page.renderArrows();
  }

  /** The best move's arrow while analysing. */
  arrows() {
    const best = this.current()?.lines[0]?.pv[0];
    return this.on && best ? [{ from: best.iccs.slice(0, 2), to: best.iccs.slice(2, 4), kind: 'best' }] : [];
  }

  /** Forgets the lines (the number of lines changed). */
  restart() {
    this.node = null;
  }

  /** Scores every position of the main line, then judges its moves. */
  startReview() {
    const game = this.game;
    if (this.cancelReview) this.cancelReview();
    const main = game.tree.mainLine();
    for (const n of main) delete n.review;
    this.reviewed = { scores: [], judgements: [], plies: main.length, done: false };
    $('review-box').hidden = false;
    this.renderReview();
    this.cancelReview = review({ fen: game.fen, moves: main.map((n) => n.iccs) }, {
      onPosition: (score) => {
        this.reviewed.scores.push(score);
        this.renderReview();
      },
      onDone: (judgements) => {
        this.reviewed.done = true;
        this.reviewed.judgements = judgements;
        const nodes = game.tree.mainLine();
        for (const j of judgements) if (nodes[j.ply - 1]) nodes[j.ply - 1].review = j;
        this.cancelReview = null;
        this.page.renderMoves();
        this.renderReview();
      },
      onError: (error) => {
        this.page.messages.say({ error }, 'error');
        this.cancelReview = null;
      },
    });
  }

  /** Hides the review (a new game was loaded). */
  clearReview() {
    this.reviewed = null;
    $('review-box').hidden = true;
  }

  renderReview() {
    const r = this.reviewed;
    if (!r) return;
    const game = this.game;
    $('review-status').textContent = r.done
      ? t('review.done')
      : t('review.progress', { done: r.scores.length, total: r.plies + 1 });
    const onMain = game.tree.isMain(game.node);
    renderGraph($('review-graph'), {
      scores: r.scores,
      plies: r.plies,
      judgements: r.judgements,
      current: onMain ? game.tree.ply(game.node) : null,
      onPick: (ply) => this.page.goTo(ply === 0 ? game.tree.root : game.tree.mainLine()[ply - 1]),
      label: t('review.graph'),
    });
    const summary = $('review-summary');
    summary.replaceChildren();
    if (!r.done) return;
    const { isRed } = numbering(game.view.start_fen);
    /** @type {Record<'red' | 'black', Record<string, number>>} */
    const count = { red: {}, black: {} };
    const items = [];
    for (const j of r.judgements) {
      if (!j.judgement) continue;
      const side = isRed(j.ply) ? 'red' : 'black';
      count[side][j.judgement] = (count[side][j.judgement] || 0) + 1;
      const node = game.tree.mainLine()[j.ply - 1];
      const better = j.better ? t('judge.better', { move: game.moveText(j.better) }) : '';
      const button = document.createElement('button');
      button.type = 'button';
      button.className = `judged ${j.judgement}`;
      button.dataset.ply = String(j.ply);
      button.textContent = `${game.moveText(node)}${MARKS[j.judgement]} ${t(`judge.${j.judgement}`)}${better ? ` — ${better}` : ''}`;
      button.addEventListener('click', () => this.page.goTo(node.parent));
      items.push(button);
    }
    for (const side of /** @type {const} */ (['red', 'black'])) {
      const c = count[side];
      const line = document.createElement('div');
      line.className = 'judge-count';
      line.textContent = `${t(`side.${side}`)}: ${['inaccuracy', 'mistake', 'blunder'].map((k) => t(`judge.count.${k}`, { n: c[k] || 0 })).join(', ')}`;
      summary.appendChild(line);
    }
    summary.append(...items);
  }
}
