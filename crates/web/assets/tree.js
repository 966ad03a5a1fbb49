// @ts-check
// The game as a tree of moves: playing a different move from an earlier point makes a branch
// instead of deleting the rest. A node's first child is its main continuation, the others are
// variations. Nodes carry the move in ICCS and, once the server has named it, in WXF and Chinese.

/**
 * A move of the tree (the root, with no move, is the start position).
 * @typedef {object} MoveNode
 * @property {number} id unique on the page
 * @property {string | null} iccs null for the root
 * @property {string | null} wxf
 * @property {string | null} chinese
 * @property {string | null} [traditional] Chinese in traditional characters
 * @property {string | null} [vietnamese]
 * @property {string} comment
 * @property {MoveNode[]} children the first continues the line, the others are variations
 * @property {MoveNode | null} parent
 * @property {boolean} [byComputer] played by the computer (undo takes it back with the user's move)
 * @property {import('./analysis.js').MoveJudgement} [review] the review's verdict on it
 */

/** A move of a record's tree, as the API reads and writes it. @typedef {import('./qi/index.js').RecordNode} RecordNode */

let nextId = 1;

/**
 * @param {string | null} iccs
 * @param {MoveNode | null} parent
 * @returns {MoveNode}
 */
function makeNode(iccs, parent) {
  return { id: nextId++, iccs, wxf: null, chinese: null, traditional: null, vietnamese: null, comment: '', children: [], parent };
}

export class GameTree {
  constructor() {
    this.root = makeNode(null, null);
    this.byId = new Map([[this.root.id, this.root]]);
  }

  /**
   * A tree from a plain line of ICCS moves.
   * @param {string[]} moves
   */
  static fromMoves(moves) {
    const tree = new GameTree();
    let node = tree.root;
    for (const m of moves) node = tree.add(node, m);
    return tree;
  }

  /**
   * A tree from the server's record import ({iccs, wxf, chinese, comment, children}).
   * @param {RecordNode[]} nodes
   * @param {string | null} [comment]
   */
  static fromRecord(nodes, comment = '') {
    const tree = new GameTree();
    tree.root.comment = comment || '';
    const attach = (parent, list) => {
      // Iterative along first children, so a long main line needs no deep recursion.
      /** @type {[MoveNode, RecordNode[]][]} */
      const pending = [[parent, list]];
      while (pending.length) {
        const [p, items] = pending.pop();
        for (const item of items) {
          const node = tree.add(p, item.iccs);
          node.wxf = item.wxf || null;
          node.chinese = item.chinese || null;
          node.traditional = item.traditional || null;
          node.vietnamese = item.vietnamese || null;
          node.comment = item.comment || '';
          if (item.children?.length) pending.push([node, item.children]);
        }
      }
    };
    attach(tree.root, nodes);
    return tree;
  }

  /**
   * @param {string | number} id
   * @returns {MoveNode | null}
   */
  node(id) {
    return this.byId.get(Number(id)) || null;
  }

  /**
   * The child of `parent` playing `iccs`, made (as the last variation) when new.
   * @param {MoveNode} parent
   * @param {string} iccs
   */
  add(parent, iccs) {
    const existing = parent.children.find((c) => c.iccs === iccs);
    if (existing) return existing;
    const node = makeNode(iccs, parent);
    parent.children.push(node);
    this.byId.set(node.id, node);
    return node;
  }

  /**
   * The moves from the start to `node` (the root excluded).
   * @param {MoveNode} node
   */
  path(node) {
    /** @type {MoveNode[]} */
    const out = [];
    for (let n = node; n && n.parent; n = n.parent) out.push(n);
    return out.reverse();
  }

  /**
   * The path to `node` and then its main continuation: the line the board shows.
   * @param {MoveNode} node
   */
  line(node) {
    const out = this.path(node);
    for (let n = node.children[0]; n; n = n.children[0]) out.push(n);
    return out;
  }

  mainLine() {
    return this.line(this.root);
  }

  /** @param {MoveNode} node */
  ply(node) {
    return this.path(node).length;
  }

  /**
   * Whether every move up to `node` is a first child.
   * @param {MoveNode} node
   */
  isMain(node) {
    for (let n = node; n.parent; n = n.parent) if (n.parent.children[0] !== n) return false;
    return true;
  }

  /**
   * The variation `node` is in: the nearest node on its path that is not a first child.
   * @param {MoveNode} node
   * @returns {MoveNode | null}
   */
  branchOf(node) {
    for (let n = node; n.parent; n = n.parent) if (n.parent.children[0] !== n) return n;
    return null;
  }

  /**
   * Moves the variation holding `node` one step up (it becomes its parent's first child).
   * @param {MoveNode} node
   */
  promote(node) {
    const branch = this.branchOf(node);
    if (!branch) return false;
    const siblings = branch.parent.children;
    siblings.splice(siblings.indexOf(branch), 1);
    siblings.unshift(branch);
    return true;
  }

  /**
   * Deletes `node` and everything after it; returns its parent.
   * @param {MoveNode} node
   */
  remove(node) {
    const parent = node.parent;
    if (!parent) return node;
    parent.children.splice(parent.children.indexOf(node), 1);
    const stack = [node];
    while (stack.length) {
      const n = stack.pop();
      this.byId.delete(n.id);
      stack.push(...n.children);
    }
    return parent;
  }

  /**
   * The tree in the server's record form.
   * @returns {RecordNode[]}
   */
  toRecord() {
    /** @param {MoveNode} n @returns {RecordNode} */
    const convert = (n) => ({ iccs: n.iccs, comment: n.comment || undefined, children: n.children.map(convert) });
    return this.root.children.map(convert);
  }
}
