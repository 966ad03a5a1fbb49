#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod bench;
mod clock;
mod continuation;
mod eval;
mod game;
mod movepick;
pub mod protocol;
mod score;
mod search;
mod see;
mod tt;
pub mod tune;
mod weights;

pub use eval::{evaluate, evaluate_with};
pub use game::{replay, Played};
pub use score::Score;
pub use search::{Engine, HashError, Limits, Line, SearchInfo, MAX_DEPTH};
pub use weights::Weights;
