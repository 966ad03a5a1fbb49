//! Xiangqi PGN: reading and writing game records.
//!
//! Reads `[Tag "value"]` pairs (`FEN` sets the start position), move numbers, moves in any of
//! the notations (whatever the `Format` tag says, except that `[Format "Vietnamese"]` reads
//! `P3.4` as Vietnamese rather than WXF), comments `{...}` and `; ...`, variations `(...)`
//! (kept, nested), NAGs and `!?` marks (dropped), and the result. A file
//! holds any number of games; a game that does not read is reported with its number, line
//! and reason, and the others still read. [`decode`] turns UTF-8 or GBK bytes into text.
//!
//! ```
//! use xiangqi::notation::Notation;
//! use xiangqi::pgn;
//! let text = "[Game \"Chinese Chess\"]\n[Red \"Hu\"]\n\n1. 炮二平五 马8进7 {a comment} 2. H2+3 (2. h0g2) R9.8 1-0\n";
//! let games = pgn::read_games(text);
//! let game = games[0].as_ref().unwrap();
//! assert_eq!(game.tag("Red"), Some("Hu"));
//! assert_eq!(game.main_line().len(), 4);
//! let out = game.write(Notation::Wxf);
//! assert!(out.contains("[Format \"WXF\"]"));
//! assert!(out.contains("1. C2.5 H8+7 {a comment} 2. H2+3 (2. H2+3) 2... R9.8 1-0"), "{out}");
//! ```

mod decode;
mod lexer;
mod reader;
mod writer;

pub use decode::decode;
pub use reader::{games, read_games, Games};

use crate::notation::NotationError;
use crate::{Excerpt, FenError, GameTooLong, Move, Position};
use core::fmt;

/// One game: tags, start position, the moves with their comments and variations, the result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// Tags in the order read.
    pub tags: Vec<(String, String)>,
    /// From the `FEN` tag, else the standard start.
    pub start: Position,
    /// The main line.
    pub line: Line,
    /// `1-0`, `0-1`, `1/2-1/2` or `*` after the moves, else the `Result` tag when it holds one
    /// of these. The writer ends the movetext with `*` for any other value.
    pub result: Option<String>,
}

/// A sequence of moves, with the comment before the first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// The comment before the first move (in a variation: right after its `(`).
    pub comment: Option<String>,
    /// The moves in order, the first played from the line's start position.
    pub moves: Vec<PgnMove>,
}

/// A move with the comment after it and the variations that replace it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnMove {
    /// The move, legal in the position before it.
    pub mv: Move,
    /// The comment after the move (several `{...}` in a row are joined with a space).
    pub comment: Option<String>,
    /// Alternatives to this move, each starting from the position before it.
    pub variations: Vec<Line>,
}

impl PgnGame {
    /// A game from `start` with these moves and no tags.
    pub fn new(start: Position, moves: &[Move]) -> PgnGame {
        let moves = moves.iter().map(|&mv| PgnMove { mv, comment: None, variations: Vec::new() }).collect();
        PgnGame { tags: Vec::new(), start, line: Line { comment: None, moves }, result: None }
    }

    /// The value of a tag (the first, if repeated).
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing its value or adding it at the end.
    pub fn set_tag(&mut self, key: &str, value: &str) {
        match self.tags.iter_mut().find(|(k, _)| k == key) {
            Some(slot) => slot.1 = value.to_string(),
            None => self.tags.push((key.to_string(), value.to_string())),
        }
    }

    /// The moves of the main line.
    pub fn main_line(&self) -> Vec<Move> {
        self.line.moves.iter().map(|m| m.mv).collect()
    }

    /// The position after the main line.
    pub fn end_position(&self) -> Position {
        let mut pos = self.start.clone();
        for m in &self.line.moves {
            pos.play_unchecked(m.mv);
        }
        pos
    }
}

/// Why a game did not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// 1-based number of the game in the file.
    pub game: usize,
    /// 1-based line where the problem is.
    pub line: usize,
    /// What is wrong there.
    pub kind: PgnErrorKind,
}

