#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod board;
pub mod catalog;
mod codeset;
mod groups;
mod index;
mod layout;
mod moves;
pub mod puzzle;
mod solve;
pub mod survey;

pub use layout::{BadPieceSet, Layout, LayoutError, Piece, PieceSet};
pub use moves::{Convention, Move, UnknownConvention};
pub use solve::{shortest, solve, Shortest, Solution, Step};
