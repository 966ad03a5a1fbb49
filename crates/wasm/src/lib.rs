#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

mod board;
mod call;
mod engine;

pub use board::Board;
pub use call::call;
pub use engine::Engine;
