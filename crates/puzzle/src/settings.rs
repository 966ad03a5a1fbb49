//! How hard the finder looks and what it accepts.

/// The engine's transposition table for each thread of a run, in MiB.
pub(crate) const HASH_MB: usize = 16;

/// The expected score (0 to 1) of a side `cp` centipawns ahead, on the logistic Elo curve.
pub(crate) fn expected(cp: i32) -> f64 {
    1.0 / (1.0 + 10f64.powf(-f64::from(cp.clamp(-4000, 4000)) / 400.0))
}

/// Whether a move scored `best` stands alone against the next best, scored `second`.
pub(crate) fn alone(best: i32, second: Option<i32>, gap: f64) -> bool {
    second.is_none_or(|s| expected(best) - expected(s) >= gap)
}

/// The finder's budgets and thresholds. Scores are centipawns from the solver's view.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Nodes for the first, quick look at every position of a game (two lines).
    pub scan_nodes: u64,
    /// Nodes for the deeper search that checks a candidate, for each solver move of its line.
    pub verify_nodes: u64,
    /// The longest mate kept, in the solver's moves.
    pub max_mate: u32,
    /// The solver's score after the key move for a win: at least this.
    pub winning: i32,
    /// How much more the best move's expected score must be than the second best's (for a
    /// win) for it to be the only one: scores read as expected points, 0 to 1, on the logistic
    /// Elo curve (400 centipawns = 10 to 1), so two moves that both win clearly are not "only"
    /// however far apart their centipawns are.
    pub gap: f64,
    /// How much the opponent's last move must have given away for a win to count as a chance
    /// the game offered (so a position already won long ago is not a puzzle).
    pub swing: i32,
    /// Plies of each game skipped before looking (the opening).
    pub first_ply: usize,
    /// The most solver moves of a win's line.
    pub max_win_moves: usize,
    /// Nodes for the confirming search of a finished puzzle (see [`crate::confirm`]); 0 skips it.
    pub confirm_nodes: u64,
    /// The solver's score after the key move for a win in the confirming search: at least this
    /// (lower than [`Settings::winning`]: a deeper search moves scores a bit).
    pub confirm_winning: i32,
    /// The gap the confirming search asks of a win's only move (a little looser than
    /// [`Settings::gap`] for the same reason).
    pub confirm_gap: f64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            scan_nodes: 6_000,
            verify_nodes: 300_000,
            max_mate: 7,
            winning: 300,
            gap: 0.2,
            swing: 200,
            first_ply: 10,
            max_win_moves: 3,
            confirm_nodes: 600_000,
            confirm_winning: 100,
            confirm_gap: 0.1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::alone;

    #[test]
    fn two_winning_moves_are_not_alone() {
        assert!(!alone(990, Some(982), 0.2));
        assert!(!alone(1500, Some(600), 0.2));
        assert!(alone(400, Some(100), 0.2));
        assert!(alone(500, Some(-200), 0.2));
        assert!(alone(300, None, 0.2));
    }
}
