#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod attacks;
mod fen;
mod movegen;
mod movelist;
pub mod notation;
pub mod outcome;
mod perft;
pub mod pgn;
mod position;
pub mod repetition;
mod setup;
mod tables;
mod types;
mod zobrist;

pub use fen::FenError;
pub use movelist::{MoveList, MAX_MOVES};
pub use perft::{perft, perft_divide};
pub use position::{IllegalMoveError, Position, Undo};
pub use setup::{can_stand, PositionError, Setup};
pub use types::{Color, Move, ParseMoveError, ParseSquareError, Piece, PieceKind, Square};
