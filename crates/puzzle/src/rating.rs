//! A puzzle's first rating, from how hard it is to find: the nodes the engine searched before
//! the solution's first move became its choice for good, the length of the line, how many
//! moves there are to choose from and how many other captures and checks tempt the player, a
//! quiet first move (neither a capture nor a check), a sacrifice, and a win of material rather
//! than a mate. The page then follows each player's results (the shipped rating is where a
//! player starts, not a measured one).
//!
//! The weights spread the shipped set over 600 to 2400 with a median near 1200 (a mate in one
//! among few moves near the bottom, a long quiet line the engine was slow to see near the top).
//! Files rated this way say [`MARK`] in their header; [`nodes_from_first_rating`] recovers the
//! nodes from a rating of the first formula, so an older file is rated again without searching.

use crate::{Kind, Theme};
use xiangqi::{Move, Position};

/// The header line of a file rated by this formula.
pub const MARK: &str = "ratings: formula 2 (nodes to find, length, choices, temptations, quiet, sacrifice, kind)";

/// The lowest rating given.
pub const MIN: u32 = 600;
/// The highest rating given.
pub const MAX: u32 = 2400;

/// What makes a puzzle hard to find.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Difficulty {
    /// Nodes the engine searched before the first move became its choice for good.
    pub found_at: u64,
    /// The solver's moves in the solution.
    pub solver_moves: usize,
    /// The solver's legal moves in the position.
    pub choices: usize,
    /// Other captures and checks the solver could play instead of the first move.
    pub tempting: usize,
    /// Whether the first move neither captures nor checks.
    pub quiet: bool,
    /// Whether the solution gives material away.
    pub sacrifice: bool,
    /// Mate or a win of material.
    pub kind: Kind,
}

impl Difficulty {
    /// The difficulty of the solution `moves` from `position`, found after `found_at` nodes.
    pub fn of(position: &Position, moves: &[Move], kind: Kind, themes: &[Theme], found_at: u64) -> Difficulty {
        let first = moves[0];
        let gives_check = |m: Move| {
            let mut after = position.clone();
            after.play_unchecked(m);
            after.is_check()
        };
        let legal = position.legal_moves();
        Difficulty {
            found_at,
            solver_moves: moves.len().div_ceil(2),
            choices: legal.len(),
            tempting: legal.iter().filter(|&&m| m != first && (position.is_capture(m) || gives_check(m))).count(),
            quiet: !position.is_capture(first) && !gives_check(first),
            sacrifice: themes.contains(&Theme::Sacrifice),
            kind,
        }
    }
}

/// The rating of `d`: 500, plus 95 for each doubling of the nodes past 256, 180 for each
/// further solver move, 110 for each doubling of the choices past two, 40 for each tempting
/// capture or check (at most 15 counted), 220 for a quiet first move, 150 for a sacrifice and
/// 200 for a win of material; rounded to 10, between [`MIN`] and [`MAX`].
pub fn rating(d: &Difficulty) -> u32 {
    let effort = (d.found_at.max(256) as f64 / 256.0).log2();
    let choices = (d.choices.max(2) as f64 / 2.0).log2();
    let raw = 500.0
        + 95.0 * effort
        + 180.0 * d.solver_moves.saturating_sub(1) as f64
        + 110.0 * choices
        + 40.0 * d.tempting.min(15) as f64
        + if d.quiet { 220.0 } else { 0.0 }
        + if d.sacrifice { 150.0 } else { 0.0 }
        + if d.kind == Kind::Win { 200.0 } else { 0.0 };
    ((raw / 10.0).round() * 10.0).clamp(f64::from(MIN), f64::from(MAX)) as u32
}

/// The nodes behind a rating of the first formula (1000, plus 170 for each doubling of the
/// nodes past 256, 90 for each further solver move and 20 for each of at most ten tempting
/// moves, capped at 2800), for a file made before [`MARK`]: exact but for the rounding to 10,
/// and a lower bound at the cap.
pub fn nodes_from_first_rating(first: u32, solver_moves: usize, tempting: usize) -> u64 {
    let rest = 90.0 * solver_moves.saturating_sub(1) as f64 + 20.0 * tempting.min(10) as f64;
    let effort = ((f64::from(first) - 1000.0 - rest) / 170.0).clamp(0.0, 40.0);
    (256.0 * effort.exp2()).round() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn easy() -> Difficulty {
        Difficulty {
            found_at: 100,
            solver_moves: 1,
            choices: 2,
            tempting: 0,
            quiet: false,
            sacrifice: false,
            kind: Kind::Mate,
        }
    }

    #[test]
    fn harder_means_higher() {
        let base = rating(&easy());
        assert_eq!(base, MIN);
        let middle = Difficulty { choices: 30, tempting: 3, ..easy() };
        let m = rating(&middle);
        assert!(m > base);
        assert!(rating(&Difficulty { found_at: 100_000, ..middle }) > m);
        assert!(rating(&Difficulty { solver_moves: 3, ..middle }) > m);
        assert!(rating(&Difficulty { tempting: 8, ..middle }) > m);
        assert!(rating(&Difficulty { quiet: true, ..middle }) > m);
        assert!(rating(&Difficulty { sacrifice: true, ..middle }) > m);
        assert!(rating(&Difficulty { kind: Kind::Win, ..middle }) > m);
        let hardest = Difficulty { found_at: u64::MAX, solver_moves: 7, choices: 80, tempting: 50, ..middle };
        assert_eq!(rating(&hardest), MAX);
    }

    #[test]
    fn the_first_formulas_nodes_come_back() {
        // The first formula: 1000 + 170 log2(nodes / 256) + 90 (moves - 1) + 20 tempting.
        assert_eq!(nodes_from_first_rating(1000, 1, 0), 256);
        assert_eq!(nodes_from_first_rating(1340, 1, 0), 1024);
        assert_eq!(nodes_from_first_rating(1340 + 90 + 40, 2, 2), 1024);
        assert_eq!(nodes_from_first_rating(600, 1, 0), 256);
    }

    #[test]
    fn a_mate_in_one_with_few_choices_is_easy_and_a_quiet_search_is_hard() {
        // Red's rook mates on e4 at once: a check, found at once, among a few dozen moves.
        let pos: Position = "4k4/9/9/9/5R3/R8/8p/9/9/3K5 w - - 0 1".parse().unwrap();
        let mate = Difficulty::of(&pos, &["a4e4".parse().unwrap()], Kind::Mate, &[Theme::Mate], 200);
        assert!(!mate.quiet && mate.choices > 10);
        assert!(rating(&mate) < 1200, "{}", rating(&mate));
        let slow = Difficulty { found_at: 1_000_000, solver_moves: 4, quiet: true, ..mate };
        assert!(rating(&slow) > 2000, "{}", rating(&slow));
    }
}