/// What went wrong in a game.
///
/// The PGN reader has grown new checks before ([`PgnErrorKind::TooDeep`]) and may again, so
/// the enum is `#[non_exhaustive]`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PgnErrorKind {
    /// A tag line that is not `[Key "Value"]` (the line as written).
    BadTag(String),
    /// The `FEN` tag is not a legal position.
    BadFen(FenError),
    /// A move that does not read or is not legal.
    BadMove {
        /// The move number of the position the move was read in (from the start position's
        /// move counter, so both moves after `2.` are number 2).
        number: u32,
        /// The move as written.
        text: String,
        /// Why it does not read in the position reached.
        error: NotationError,
    },
    /// `(` before any move, `)` without `(`, or `(` never closed.
    UnbalancedVariation,
    /// `{` never closed.
    UnterminatedComment,
    /// A comment (or comments in a row, which read as one) longer than
    /// [`MAX_COMMENT_BYTES`], with its length in bytes: the bound every record
    /// reader keeps.
    CommentTooLong(usize),
    /// A result inside a variation.
    ResultInVariation,
    /// Variations nested deeper than [`MAX_VARIATION_DEPTH`].
    TooDeep,
    /// A line (the main line, or a variation counted from the start) longer than
    /// [`crate::MAX_GAME_PLIES`].
    TooLong(GameTooLong),
    /// A game of more than [`MAX_GAME_TOKENS`] tokens, with its count (the tokens past the
    /// bound are counted, not kept).
    TooManyTokens(usize),
    /// A game after the first [`MAX_RECORD_GAMES`] of a text: the reader stops there.
    TooManyGames,
}

/// How deep variations may nest (a variation inside a variation is depth 2). Deeper nesting
/// is an error rather than a stack overflow; real game records nest a few levels at most.
pub const MAX_VARIATION_DEPTH: usize = 100;

/// The most bytes one comment may have (after decoding); a longer one is an error. Every record
/// reader keeps this bound, not only PGN's.
pub const MAX_COMMENT_BYTES: usize = 64 * 1024;

/// The most tokens (moves, comments, parentheses, results) one game may have, so that reading a
/// game holds a bounded amount of memory however long a text without a result runs: twice
/// the 200,000 moves a record's tree may hold (`record::MAX_TREE_MOVES`).
pub const MAX_GAME_TOKENS: usize = 400_000;

/// The most games read from one text (PGN) or file (every record format); past them the
/// reader gives one error and stops. A reader that keeps every game (`qi record convert`, the
/// page's import) then holds a bounded number of games; the largest published collections
/// hold a few tens of thousands.
pub const MAX_RECORD_GAMES: usize = 100_000;

impl fmt::Display for PgnErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnErrorKind::BadTag(t) => write!(f, "bad tag {}", Excerpt(t)),
            PgnErrorKind::BadFen(e) => write!(f, "bad FEN tag: {e}"),
            PgnErrorKind::BadMove { number, text, error } => write!(f, "move {number} {}: {error}", Excerpt(text)),
            PgnErrorKind::UnbalancedVariation => f.write_str("unbalanced parentheses"),
            PgnErrorKind::UnterminatedComment => f.write_str("comment not closed with }"),
            PgnErrorKind::CommentTooLong(n) => {
                write!(f, "a comment of {n} bytes (the limit is {MAX_COMMENT_BYTES})")
            }
            PgnErrorKind::ResultInVariation => f.write_str("result inside a variation"),
            PgnErrorKind::TooDeep => write!(f, "variations nested deeper than {MAX_VARIATION_DEPTH}"),
            PgnErrorKind::TooLong(e) => e.fmt(f),
            PgnErrorKind::TooManyTokens(n) => {
                write!(f, "a game of {n} tokens (moves, comments, parentheses; the limit is {MAX_GAME_TOKENS})")
            }
            PgnErrorKind::TooManyGames => {
                write!(f, "more than {MAX_RECORD_GAMES} games (the limit): the rest are not read")
            }
        }
    }
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}, line {}: {}", self.game, self.line, self.kind)
    }
}

impl std::error::Error for PgnError {}
