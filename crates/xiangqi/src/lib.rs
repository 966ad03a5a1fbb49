//! Xiangqi (Chinese chess) rules: exact legal move generation, FEN, notation and share links.
//!
//! The library does no I/O and never prints.

mod types;

pub use types::{Color, Move, ParseMoveError, ParseSquareError, Piece, PieceKind, Square};
