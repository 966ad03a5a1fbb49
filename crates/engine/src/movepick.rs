//! Move ordering: the order in which a node tries its moves, and what kind of move each one
//! is (as Stockfish's move picker: the search asks for the next move and learns its kind).
//!
//! Main search: the hash move, captures that do not lose material (most valuable victim
//! first, then least valuable attacker), the two killers, the counter-move, quiet moves by
//! their history, and last the captures that lose material. Quiescence: the hash move, then
//! captures by victim and attacker. Moves are picked lazily (a selection sort, one step per
//! move): most nodes end after their first few moves.
//!
//! The order is a sort key per move; the key's bands say the move's kind. That encoding is
//! private to this module: the search sees [`Kind`].

use crate::eval::value;
use crate::see::{see, victim_value};
use xiangqi::{Move, MoveList, Position, MAX_MOVES};

/// Keys at and above this: the hash move.
const HASH_MOVE: i32 = 1 << 30;
/// Keys from here up to [`HASH_MOVE`]: captures not known to lose, `2 * capture_key` plus
/// one while the exchange is still to be judged.
const GOOD_CAPTURE: i32 = 1 << 28;
/// Keys from here up to [`GOOD_CAPTURE`]: the killers and the counter-move (quiet moves'
/// history stays far below it).
const KILLER: i32 = 1 << 27;
/// Losing captures: this plus their `capture_key` (below every quiet move's history).
const BAD_CAPTURE: i32 = -(1 << 28);
/// Quiescence key of a move that captures nothing (an evasion from check).
const QUIET_EVASION: i32 = -1000;

/// What kind of move the picker handed out.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kind {
    /// The transposition table's move (a capture or not).
    Hash,
    /// A capture that does not lose material by SEE (or, in quiescence, any capture).
    GoodCapture,
    /// A killer or the counter-move.
    Refutation,
    /// Any other non-capture.
    Quiet,
    /// A capture that loses material by SEE.
    BadCapture,
}

/// The capture order: the victim's value first, then the cheaper attacker.
#[inline]
fn capture_key(pos: &Position, m: Move, attacker: i32) -> i32 {
    victim_value(pos, m) * 16 - attacker / 8
}

#[inline]
fn attacker_value(pos: &Position, m: Move) -> i32 {
    pos.piece_at(m.from()).map_or(0, |p| value(p.kind))
}

/// What the main search knows to order its quiet moves.
pub(crate) struct Refutations {
    /// The killers of the node's ply, the first the better.
    pub killers: [Option<Move>; 2],
    /// The move that last refuted the move played before the node.
    pub counter: Option<Move>,
}

/// The moves of a node, handed out best first.
pub(crate) struct MovePicker {
    moves: MoveList,
    keys: [i32; MAX_MOVES],
    next: usize,
    /// Whether a capture that might lose material is judged by SEE when it comes up (main
    /// search), or not (quiescence prunes such captures itself).
    judge_captures: bool,
}

impl MovePicker {
    /// The main search's order of `moves`; `quiet` gives a quiet move's history score.
    pub fn main(
        pos: &Position,
        moves: MoveList,
        hash_move: Option<Move>,
        refutations: &Refutations,
        quiet: impl Fn(Move) -> i32,
    ) -> MovePicker {
        let mut keys = [0; MAX_MOVES];
        for (key, &m) in keys.iter_mut().zip(moves.iter()) {
            *key = if Some(m) == hash_move {
                HASH_MOVE
            } else if pos.is_capture(m) {
                let attacker = attacker_value(pos, m);
                // Whether a capture of a lesser piece loses material is asked only if it is
                // picked: most nodes end before their last captures.
                let unjudged = victim_value(pos, m) < attacker;
                GOOD_CAPTURE + 2 * capture_key(pos, m, attacker) + unjudged as i32
            } else if refutations.killers[0] == Some(m) {
                KILLER + 2
            } else if refutations.killers[1] == Some(m) {
                KILLER + 1
            } else if refutations.counter == Some(m) {
                KILLER
            } else {
                quiet(m)
            };
        }
        MovePicker { moves, keys, next: 0, judge_captures: true }
    }

