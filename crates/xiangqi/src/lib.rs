#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod attacks;
mod excerpt;
mod fen;
mod game_length;
mod illegal;
mod movecount;
mod movegen;
mod movelist;
pub mod notation;
pub mod outcome;
mod perft;
pub mod pgn;
mod position;
pub mod record;
pub mod repetition;
mod setup;
mod tables;
mod types;
mod zobrist;

pub use excerpt::Excerpt;
pub use fen::FenError;
pub use game_length::{check_game_length, GameTooLong, MAX_GAME_PLIES};
pub use illegal::IllegalReason;
pub use movelist::{MoveList, MAX_MOVES};
pub use perft::{perft, perft_divide, MAX_PERFT_DEPTH};
pub use position::{IllegalMoveError, Position, Undo};
pub use setup::{can_stand, PositionError, Setup};
pub use types::{Color, Move, ParseMoveError, ParseSquareError, Piece, PieceKind, Square};
