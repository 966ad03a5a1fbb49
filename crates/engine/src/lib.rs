#![doc = include_str!("../README.md")]

mod eval;
mod score;
mod search;
mod tt;

pub use eval::evaluate;
pub use score::Score;
pub use search::{Engine, Limits, SearchInfo};
