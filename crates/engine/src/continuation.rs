//! Continuation history: how often a quiet move (piece code, target) refuted or failed after
//! a given earlier move (its piece code and target). Where plain history knows that a move
//! is good in general, this knows that it is good as an answer to that move (one ply back)
//! or as a follow-up of our own (two plies back).

use xiangqi::Square;

/// The number of piece codes ([`xiangqi::Piece::code`]: 0 for none, 1-14 for the pieces).
pub(crate) const PIECE_CODES: usize = 15;

/// Piece codes times squares.
const KEYS: usize = PIECE_CODES * Square::COUNT;

/// A history value never leaves `-LIMIT..=LIMIT` (the "gravity" update is self-limiting):
/// this table's and the search's plain history alike.
pub(crate) const LIMIT: i32 = 16_384;

/// The table: `KEYS` rows (the earlier move) of `KEYS` counters (this move), 3.6 MB.
pub(crate) struct ContinuationHistory {
    table: Vec<i16>,
}

impl ContinuationHistory {
    pub fn new() -> ContinuationHistory {
        ContinuationHistory { table: vec![0; KEYS * KEYS] }
    }

    pub fn clear(&mut self) {
        self.table.fill(0);
    }

    #[inline]
    fn index(earlier: (u8, usize), piece: u8, to: usize) -> usize {
        (earlier.0 as usize * Square::COUNT + earlier.1) * KEYS + piece as usize * Square::COUNT + to
    }

    /// The counter of `piece` moving to `to` after the earlier move `(piece code, target)`.
    #[inline]
    pub fn get(&self, earlier: (u8, usize), piece: u8, to: usize) -> i32 {
        self.table[Self::index(earlier, piece, to)] as i32
    }

    /// Moves the counter towards `±LIMIT` by `bonus`, less the closer it already is (the
    /// "gravity" update: old knowledge fades as new arrives).
    #[inline]
    pub fn update(&mut self, earlier: (u8, usize), piece: u8, to: usize, bonus: i32) {
        let h = &mut self.table[Self::index(earlier, piece, to)];
        let v = *h as i32;
        *h = (v + bonus - v * bonus.abs() / LIMIT).clamp(-LIMIT, LIMIT) as i16;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn updates_stay_bounded_and_apart() {
        let mut c = ContinuationHistory::new();
        for _ in 0..1000 {
            c.update((3, 40), 5, 12, 1600);
            c.update((3, 40), 5, 13, -1600);
        }
        assert!((LIMIT - 100..=LIMIT).contains(&c.get((3, 40), 5, 12)));
        assert!((-LIMIT..=-LIMIT + 100).contains(&c.get((3, 40), 5, 13)));
        // Another earlier move, or another piece, has its own counter.
        assert_eq!(c.get((3, 41), 5, 12), 0);
        assert_eq!(c.get((3, 40), 6, 12), 0);
        c.clear();
        assert_eq!(c.get((3, 40), 5, 12), 0);
    }
}
