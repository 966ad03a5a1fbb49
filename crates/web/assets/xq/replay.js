// @ts-check
// Walking the game: to a move or a ply (one step forward slides the piece, as on a real
// board), taking back the last move, deleting a move and what follows it.

/** @typedef {import('../tree.js').MoveNode} MoveNode */

export class Replay {
  /**
   * @param {import('./game.js').Game} game
   * @param {{ againstComputer: () => boolean, renderMoves: () => void }} page
   */
  constructor(game, page) {
    this.game = game;
    this.page = page;
  }

  /** @param {MoveNode | null | undefined} node */
  goTo(node) {
    const game = this.game;
    if (!node || (node === game.node && game.view)) return;
    const slide = node.parent === game.node ? node.iccs : null;
    game.show({ node }, { slide });
  }

  /** @param {number} ply 0 for the start, Infinity for the line's end */
  goToPly(ply) {
    const game = this.game;
    const line = game.tree.line(game.node);
    const clamped = Math.max(0, Math.min(line.length, ply));
    this.goTo(clamped === 0 ? game.tree.root : line[clamped - 1]);
  }

  /**
   * Takes back the last move; against the computer, its reply and the user's move together.
   * Only at the end of a line: earlier, a move's removal would lose what follows it.
   */
  async undo() {
    let node = this.game.node;
    if (!node.parent || node.children.length) return;
    if (this.page.againstComputer() && node.byComputer && node.parent.parent) node = node.parent;
    await this.remove(node);
  }

  /**
   * Deletes `node` and what follows it and shows its parent; puts it back if that fails.
   * @param {MoveNode} node
   */
  async remove(node) {
    const parent = node.parent;
    const index = parent.children.indexOf(node);
    parent.children.splice(index, 1);
    if (await this.game.show({ node: parent })) {
      parent.children.splice(index, 0, node);
      this.game.tree.remove(node);
      this.page.renderMoves();
    } else {
      parent.children.splice(index, 0, node);
    }
  }
}
