//! Why a record did not read, and where.

use super::Format;
use crate::notation::NotationError;
use crate::pgn::PgnErrorKind;
use crate::{Excerpt, FenError, GameTooLong, PositionError};
use core::fmt;

/// Where in the input a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Location {
    /// A byte offset into a binary file (XQF, ChessBridge).
    Offset(usize),
    /// A 1-based line of a text (DhtmlXQ, PGN, plain text).
    Line(usize),
    /// The input as a whole.
    Input,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Offset(o) => write!(f, "offset {o}"),
            Location::Line(l) => write!(f, "line {l}"),
            Location::Input => f.write_str("input"),
        }
    }
}

/// A record that did not read: the format it was read as, where, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// The format the input was read as.
    pub format: Format,
    /// Which game of the input (1-based; 1 for a format that holds one game).
    pub game: usize,
    /// Where the problem is.
    pub location: Location,
    /// What is wrong there.
    pub kind: RecordErrorKind,
}

/// What is wrong with a record.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RecordErrorKind {
    /// Nothing that reads as a game.
    Empty,
    /// The input ends inside a structure (a header, a move record, a comment).
    Truncated,
    /// An XQF version this reader does not know (it reads 1.0 to 1.8).
    UnknownVersion(u8),
    /// The start position is not a legal position.
    BadPosition(PositionError),
    /// A FEN that does not read.
    BadFen(FenError),
    /// A square number outside the board.
    BadSquare(u8),
    /// A piece code that names no piece (ChessBridge boards).
    BadPiece(u8),
    /// A move that is not legal, or does not read.
    BadMove {
        /// The ply of the move, from 1 at the start position.
        ply: usize,
        /// The move number (the start position's move counter, so both moves after `2.` are
        /// number 2).
        number: u32,
        /// The move as written (ICCS for a binary move).
        text: String,
        /// Why a written move does not read, when it was written as notation.
        error: Option<NotationError>,
    },
    /// A comment longer than [`super::MAX_COMMENT_BYTES`].
    CommentTooLong(usize),
    /// More moves in the tree than [`super::MAX_TREE_MOVES`].
    TooManyMoves,
    /// Variations nested deeper than [`super::MAX_VARIATION_DEPTH`].
    TooDeep,
    /// A line longer than [`crate::MAX_GAME_PLIES`].
    TooLong(GameTooLong),
    /// A DhtmlXQ branch that starts where its parent branch has no move.
    DetachedBranch(String),
    /// A PGN game that does not read.
    Pgn(PgnErrorKind),
    /// A game after the first [`super::MAX_RECORD_GAMES`] of a file: the reader stops there.
    TooManyGames,
}

impl fmt::Display for RecordErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordErrorKind::Empty => f.write_str("no game found"),
            RecordErrorKind::Truncated => f.write_str("the input ends too early"),
            RecordErrorKind::UnknownVersion(v) => write!(f, "unknown XQF version {v}"),
            RecordErrorKind::BadPosition(e) => write!(f, "bad start position: {e}"),
            RecordErrorKind::BadFen(e) => write!(f, "bad FEN: {e}"),
            RecordErrorKind::BadSquare(s) => write!(f, "square {s} is off the board"),
            RecordErrorKind::BadPiece(p) => write!(f, "piece code {p:#04x} names no piece"),
            RecordErrorKind::BadMove { ply, number, text, error: Some(e) } => {
                write!(f, "move {number} (ply {ply}) {}: {e}", Excerpt(text))
            }
            RecordErrorKind::BadMove { ply, number, text, error: None } => {
                write!(f, "move {number} (ply {ply}) {} is not legal", Excerpt(text))
            }
            RecordErrorKind::CommentTooLong(n) => {
                write!(f, "a comment of {n} bytes (the limit is {})", super::MAX_COMMENT_BYTES)
            }
            RecordErrorKind::TooManyMoves => write!(f, "more than {} moves in the tree", super::MAX_TREE_MOVES),
            RecordErrorKind::TooDeep => {
                write!(f, "variations nested deeper than {}", super::MAX_VARIATION_DEPTH)
            }
            RecordErrorKind::TooLong(e) => e.fmt(f),
            RecordErrorKind::DetachedBranch(id) => {
                write!(f, "branch {} starts where its parent has no move", Excerpt(id))
            }
            RecordErrorKind::Pgn(e) => e.fmt(f),
            RecordErrorKind::TooManyGames => {
                write!(f, "more than {} games (the limit): the rest are not read", super::MAX_RECORD_GAMES)
            }
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} game {}, {}: {}", self.format, self.game, self.location, self.kind)
    }
}

impl std::error::Error for RecordError {}
