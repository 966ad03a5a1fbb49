//! One puzzle: a position, the solution line, what kind of win it is, how hard, and where it
//! came from.

use crate::Kind;
use xiangqi::{Move, Position};

/// A puzzle. The solver is the side to move in `position`; `moves` alternate the solver's
/// moves and the defender's replies and end with a solver's move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// A short stable name: the FEN and the first move hashed (see [`Puzzle::id_of`]).
    pub id: String,
    /// The position the solver starts from.
    pub position: Position,
    /// The solution: the solver's moves and the defender's longest defences, alternating.
    pub moves: Vec<Move>,
    /// Mate or win.
    pub kind: Kind,
    /// For a mate, the solver's moves to mate (1 to 7).
    pub mate_in: Option<u32>,
    /// How hard it is to find, on an Elo-like scale (see [`crate::rating`]).
    pub rating: u32,
    /// The tactical motifs in the solution, as names (see [`crate::Theme`]).
    pub themes: Vec<crate::Theme>,
    /// Where it came from: a game's name and the ply, e.g. `wk-Hu_Ronghua-0000 ply 34`.
    pub source: String,
}

impl Puzzle {
    /// The solver's moves (every other move of the solution, from the first).
    pub fn solver_moves(&self) -> usize {
        self.moves.len().div_ceil(2)
    }

    /// The id of a puzzle from `position` whose solution starts with `first`: eight base-36
    /// characters of an FNV-1a hash, so the same puzzle found again keeps its name.
    pub fn id_of(position: &Position, first: Move) -> String {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in position.fen().bytes().chain(first.to_string().bytes()) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
        const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
        (0..8).map(|i| char::from(DIGITS[(hash >> (i * 6) & 63) as usize % 36])).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_stable_and_differ_by_move() {
        let pos = Position::startpos();
        let a = Puzzle::id_of(&pos, "h2e2".parse().unwrap());
        assert_eq!(a, Puzzle::id_of(&pos, "h2e2".parse().unwrap()));
        assert_ne!(a, Puzzle::id_of(&pos, "b2e2".parse().unwrap()));
        assert_eq!(a.len(), 8);
        assert!(a.bytes().all(|b| b.is_ascii_alphanumeric() && !b.is_ascii_uppercase()));
    }
}
