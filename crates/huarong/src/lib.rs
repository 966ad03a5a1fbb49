#![doc = include_str!("../README.md")]

pub mod board;
pub mod catalog;
mod codeset;
mod layout;
mod moves;
mod solve;
pub mod survey;

pub use layout::{Layout, LayoutError, Piece, PieceSet};
pub use moves::{Convention, Move, UnknownConvention};
pub use solve::{solve, Solution, Step};
