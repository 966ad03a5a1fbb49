//! A fixed-capacity move list: move generation never touches the heap.

use crate::Move;
use core::ops::Deref;

/// More than the most moves any Xiangqi position allows (at most 2x17 rook, 2x17 cannon,
/// 2x8 horse, 2x4 elephant, 2x4 advisor, 4 king and 5x3 pawn moves: 119).
pub const MAX_MOVES: usize = 128;

/// Up to [`MAX_MOVES`] moves, stored inline. Dereferences to a slice.
///
/// [`crate::Position::legal_moves`] returns one; everything a slice offers works on it.
///
/// ```
/// use xiangqi::Position;
/// let mut moves = Position::startpos().legal_moves();
/// assert_eq!(moves.len(), 44);
/// assert!(moves.iter().any(|m| m.to_string() == "h2e2"));
/// moves.retain(|m| m.from().to_string() == "h2"); // the right cannon's moves
/// assert_eq!(moves.len(), 12);
/// ```
#[derive(Clone)]
pub struct MoveList {
    len: usize,
    moves: [Move; MAX_MOVES],
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub const fn new() -> MoveList {
        MoveList {
            len: 0,
            moves: [Move::new(crate::Square::from_index_unchecked(0), crate::Square::from_index_unchecked(0));
                MAX_MOVES],
        }
    }

    #[inline]
    pub(crate) fn push(&mut self, m: Move) {
        debug_assert!(self.len < MAX_MOVES);
        // The bound above is a proof about the rules, so this never fails; keep it safe anyway.
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = m;
            self.len += 1;
        }
    }

    /// Keeps the moves for which `keep` returns true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[j] = m;
                j += 1;
            }
        }
        self.len = j;
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl core::ops::DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl core::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
