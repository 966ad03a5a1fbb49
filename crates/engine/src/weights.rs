//! The evaluation's weights: every term has a middlegame and an endgame value, blended by the
//! game phase. [`Weights::DEFAULT`] is what the engine plays with; the tuner
//! ([`crate::tune`]) fits them to game results.

/// The evaluation terms, each a (middlegame, endgame) pair of centipawn values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    values: [i32; 2 * TERMS],
}

/// How many terms there are.
pub(crate) const TERMS: usize = 26;
/// Material of each kind (king, advisor, elephant, horse, rook, cannon, pawn).
pub(crate) const MATERIAL: usize = 0;
/// Mobility per reachable square, by kind.
pub(crate) const MOBILITY: usize = 7;
/// A missing advisor, and that again for each enemy attacking unit (a rook counts 2).
pub(crate) const MISSING_ADVISOR: usize = 14;
pub(crate) const MISSING_ADVISOR_PER_ATTACKER: usize = 15;
/// A missing elephant, more so for each enemy cannon and attacking unit.
pub(crate) const MISSING_ELEPHANT: usize = 16;
pub(crate) const MISSING_ELEPHANT_PER_CANNON: usize = 17;
pub(crate) const MISSING_ELEPHANT_PER_ATTACKER: usize = 18;
/// The scale, in percent, of the penalty for enemy pieces across the river.
pub(crate) const PRESSURE: usize = 19;
/// An enemy cannon facing the king with nothing between (the "empty-head cannon").
pub(crate) const EMPTY_HEAD_CANNON: usize = 20;
/// An enemy cannon facing the king over two pieces (one move from a threat).
pub(crate) const CANNON_TWO_SCREENS: usize = 21;
/// An enemy rook on the king's file with at most one piece between.
pub(crate) const ROOK_ON_KING_FILE: usize = 22;
/// An enemy horse within two files and ranks of the king.
pub(crate) const HORSE_NEAR_KING: usize = 23;
/// The side to move's bonus.
pub(crate) const TEMPO: usize = 24;
/// The danger from attacked palace squares (their weighted count squared, per 256).
pub(crate) const PALACE_DANGER: usize = 25;

const NAMES: [&str; TERMS] = [
    "material king",
    "material advisor",
    "material elephant",
    "material horse",
    "material rook",
    "material cannon",
    "material pawn",
    "mobility king",
    "mobility advisor",
    "mobility elephant",
    "mobility horse",
    "mobility rook",
    "mobility cannon",
    "mobility pawn",
    "missing advisor",
    "missing advisor per attacker",
    "missing elephant",
    "missing elephant per cannon",
    "missing elephant per attacker",
    "pressure percent",
    "empty-head cannon",
    "cannon over two screens",
    "rook on the king's file",
    "horse near the king",
    "tempo",
    "palace danger (per 256 squared units)",
];

impl Weights {
    /// The weights the engine plays with.
    pub const DEFAULT: Weights = Weights {
        values: [
            0, 0, // king
            200, 220, // advisor
            200, 220, // elephant
            420, 470, // horse
            950, 1020, // rook
            470, 420, // cannon
            100, 120, // pawn
            0, 0, 0, 0, 2, 2, 9, 8, 4, 4, 3, 2, 0, 0, // mobility by kind
            6, 4, 4, 2, // missing advisor
            4, 2, 3, 2, 1, 0, // missing elephant
            100, 25, // pressure
            90, 40, // empty-head cannon
            12, 4, // two screens
            20, 10, // rook on the king's file
            25, 12, // horse near the king
            15, 15, // tempo
            56, 14, // palace danger
        ],
    };

    /// The middlegame and endgame value of a term.
    #[inline(always)]
    pub(crate) const fn pair(&self, term: usize) -> (i32, i32) {
        (self.values[2 * term], self.values[2 * term + 1])
    }

    /// All values, in the order of [`Weights::names`]: each term's middlegame value, then its
    /// endgame value.
    pub fn values(&self) -> &[i32] {
        &self.values
    }

    /// The values, to change (the tuner's view).
    pub fn values_mut(&mut self) -> &mut [i32] {
        &mut self.values
    }

    /// A name for each value, in order ("material horse (mg)", "material horse (eg)", ...).
    pub fn names() -> impl Iterator<Item = String> {
        NAMES.iter().flat_map(|n| [format!("{n} (mg)"), format!("{n} (eg)")])
    }

    /// Whether the tuner may change value `i`: the king's material and the mobility of the
    /// pieces whose mobility is not counted mean nothing, and the middlegame pawn stays 100 so
    /// that scores stay in centipawns.
    pub fn tunable(i: usize) -> bool {
        let term = i / 2;
        let fixed = term == MATERIAL
            || term == MATERIAL + 6 && i % 2 == 0
            || term == MOBILITY
            || term == MOBILITY + 1
            || term == MOBILITY + 6;
        !fixed
    }
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_has_a_name() {
        assert_eq!(Weights::names().count(), Weights::DEFAULT.values().len());
        assert_eq!(Weights::names().nth(2 * MATERIAL + 9).as_deref(), Some("material rook (eg)"));
        assert!(!Weights::tunable(2 * (MATERIAL + 6)) && Weights::tunable(2 * (MATERIAL + 6) + 1));
    }
}
