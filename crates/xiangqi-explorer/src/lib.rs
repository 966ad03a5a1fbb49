#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod codec;
mod explorer;
mod report;
mod result;

pub use explorer::{Explorer, ExplorerError, Game, MoveStats};
pub use report::{answer, explore, read_request, Ecco, MoveReport, Report, Request, Typical};
pub use result::GameResult;

use std::sync::OnceLock;

/// How many plies of each game the index holds: the opening, where games still meet; past it
/// nearly every position is one game's, and the index would grow with every ply.
pub const DEPTH: usize = 30;

/// The master games (`crates/xiangqi/tests/data/games.tsv`), packed by the build script.
pub const MASTER_PACKED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/master.bin"));

/// The explorer of the built-in master games, read on first use.
pub fn master() -> &'static Explorer {
    static MASTER: OnceLock<Explorer> = OnceLock::new();
    // The build script wrote these bytes with the same code; a test reads them back in full, so
    // the moves past the depth are left packed here until a game is asked for.
    MASTER.get_or_init(|| Explorer::read(MASTER_PACKED, false).unwrap_or_default())
}
