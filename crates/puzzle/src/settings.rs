//! How hard the finder looks and what it accepts.

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
    /// How far the best move must stand above the second best (for a win) to be the only one.
    pub gap: i32,
    /// How much the opponent's last move must have given away for a win to count as a chance
    /// the game offered (so a position already won long ago is not a puzzle).
    pub swing: i32,
    /// Plies of each game skipped before looking (the opening).
    pub first_ply: usize,
    /// The most solver moves of a win's line.
    pub max_win_moves: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            scan_nodes: 6_000,
            verify_nodes: 300_000,
            max_mate: 7,
            winning: 300,
            gap: 250,
            swing: 200,
            first_ply: 10,
            max_win_moves: 3,
        }
    }
}
