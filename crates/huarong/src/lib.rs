#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod board;
pub mod catalog;
mod codeset;
pub mod database;
pub mod distance;
pub mod enumerate;
mod groups;
mod index;
mod layout;
mod moves;
pub mod puzzle;
mod solve;
pub mod survey;

pub use index::LayoutIndex;
pub use layout::{BadPieceSet, Layout, LayoutError, Piece, PieceSet};
pub use moves::{Convention, Move, UnknownConvention};
pub use solve::{shortest, solve, Shortest, Solution, Step};
