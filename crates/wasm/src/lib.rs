#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

mod board;
mod call;
mod engine;
mod net;

pub use board::Board;
pub use call::call;
pub use engine::Engine;
pub use net::{evaluate, load_net, net_checksum, unload_net};