    /// The quiescence search's order of `moves` (captures, or all evasions when in check).
    pub fn quiescence(pos: &Position, moves: MoveList, hash_move: Option<Move>) -> MovePicker {
        let mut keys = [0; MAX_MOVES];
        for (key, &m) in keys.iter_mut().zip(moves.iter()) {
            *key = if Some(m) == hash_move {
                HASH_MOVE
            } else if pos.is_capture(m) {
                capture_key(pos, m, attacker_value(pos, m))
            } else {
                QUIET_EVASION
            };
        }
        MovePicker { moves, keys, next: 0, judge_captures: false }
    }

    /// The next best move and its kind; `None` when all have been handed out.
    pub fn next(&mut self, pos: &Position) -> Option<(Move, Kind)> {
        let i = self.next;
        if i >= self.moves.len() {
            return None;
        }
        loop {
            let m = self.select(i);
            let key = self.keys[i];
            if self.judge_captures && (GOOD_CAPTURE..HASH_MOVE).contains(&key) && key & 1 == 1 {
                let mvv = (key - GOOD_CAPTURE) / 2;
                if see(pos, m) < 0 {
                    // It loses: down among the bad captures, and pick again.
                    self.keys[i] = BAD_CAPTURE + mvv;
                    continue;
                }
                self.keys[i] = GOOD_CAPTURE + 2 * mvv;
            }
            self.next += 1;
            return Some((m, self.kind(self.keys[i], pos.is_capture(m))));
        }
    }

    fn kind(&self, key: i32, capture: bool) -> Kind {
        match key {
            HASH_MOVE.. => Kind::Hash,
            _ if capture && (!self.judge_captures || key >= GOOD_CAPTURE) => Kind::GoodCapture,
            _ if capture => Kind::BadCapture,
            KILLER.. => Kind::Refutation,
            _ => Kind::Quiet,
        }
    }

    /// Moves the best remaining move (by key) to `i` and returns it.
    fn select(&mut self, i: usize) -> Move {
        let mut best = i;
        for j in i + 1..self.moves.len() {
            if self.keys[j] > self.keys[best] {
                best = j;
            }
        }
        self.moves.swap(i, best);
        self.keys.swap(i, best);
        self.moves[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(fen: &str, hash: Option<&str>, killer: Option<&str>) -> Vec<(String, Kind)> {
        let pos: Position = fen.parse().unwrap();
        let refutations = Refutations { killers: [killer.map(|k| k.parse().unwrap()), None], counter: None };
        let mut p = MovePicker::main(&pos, pos.legal_moves(), hash.map(|h| h.parse().unwrap()), &refutations, |_| 0);
        std::iter::from_fn(|| p.next(&pos)).map(|(m, k)| (m.to_string(), k)).collect()
    }

    #[test]
    fn main_order_hash_good_captures_refutations_quiets_bad_captures() {
        // Red's rook d1 can take a free rook (d6) or a pawn (a1) that the rook on a9 guards.
        let fen = "r2k5/9/9/3r5/9/9/9/9/p2R5/4K4 w - - 0 1";
        let moves = order(fen, Some("e0f0"), Some("d1e1"));
        let pos: Position = fen.parse().unwrap();
        assert_eq!(moves.len(), pos.legal_moves().len());
        assert_eq!(moves[0], ("e0f0".into(), Kind::Hash));
        assert_eq!(moves[1], ("d1d6".into(), Kind::GoodCapture));
        assert_eq!(moves[2], ("d1e1".into(), Kind::Refutation));
        let kinds: Vec<Kind> = moves.iter().map(|m| m.1).collect();
        let last_quiet = kinds.iter().rposition(|&k| k == Kind::Quiet).unwrap();
        let first_bad = kinds.iter().position(|&k| k == Kind::BadCapture).unwrap();
        assert!(last_quiet < first_bad, "{moves:?}");
        assert_eq!(moves[first_bad].0, "d1a1");
        assert_eq!(kinds.iter().filter(|&&k| k == Kind::BadCapture).count(), 1);
    }
}
