#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod bench;
mod clock;
mod continuation;
mod engine;
mod eval;
mod game;
pub mod level;
mod movepick;
pub mod nnue;
pub mod protocol;
mod score;
mod search;
mod see;
mod thread_pool;
mod tt;
pub mod tune;
#[cfg(not(target_arch = "wasm32"))]
pub mod uci;
mod weights;

pub use engine::{Engine, HashError, ThreadsError};
pub use eval::{evaluate, evaluate_with};
pub use game::{replay, Played};
pub use level::{Level, LEVELS};
pub use score::Score;
pub use search::{Limits, Line, SearchInfo, MAX_DEPTH};
pub use weights::Weights;
