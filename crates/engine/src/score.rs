//! Search scores: centipawns from the side to move's view, or a mate distance.

use core::fmt;

/// A score from the side to move's point of view.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Default)]
pub struct Score(pub(crate) i32);

impl Score {
    /// A score of `cp` centipawns (clamped to the range of ordinary scores).
    pub fn from_centipawns(cp: i32) -> Score {
        Score(cp.clamp(-MATE_BOUND, MATE_BOUND))
    }
}

pub(crate) const MATE: i32 = 30_000;
pub(crate) const INFINITY: i32 = 32_000;
/// Scores beyond this are mates.
pub(crate) const MATE_BOUND: i32 = MATE - 1_000;

impl Score {
    /// Centipawns (a pawn on its own side is worth 100).
    pub fn centipawns(self) -> i32 {
        self.0
    }

    /// Whether this is a mate score (either side mates).
    pub fn is_mate(self) -> bool {
        self.0.abs() > MATE_BOUND
    }

    /// Moves (not plies) to mate: positive when the side to move mates, negative when it is
    /// mated; `None` for an ordinary score.
    pub fn mate_in(self) -> Option<i32> {
        if !self.is_mate() {
            return None;
        }
        let plies = MATE - self.0.abs();
        let moves = (plies + 1) / 2;
        Some(if self.0 > 0 { moves } else { -moves })
    }

    /// Mate scores are stored relative to the node in the transposition table.
    pub(crate) fn to_tt(self, ply: usize) -> i32 {
        match self.0 {
            s if s > MATE_BOUND => s + ply as i32,
            s if s < -MATE_BOUND => s - ply as i32,
            s => s,
        }
    }

    pub(crate) fn from_tt(s: i32, ply: usize) -> Score {
        Score(match s {
            s if s > MATE_BOUND => s - ply as i32,
            s if s < -MATE_BOUND => s + ply as i32,
            s => s,
        })
    }
}

impl fmt::Display for Score {
    /// UCI style: `cp 35` or `mate -3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mate_in() {
            Some(m) => write!(f, "mate {m}"),
            None => write!(f, "cp {}", self.0),
        }
    }
}
