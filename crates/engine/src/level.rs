//! The computer's levels, from a beginner to full strength: what each may search (depth or
//! nodes), with which evaluation (the hand-written one for the weakest, the net above), and how
//! it picks its move (the weakest picks at random among the near-best lines, so that a beginner
//! does not play the same game every time). The page's level menu and UCI's `Level` option
//! both read this table, so that `qi match` measures the levels people play.

use crate::search::{Limits, SearchInfo};
use xiangqi::{Move, PieceKind, Position};

/// One level of the computer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// 1 (a beginner) to 8 (full strength).
    pub number: u8,
    /// The name the page shows (an i18n key's last word: `beginner`, `novice`, … `full`).
    pub name: &'static str,
    /// Whether it evaluates with the net (when the engine has one) or the hand-written terms.
    pub net: bool,
    /// The deepest it searches, if capped.
    pub depth: Option<u32>,
    /// The most nodes it searches for a move, if capped.
    pub nodes: Option<u64>,
    /// How many of the best lines it chooses among (1: always the best).
    pub choices: usize,
    /// How much worse than the best (centipawns) a chosen line may be.
    pub margin: i32,
    /// A rough strength on an Elo-like scale: level 1 at 1000, and each level above it the Elo
    /// its match against the one below measured, rounded to tens (engine README, "Levels").
    pub rating: u32,
}

/// The levels, weakest first. Each searches about twice the nodes of the one below (a little
/// more at the top, where a doubling is worth less), which measured 66-79 % against it at the
/// page's time: the engine README's "Levels" has the matches. Level 1 keeps the hand-written
/// evaluation; the others use the net.
pub const LEVELS: [Level; 8] = [
    // The beginner varies its play: any of its three best lines within 10 centipawns.
    Level {
        number: 1,
        name: "beginner",
        net: false,
        depth: None,
        nodes: Some(16_000),
        choices: 3,
        margin: 10,
        rating: 1000,
    },
    Level::nodes(2, "novice", true, 16_000, 1160),
    Level::nodes(3, "casual", true, 30_000, 1350),
    Level::nodes(4, "club", true, 64_000, 1580),
    Level::nodes(5, "advanced", true, 110_000, 1750),
    Level::nodes(6, "expert", true, 220_000, 1960),
    Level::nodes(7, "master", true, 480_000, 2080),
    Level { number: 8, name: "full", net: true, depth: None, nodes: None, choices: 1, margin: 0, rating: 2210 },
];

/// The strongest level's number (the last in [`LEVELS`]): the engine as it is.
pub const FULL_STRENGTH: u8 = LEVELS.len() as u8;

impl Level {
    /// A level that searches `nodes` nodes a move and plays the best line.
    const fn nodes(number: u8, name: &'static str, net: bool, nodes: u64, rating: u32) -> Level {
        Level { number, name, net, depth: None, nodes: Some(nodes), choices: 1, margin: 0, rating }
    }

