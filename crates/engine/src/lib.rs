//! A Xiangqi engine: iterative-deepening alpha-beta search on the `xiangqi` rules crate.
//!
//! ```
//! use xiangqi::Position;
//! use xiangqi_engine::{Engine, Limits};
//! // Red mates in one: the rook checks on the d-file; e9 would face the red king.
//! let pos: Position = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1".parse().unwrap();
//! let mut engine = Engine::new(1);
//! let result = engine.search(&pos, &[], &Limits::depth(3), |_| {});
//! assert_eq!(result.best.unwrap().to_string(), "a1d1");
//! assert!(result.score.is_mate());
//! ```
#![deny(missing_docs)]

mod eval;
pub mod protocol;
mod score;
mod search;
mod see;
mod tt;

pub use eval::evaluate;
pub use score::Score;
pub use search::{Engine, HashError, Limits, Line, SearchInfo, MAX_DEPTH};
