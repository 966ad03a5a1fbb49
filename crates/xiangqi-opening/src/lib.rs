#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod key;
mod opening;
mod table;

pub use opening::Opening;
pub use table::{Entry, Table, TableError, ECCO_TSV};

use xiangqi::{Move, Position};

/// The ECCO opening of a game from `start` with `moves`, by the built-in table: the deepest
/// table position the game reaches names it (see [`Table::classify`]).
pub fn classify(start: &Position, moves: &[Move]) -> Option<Opening<'static>> {
    Table::builtin().classify(start, moves)
}

/// The ECCO opening whose table position `pos` is, by the built-in table (see
/// [`Table::classify_position`]).
pub fn classify_position(pos: &Position) -> Option<Opening<'static>> {
    Table::builtin().classify_position(pos)
}
