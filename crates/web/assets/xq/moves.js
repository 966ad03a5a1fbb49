// @ts-check
// The move list: the main line as numbered pairs; each variation indented below the move it
// replaces, its own variations indented further (as lichess and vschess show them). Judged
// moves carry the review's mark; the move on view is marked as the current step.

import { $ } from '../dom.js';
import { t } from '../i18n.js';
import { numbering } from './game.js';

/** @typedef {import('../tree.js').MoveNode} MoveNode */

/** The review's marks after a judged move. */
export const MARKS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

export class MoveList {
  /** @param {import('./game.js').Game} game */
  constructor(game) {
    this.game = game;
  }

  /**
   * @param {MoveNode} node
   * @param {number} ply
   * @param {boolean} onLine
   */
  button(node, ply, onLine) {
    const game = this.game;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'move';
    button.dataset.node = String(node.id);
    if (onLine) button.dataset.ply = String(ply);
    button.textContent = node.parent ? game.moveText(node) : t('msg.start');
    const judged = node.review?.judgement;
    if (judged) {
      button.classList.add(judged);
      const mark = document.createElement('span');
      mark.className = 'mark';
      mark.textContent = MARKS[judged];
      button.appendChild(mark);
      button.title = `${t(`judge.${judged}`)}${node.review.better ? ` — ${t('judge.better', { move: game.moveText(node.review.better) })}` : ''}`;
    }
    if (node.comment) button.classList.add('has-comment');
    if (node === game.node) button.setAttribute('aria-current', 'step');
    return button;
  }

  render() {
    const game = this.game;
    const select = $('notation');
    select.value = game.moveNotation();
    const list = $('moves');
    list.replaceChildren();
    const onLine = new Set(game.tree.line(game.node));
    const { isRed, number } = numbering(game.view.start_fen);
    const startItem = document.createElement('li');
    startItem.className = 'start';
    startItem.appendChild(this.button(game.tree.root, 0, true));
    list.appendChild(startItem);
    if (game.tree.root.comment) list.appendChild(Object.assign(document.createElement('li'), { className: 'comment-row', textContent: game.tree.root.comment }));

    let item = null;
    let ply = 0;
    for (let node = game.tree.root.children[0]; node; node = node.children[0]) {
      ply += 1;
      const red = isRed(ply);
      if (red || !item) {
        item = document.createElement('li');
        const num = document.createElement('span');
        num.className = 'num';
        num.textContent = `${number(ply)}.`;
        item.appendChild(num);
        if (!red) item.appendChild(Object.assign(document.createElement('span'), { className: 'move-gap', textContent: '…' }));
        list.appendChild(item);
      }
      item.appendChild(this.button(node, ply, onLine.has(node)));
      // A comment is read in the list, under its move (a ✎ alone hid it).
      if (node.comment) {
        list.appendChild(Object.assign(document.createElement('li'), { className: 'comment-row', textContent: node.comment }));
        item = null;
      }
      const alternatives = node.parent.children.slice(1);
      if (alternatives.length) {
        const block = document.createElement('li');
        block.className = 'variations';
        for (const alt of alternatives) block.appendChild(this.variation(alt, ply, onLine, 1));
        list.appendChild(block);
        item = null; // the row's other move starts a new row after the variations
      }
      if (!red) item = null;
    }

    // Keep the move on view visible inside the list without scrolling the page.
    const current = list.querySelector('[aria-current="step"]');
    if (current && list.scrollHeight > list.clientHeight) {
      const top = current.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - current.offsetHeight) {
        list.scrollTop = top - list.clientHeight / 2;
      }
    }
  }

  /**
   * One variation starting with `first` (at `ply`), moves inline, deeper variations nested.
   * @param {MoveNode} first
   * @param {number} ply
   * @param {Set<MoveNode>} onLine
   * @param {number} depth
   * @returns {HTMLDivElement}
   */
  variation(first, ply, onLine, depth) {
    const { isRed, number } = numbering(this.game.view.start_fen);
    const block = document.createElement('div');
    block.className = 'variation';
    block.style.setProperty('--depth', String(depth));
    let p = ply;
    let lead = true;
    for (let node = first; node; node = node.children[0]) {
      if (isRed(p) || lead) {
        const num = document.createElement('span');
        num.className = 'num';
        num.textContent = isRed(p) ? `${number(p)}.` : `${number(p)}…`;
        block.appendChild(num);
      }
      lead = false;
      block.appendChild(this.button(node, p, onLine.has(node)));
      if (node.comment) block.appendChild(Object.assign(document.createElement('span'), { className: 'comment', textContent: node.comment }));
      const alternatives = node !== first ? node.parent.children.slice(1) : [];
      for (const alt of alternatives) {
        block.appendChild(this.variation(alt, p, onLine, depth + 1));
        lead = true;
      }
      p += 1;
    }
    return block;
  }
}