    /// Level `number` (1 to [`FULL_STRENGTH`]).
    pub fn get(number: u8) -> Option<&'static Level> {
        LEVELS.get(usize::from(number).checked_sub(1)?)
    }

    /// The strongest level: the engine as it is.
    pub fn full() -> &'static Level {
        &LEVELS[LEVELS.len() - 1]
    }

    /// `limits` within this level's: the smaller depth and node caps, and the lines to choose
    /// among.
    pub fn limits(&self, limits: &Limits) -> Limits {
        let min = |a: Option<u64>, b: Option<u64>| match (a, b) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Limits {
            depth: min(limits.depth.map(u64::from), self.depth.map(u64::from)).map(|d| d as u32),
            nodes: min(limits.nodes, self.nodes),
            multipv: limits.multipv.max(self.choices),
            ..limits.clone()
        }
    }

    /// The move this level plays after a search with [`Level::limits`]: the best, or for a
    /// level that chooses, one of the lines within its margin of the best, picked by
    /// `entropy` (any varied number). A mate found is always played; king moves only when
    /// nothing else is close (a beginner does not walk the king to and fro).
    pub fn choose(&self, pos: &Position, info: &SearchInfo, entropy: u64) -> Option<Move> {
        let best = info.lines.first()?;
        if self.choices <= 1 || best.score.is_mate() {
            return info.best;
        }
        let is_king = |m: Move| pos.piece_at(m.from()).is_some_and(|p| p.kind == PieceKind::King);
        let candidates: Vec<Move> = info
            .lines
            .iter()
            .take(self.choices)
            .filter(|l| !l.score.is_mate() && l.score.centipawns() >= best.score.centipawns() - self.margin)
            .filter_map(|l| l.pv.first().copied())
            .filter(|&m| !is_king(m))
            .collect();
        if candidates.is_empty() {
            return info.best;
        }
        // No need for a strong generator: the caller's entropy and the position vary enough.
        let pick = (pos.hash() ^ entropy).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40;
        Some(candidates[pick as usize % candidates.len()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Engine;

    #[test]
    fn the_table_runs_from_weak_to_strong() {
        for (i, level) in LEVELS.iter().enumerate() {
            assert_eq!(usize::from(level.number), i + 1);
            assert_eq!(Level::get(level.number), Some(level));
        }
        assert!(LEVELS.windows(2).all(|w| w[0].rating < w[1].rating));
        assert_eq!(Level::get(0), None);
        assert_eq!(Level::get(9), None);
        let full = Level::get(FULL_STRENGTH).unwrap();
        assert_eq!((full.depth, full.nodes, full.choices), (None, None, 1));
    }

    #[test]
    fn a_level_caps_the_limits_it_is_given() {
        let asked = Limits { depth: Some(10), nodes: Some(1_000), ..Limits::default() };
        let one = Level::get(1).unwrap().limits(&asked);
        assert_eq!((one.depth, one.nodes, one.multipv), (Some(10), Some(1_000), 3));
        let five = Level::get(5).unwrap().limits(&Limits::default());
        assert_eq!((five.depth, five.nodes, five.multipv), (None, Some(110_000), 1));
    }

    #[test]
    fn a_choosing_level_plays_a_near_best_move_and_takes_a_mate() {
        let level = Level::get(1).unwrap();
        // A short full-width search, so that a move and its mirror image score alike (the
        // level's node cap can cut one of them short): the choice itself is under test here,
        // the level's strength in the engine README's matches.
        let shallow = Limits { depth: Some(2), ..Limits::default() };
        let mut varied = false;
        for moves in [&[][..], &["h2e2"][..]] {
            let mut pos = Position::startpos();
            for m in moves {
                pos.play(m.parse().unwrap()).unwrap();
            }
            // As the protocol and the page search for it: by hand, without the net.
            let mut engine = Engine::new(1);
            engine.set_net(None);
            let info = engine.search(&pos, &[], &level.limits(&shallow), |_| {});
            let best = info.lines[0].score.centipawns();
            let near: Vec<Move> =
                info.lines.iter().filter(|l| l.score.centipawns() >= best - level.margin).map(|l| l.pv[0]).collect();
            let picked: std::collections::HashSet<Move> =
                (0..64).filter_map(|e| level.choose(&pos, &info, e * 0x1234_5678_9abc)).collect();
            assert!(picked.iter().all(|m| near.contains(m)), "{moves:?}: {picked:?} not all in {near:?}");
            varied |= picked.len() > 1;
        }
        assert!(varied, "a beginner varies its moves");
        // Two rooks mate in one (i1i9 or i1d1): every level plays the mate it sees.
        let mate = Position::from_fen("3k5/R8/9/9/9/9/9/9/8R/4K4 w - - 0 1").unwrap();
        let info = Engine::new(1).search(&mate, &[], &level.limits(&Limits::default()), |_| {});
        assert!(info.lines[0].score.is_mate());
        for entropy in 0..16 {
            let mut after = mate.clone();
            after.play(level.choose(&mate, &info, entropy).unwrap()).unwrap();
            assert!(after.legal_moves().is_empty(), "{entropy}");
        }
    }
}
