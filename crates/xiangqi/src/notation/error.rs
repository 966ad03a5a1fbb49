//! Why a move in some notation could not be read.

use crate::{Excerpt, Move, PieceKind};
use core::fmt;

/// Why [`crate::notation::parse`] rejected a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// Nothing to read.
    Empty,
    /// The text is not a move in any notation (the text and what was expected).
    Syntax { text: String, expected: &'static str },
    /// A character that names no piece.
    UnknownPiece(char),
    /// The side to move has no such piece where the move says (e.g. no cannon on file 2).
    NoSuchPiece { kind: PieceKind },
    /// More than one legal move fits the text.
    Ambiguous { candidates: Vec<Move> },
    /// The piece exists but cannot make that move (or an ICCS move is illegal).
    Illegal { text: String },
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
