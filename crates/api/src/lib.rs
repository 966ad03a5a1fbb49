#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

pub mod analysis;
mod base64;
mod call;
pub mod engine;
mod entropy;
pub mod error;
pub mod game;
pub mod huarong;
pub mod link;
pub mod moves;
pub mod pgn;
pub mod record;

pub use call::{call, parse_request, CALL_PATHS};
pub use entropy::clock_entropy;
pub use error::{ApiError, MAX_MESSAGE_BYTES};
