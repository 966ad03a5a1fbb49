//! Why a move in some notation could not be read.

use crate::{Excerpt, Move, PieceKind};
use core::fmt;

/// Why [`crate::notation::parse`] rejected a move.
///
/// ```
/// use xiangqi::notation::{parse, NotationError};
/// use xiangqi::{PieceKind, Position};
/// let pos = Position::startpos();
/// let err = parse(&pos, "C3.5").unwrap_err();
/// assert_eq!(err, NotationError::NoSuchPiece { kind: PieceKind::Cannon });
/// assert_eq!(err.to_string(), "no such cannon to move");
/// ```
///
/// New ways to fail may come with new notations, so the enum is `#[non_exhaustive]`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotationError {
    /// Nothing to read.
    Empty,
    /// The text is not a move in any notation.
    Syntax {
        /// The text as given (trimmed).
        text: String,
        /// What the reader expected at the point it stopped, in words.
        expected: &'static str,
    },
    /// A character that names no piece.
    UnknownPiece(char),
    /// The side to move has no such piece where the move says (e.g. no cannon on file 2).
    NoSuchPiece {
        /// The kind of piece the text names.
        kind: PieceKind,
    },
    /// More than one legal move fits the text.
    Ambiguous {
        /// Every legal move that fits, in generation order.
        candidates: Vec<Move>,
    },
    /// The piece exists but cannot make that move (or an ICCS move is illegal).
    Illegal {
        /// The text as given (trimmed).
        text: String,
    },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Empty => f.write_str("empty move"),
            NotationError::Syntax { text, expected } => write!(f, "cannot read {}: expected {expected}", Excerpt(text)),
            NotationError::UnknownPiece(c) => write!(f, "unknown piece {c:?}"),
            NotationError::NoSuchPiece { kind } => write!(f, "no such {kind} to move"),
            NotationError::Ambiguous { candidates } => {
                write!(f, "ambiguous move: it fits")?;
                for m in candidates {
                    write!(f, " {m}")?;
                }
                Ok(())
            }
            NotationError::Illegal { text } => write!(f, "illegal move {}", Excerpt(text)),
        }
    }
}

impl std::error::Error for NotationError {}
