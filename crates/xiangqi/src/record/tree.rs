//! A move tree as the binary formats store it (each node: a move, a comment, its replies, the
//! first reply being the main continuation), and its conversion to and from [`Line`].

use super::{RecordErrorKind, MAX_COMMENT_BYTES, MAX_TREE_MOVES, MAX_VARIATION_DEPTH};
use crate::pgn::{Line, PgnMove};
use crate::{check_game_length, Move, Position};

/// One node of a [`Tree`]: a move (none at the root), the comment after it, the replies.
#[derive(Clone, Debug, Default)]
pub(crate) struct Node {
    /// The move; `None` at the root.
    pub mv: Option<Move>,
    /// The comment after the move (at the root: before the first move).
    pub comment: Option<String>,
    /// Replies: the first continues the line, the others are its alternatives.
    pub children: Vec<usize>,
    /// Where the node was read (an offset or a line), for errors.
    pub at: usize,
}

/// An arena of nodes, node 0 being the root.
#[derive(Clone, Debug)]
pub(crate) struct Tree {
    pub nodes: Vec<Node>,
}

/// A failure with the place (`Node::at`) it was found.
pub(crate) type Failure = (usize, RecordErrorKind);

impl Tree {
    pub fn new(at: usize) -> Tree {
        Tree { nodes: vec![Node { at, ..Node::default() }] }
    }

    /// Adds a node below `parent` and returns its index.
    pub fn add(&mut self, parent: usize, mv: Move, at: usize) -> Result<usize, Failure> {
        if self.nodes.len() > MAX_TREE_MOVES {
            return Err((at, RecordErrorKind::TooManyMoves));
        }
        let id = self.nodes.len();
        self.nodes.push(Node { mv: Some(mv), comment: None, children: Vec::new(), at });
        self.nodes[parent].children.push(id);
        Ok(id)
    }

    /// The root comment and the main line with its variations, every move checked from
    /// `start`.
    pub fn to_line(&self, start: &Position) -> Result<Line, Failure> {
        let mut line = self.line(&self.nodes[0].children, start.clone(), 0, 0)?;
        line.comment = self.nodes[0].comment.clone();
        Ok(line)
    }

    /// The line that takes `options[0]`, with `options[1..]` as its variations.
    fn line(&self, options: &[usize], mut pos: Position, ply: usize, depth: usize) -> Result<Line, Failure> {
        let mut line = Line::default();
        let mut options = options;
        while let Some((&first, alternatives)) = options.split_first() {
            let node = &self.nodes[first];
            let played = ply + line.moves.len() + 1;
            let mut variations = Vec::with_capacity(alternatives.len());
            for &alt in alternatives {
                if depth >= MAX_VARIATION_DEPTH {
                    return Err((self.nodes[alt].at, RecordErrorKind::TooDeep));
                }
                variations.push(self.line(&[alt], pos.clone(), played - 1, depth + 1)?);
            }
            let mv = self.check(first, &mut pos, played)?;
            line.moves.push(PgnMove { mv, comment: node.comment.clone(), variations });
            options = &node.children;
        }
        Ok(line)
    }

    /// Plays node `id`'s move in `pos`, checking it and the line's length.
    fn check(&self, id: usize, pos: &mut Position, ply: usize) -> Result<Move, Failure> {
        let node = &self.nodes[id];
        let mv = node.mv.expect("only the root has no move");
        check_game_length(ply).map_err(|e| (node.at, RecordErrorKind::TooLong(e)))?;
        let number = pos.fullmoves();
        pos.play(mv)
            .map_err(|_| (node.at, RecordErrorKind::BadMove { ply, number, text: mv.to_string(), error: None }))?;
        Ok(mv)
    }

    /// The tree of a game's line: the inverse of [`Tree::to_line`].
    pub fn from_line(line: &Line) -> Tree {
        let mut tree = Tree::new(0);
        tree.nodes[0].comment = line.comment.clone();
        tree.graft(0, line);
        tree
    }

    fn graft(&mut self, mut parent: usize, line: &Line) {
        for m in &line.moves {
            let id = self.nodes.len();
            self.nodes.push(Node { mv: Some(m.mv), comment: m.comment.clone(), children: Vec::new(), at: 0 });
            self.nodes[parent].children.push(id);
            for v in &m.variations {
                self.graft(parent, v);
            }
            parent = id;
        }
    }
}

/// Checks a comment's length.
pub(crate) fn check_comment(text: String, at: usize) -> Result<Option<String>, Failure> {
    if text.len() > MAX_COMMENT_BYTES {
        return Err((at, RecordErrorKind::CommentTooLong(text.len())));
    }
    let t = text.trim();
    if t.is_empty() {
        Ok(None)
    } else if t.len() == text.len() {
        Ok(Some(text))
    } else {
        Ok(Some(t.to_string()))
    }
}

/// How many alternative moves a line holds, counting nested variations: the `variations` of
/// `qi record show --json`.
///
/// ```
/// let game = &xiangqi::pgn::read_games("1. h2e2 (1. h2d2 (1. b2e2)) h9g7 (1... b9c7) *")[0];
/// assert_eq!(xiangqi::record::count_variations(&game.as_ref().unwrap().line), 3);
/// ```
pub fn count_variations(line: &Line) -> usize {
    line.moves.iter().map(|m| m.variations.len() + m.variations.iter().map(count_variations).sum::<usize>()).sum()
}

/// How many comments a line holds, counting the one before its first move and those in
/// variations.
pub fn count_comments(line: &Line) -> usize {
    usize::from(line.comment.is_some())
        + line
            .moves
            .iter()
            .map(|m| usize::from(m.comment.is_some()) + m.variations.iter().map(count_comments).sum::<usize>())
            .sum::<usize>()
}
