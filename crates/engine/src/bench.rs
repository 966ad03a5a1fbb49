//! A node-count signature of the search, as Stockfish's `bench`: fixed positions searched to a
//! fixed depth with a fresh engine each, the nodes added up. Any change to the search or the
//! evaluation that changes what the engine does changes the sum (a test holds the expected
//! value), so a refactor that should change nothing can be checked, and a change of the search
//! is never made by accident. The sum is the same on every machine and under any load.

use crate::engine::Engine;
use crate::search::{Limits, SearchInfo};
use std::time::Duration;
use xiangqi::Position;

/// The depth [`run`] searches to by default.
pub const DEFAULT_DEPTH: u32 = 9;

/// The transposition table of every bench search, in MiB (the node count depends on it).
pub const HASH_MB: usize = 16;

/// The positions, in FEN: openings, middle games (from the perft suite: chessprogramming.org
/// and the folium engine's self-test), endings, and a few mates.
pub const POSITIONS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
    "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1",
    "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w - - 0 1",
    "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1",
    "4k4/4a4/4ba3/9/9/9/9/9/4R4/4K4 w - - 0 1",
    "3ak4/4a4/9/9/9/9/9/9/4p4/3K5 b - - 0 1",
];

/// What [`run`] found: the signature and the time it took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bench {
    /// Nodes searched over all positions: the signature.
    pub nodes: u64,
    /// The time the searches took (not part of the signature).
    pub elapsed: Duration,
}

impl Bench {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as u128 * 1_000_000 / self.elapsed.as_micros().max(1)) as u64
    }
}

/// Searches every position of [`POSITIONS`] to `depth` with a fresh engine of [`HASH_MB`] MiB;
/// `on_position` hears each position (its index and FEN) and the search's result.
///
/// # Panics
///
/// Never for the built-in positions (they are all legal).
pub fn run(depth: u32, on_position: impl FnMut(usize, &str, &SearchInfo)) -> Bench {
    run_with(depth, crate::nnue::default_net(), on_position)
}

/// [`run`] with the evaluation given: a net, or the hand-written evaluation for `None`.
pub fn run_with(
    depth: u32,
    net: Option<std::sync::Arc<crate::nnue::Network>>,
    mut on_position: impl FnMut(usize, &str, &SearchInfo),
) -> Bench {
    let mut engine = Engine::new(HASH_MB);
    engine.set_net(net);
    let (mut nodes, mut elapsed) = (0, Duration::ZERO);
    for (i, fen) in POSITIONS.iter().enumerate() {
        let pos: Position = fen.parse().expect("the bench positions are legal");
        engine.clear();
        let info = engine.search(&pos, &[], &Limits::depth(depth), |_| {});
        nodes += info.nodes;
        elapsed += info.elapsed;
        on_position(i, fen, &info);
    }
    Bench { nodes, elapsed }
}
