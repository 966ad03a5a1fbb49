//! Xiangqi (Chinese chess) rules: exact legal move generation, FEN, notation, PGN and game-end rulings.
//!
//! The library does no I/O and never prints.
//!
//! - [`notation`]: moves in ICCS (`h2e2`), WXF (`C2.5`) and Chinese (`炮二平五`);
//! - [`pgn`]: reading and writing game records;
//! - [`outcome`]: how a game ends (mate, stalemate, perpetual check and chase, repetition,
//!   the move limit, no attackers).
//!
//! ```
//! use xiangqi::{Move, Position};
//! let mut pos = Position::startpos();
//! let m: Move = "h2e2".parse().unwrap();
//! assert!(pos.legal_moves().contains(&m));
//! pos.play(m).unwrap();
//! assert_eq!(pos.fen(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
//! ```

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
